"""Writes a small Task IR graph with a ResNet downsample for the LayerGroup
lit tests: input a [H][W][C] through a 1x1 convolution of stride S (F
filters, bias), plus input skip [H/S][W/S][F] (CADD), then a ReLU (1x1
CCMPB, CMP 0) into the SO y. All of precision P. The convolution has
padding PD below and PR right (default 0).

  lg_downsample_graph.py OUT.json P H W C F S [PD PR]
"""
import sys

from lg_taskir import Graph

path, prec = sys.argv[1], sys.argv[2]
H, W, C, F, S = (int(v) for v in sys.argv[3:8])
PD, PR = (int(v) for v in sys.argv[8:10]) if len(sys.argv) > 8 else (0, 0)
OH, OW = (H + PD - 1) // S + 1, (W + PR - 1) // S + 1
a = {"y": H, "x": W, "f": C}
a_r = {"y": H, "x": W, "r": C}
w = {"f": F, "r": C, "ky": 1, "kx": 1}
o = {"y": OH, "x": OW, "f": F}
one = [{"type": "KERNEL_Y", "int_value": 1}, {"type": "KERNEL_X", "int_value": 1}]
blocks = [
    {"id": 0, "name": "a", "type": "SI", "shape": a},
    {"id": 1, "name": "conv.in", "type": "SIC", "shape": a_r},
    {"id": 2, "name": "conv.w", "type": "SW", "shape": w,
     "init": {"seed": 7, "kind": "UNIFORM", "scale": 0.25}},
    {"id": 3, "name": "conv.b", "type": "SB", "shape": {"f": F},
     "init": {"seed": 8, "kind": "UNIFORM", "scale": 0.05}},
    {"id": 4, "name": "conv", "type": "CC",
     "shape": dict(o, r=C, ky=1, kx=1, iy=H, ix=W),
     "attributes": one + [{"type": "STRIDE_Y", "int_value": S},
                          {"type": "STRIDE_X", "int_value": S},
                          {"type": "PAD_DOWN", "int_value": PD},
                          {"type": "PAD_RIGHT", "int_value": PR}]},
    {"id": 5, "name": "conv.out", "type": "SI", "shape": o},
    {"id": 6, "name": "skip", "type": "SI", "shape": o},
    {"id": 7, "name": "add", "type": "CADD", "shape": o},
    {"id": 8, "name": "add.out", "type": "SI", "shape": o},
    {"id": 9, "name": "relu", "type": "CCMPB",
     "shape": dict(o, ky=1, kx=1, iy=OH, ix=OW),
     "attributes": one + [{"type": "STRIDE_Y", "int_value": 1},
                          {"type": "STRIDE_X", "int_value": 1},
                          {"type": "CMP", "int_value": 0}]},
    {"id": 10, "name": "y", "type": "SO", "shape": o},
]
g = Graph(blocks)
g.connect(0, 1, a)
g.connect(1, 4, a_r)
g.connect(2, 4, w)
g.connect(3, 4, {"f": F})
g.connect(4, 5, o)
g.connect(6, 7, o)
g.connect(5, 7, o)
g.connect(7, 8, o)
g.connect(8, 9, o)
g.connect(9, 10, o)
g.write(path, prec)
