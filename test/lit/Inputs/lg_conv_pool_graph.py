"""Writes a small Task IR graph for the LayerGroup lit tests: input a
[H][W][C] through a 1x1 convolution (F filters, bias), a ReLU (1x1 CCMPB,
CMP 0) and a max pool (CCMPB from -inf) of kernel K, stride S and padding P
on every side into the SO y. All FLOAT32. A pool whose padding is at least
its kernel has windows of padding only, -inf in the reference.

  lg_conv_pool_graph.py OUT.json H W C F K S P
"""
import sys

from lg_taskir import Graph

path = sys.argv[1]
H, W, C, F, K, S, P = (int(v) for v in sys.argv[2:9])
OH, OW = (H + 2 * P - K) // S + 1, (W + 2 * P - K) // S + 1
a = {"y": H, "x": W, "f": C}
a_r = {"y": H, "x": W, "r": C}
w = {"f": F, "r": C, "ky": 1, "kx": 1}
c = {"y": H, "x": W, "f": F}
o = {"y": OH, "x": OW, "f": F}


def window(k, s, p=0):
    attrs = [{"type": "KERNEL_Y", "int_value": k},
             {"type": "KERNEL_X", "int_value": k},
             {"type": "STRIDE_Y", "int_value": s},
             {"type": "STRIDE_X", "int_value": s}]
    if p:
        attrs += [{"type": t, "int_value": p}
                  for t in ("PAD_UP", "PAD_DOWN", "PAD_LEFT", "PAD_RIGHT")]
    return attrs


blocks = [
    {"id": 0, "name": "a", "type": "SI", "shape": a},
    {"id": 1, "name": "conv.in", "type": "SIC", "shape": a_r},
    {"id": 2, "name": "conv.w", "type": "SW", "shape": w,
     "init": {"seed": 7, "kind": "UNIFORM", "scale": 0.25}},
    {"id": 3, "name": "conv.b", "type": "SB", "shape": {"f": F},
     "init": {"seed": 8, "kind": "UNIFORM", "scale": 0.05}},
    {"id": 4, "name": "conv", "type": "CC",
     "shape": dict(c, r=C, ky=1, kx=1, iy=H, ix=W), "attributes": window(1, 1)},
    {"id": 5, "name": "conv.out", "type": "SI", "shape": c},
    {"id": 6, "name": "relu", "type": "CCMPB",
     "shape": dict(c, ky=1, kx=1, iy=H, ix=W),
     "attributes": window(1, 1) + [{"type": "CMP", "int_value": 0}]},
    {"id": 7, "name": "relu.out", "type": "SI", "shape": c},
    {"id": 8, "name": "pool", "type": "CCMPB",
     "shape": dict(o, ky=K, kx=K, iy=H, ix=W), "attributes": window(K, S, P)},
    {"id": 9, "name": "y", "type": "SO", "shape": o},
]
g = Graph(blocks)
g.connect(0, 1, a)
g.connect(1, 4, a_r)
g.connect(2, 4, w)
g.connect(3, 4, {"f": F})
g.connect(4, 5, c)
g.connect(5, 6, c)
g.connect(6, 7, c)
g.connect(7, 8, c)
g.connect(8, 9, o)
g.write(path, "FLOAT32")
