"""Writes a small Task IR graph with a CVVH (Hadamard product) for the
LayerGroup lit tests: inputs a and b [H][W][C] of precision IN, a ReLU
(1x1 CCMPB, CMP 0) on b, then CVVH(a, relu(b)) of precision OUT with an SB
bias (values BIAS), into the SO y.

  lg_cvvh_graph.py OUT.json IN OUT H W C
"""
import json
import sys

path, pin, pout = sys.argv[1], sys.argv[2], sys.argv[3]
H, W, C = (int(v) for v in sys.argv[4:7])
hwc = {"y": H, "x": W, "f": C}
edges = []


def edge(src, dst):
    edges.append({"id": len(edges), "source": src, "destination": dst})
    return {"shape": dict(hwc), "interfaces": [{"edge_id": len(edges) - 1}]}


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
outs = {b["id"]: [] for b in blocks}
ins = {b["id"]: [] for b in blocks}


def connect(src, dst, shape=None):
    c = edge(src, dst)
    if shape:
        c["shape"] = shape
    outs[src].append(c)
    ins[dst].append(c)


connect(1, 2)
connect(2, 3)
connect(0, 5)
connect(3, 5)
connect(4, 5, {"f": C})
connect(5, 6)
is_float = pout.startswith("FLOAT")
for b in blocks:
    if outs[b["id"]]:
        b["output_clusters"] = outs[b["id"]]
    if ins[b["id"]]:
        b["input_clusters"] = ins[b["id"]]
    if b["type"] == "SB":
        vals = [(i % 5) - 2 for i in range(C)]
        b["data"] = ({"float_data": [v / 4 for v in vals]} if is_float
                     else {"int32_data": vals})
json.dump({"version": "1.0", "blocks": blocks, "edges": edges},
          open(path, "w"), indent=1)
