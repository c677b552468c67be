"""Writes a small Task IR graph with a CVVH (Hadamard product) for the
LayerGroup lit tests: inputs a and b [H][W][C] of precision IN, a ReLU
(1x1 CCMPB, CMP 0) on b, then CVVH(a, relu(b)) of precision OUT with an SB
bias (values BIAS), into the SO y.

  lg_cvvh_graph.py OUT.json IN OUT H W C
"""
import sys

from lg_taskir import Graph

path, pin, pout = sys.argv[1], sys.argv[2], sys.argv[3]
H, W, C = (int(v) for v in sys.argv[4:7])
hwc = {"y": H, "x": W, "f": C}
blocks = [
    {"id": 0, "name": "a", "type": "SI", "precision": pin, "shape": hwc},
    {"id": 1, "name": "b", "type": "SI", "precision": pin, "shape": hwc},
    {"id": 2, "name": "relu", "type": "CCMPB", "precision": pin,
     "shape": dict(hwc, ky=1, kx=1, iy=H, ix=W),
     "attributes": [{"type": "CMP", "int_value": 0}]},
    {"id": 3, "name": "relu.out", "type": "SI", "precision": pin, "shape": hwc},
    {"id": 4, "name": "bias", "type": "SB", "precision": pout,
     "shape": {"f": C}},
    {"id": 5, "name": "prod", "type": "CVVH", "precision": pout, "shape": hwc},
    {"id": 6, "name": "y", "type": "SO", "precision": pout, "shape": hwc},
]
g = Graph(blocks)
g.connect(1, 2, hwc)
g.connect(2, 3, hwc)
g.connect(0, 5, hwc)
g.connect(3, 5, hwc)
g.connect(4, 5, {"f": C})
g.connect(5, 6, hwc)
is_float = pout.startswith("FLOAT")
for b in blocks:
    if b["type"] == "SB":
        vals = [(i % 5) - 2 for i in range(C)]
        b["data"] = ({"float_data": [v / 4 for v in vals]} if is_float
                     else {"int32_data": vals})
g.write(path)
