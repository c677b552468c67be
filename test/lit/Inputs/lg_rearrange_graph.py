"""Writes a small FLOAT32 Task IR graph whose edges take sub-boxes,
concatenate or rearrange, for the LayerGroup lit tests of views (edges
loaded by strided DMA). Each CASE reads network input x [H][W][C] through
layers (a ReLU, a CVS scale) whose outputs the edge under test reads, then
a ReLU (or a 3x3 convolution: concat) over the result, into the SO y.

  lg_rearrange_graph.py OUT.json CASE H W C

CASE: concat_c (two layers' outputs side by side along channels, into a
3x3 convolution), concat_h (along rows), crop (a sub-box of y, x and f),
permute_hw, permute_c (the channel axis moves), reflect_shift (REFLECT
columns, then a cyclic SHIFT of rows), rotate, reshape, upsample (SCALE 2
of rows), upsample3 (SCALE 3 of rows: more source rows than boxes, the
rows repeated in NRAM), upsample3_c (the same into channels [C, 2C) of a
concatenation after x itself), upsample2x2 (SCALE 2 of rows and
columns: columns repeated by the DMA), shift_zero (a zero-filling SHIFT of
columns); gathered in NRAM (no 16 strided boxes express them): shuffle (a
SHUFFLE of all elements, axis -1), shuffle_rows (SHUFFLE of rows, a
fixed random permutation), shear (SHEAR 1 0 of
rows by columns: zero-filled), affine (AFFINE: a rotation by 30 degrees
about the centre, nearest, zeros outside), shuffle_concat (shuffle_rows
of a scaled x beside r along channels: a gather of two sources);
so_permute and so_shear (the SO reads r through a PERMUTE or a SHEAR: a
copy layer).

  lg_rearrange_graph.py OUT.json CASE H W C [PRECISION]

PRECISION (default FLOAT32) is every block's.
"""
import json
import random
import sys

import math

path, case = sys.argv[1], sys.argv[2]
H, W, C = (int(v) for v in sys.argv[3:6])
PREC = sys.argv[6] if len(sys.argv) > 6 else "FLOAT32"
blocks, edges = [], []


def block(name, typ, shape, **kw):
    b = dict(id=len(blocks), name=name, type=typ, precision=PREC,
             shape=shape, **kw)
    blocks.append(b)
    return b


def out_shape(b):
    s = b["shape"]
    if b["type"] == "SIC":
        return {"y": s["y"], "x": s["x"], "r": s["r"]}
    if b["type"] in ("SW", "SB"):
        return dict(s)
    return {k: s[k] for k in ("y", "x", "f") if k in s}


def in_shape(b):
    s = b["shape"]
    if b["type"] == "SIC":
        return {"y": s["y"], "x": s["x"], "f": s["r"]}
    return {k: s[k] for k in ("y", "x", "f") if k in s}


def connect(src, dst, cluster=0, cshape=None, spos=None, ssize=None,
            dpos=None, dsize=None, rearranges=()):
    e = len(edges)
    edges.append({"id": e, "source": src["id"], "destination": dst["id"],
                  "rearranges": [{"type": t, "params": list(p)}
                                 for t, p in rearranges]})
    src.setdefault("output_clusters", [{"shape": out_shape(src),
                                        "interfaces": []}])
    si = {"edge_id": e}
    if spos:
        si["position"], si["size"] = spos, ssize
    src["output_clusters"][0]["interfaces"].append(si)
    ins = dst.setdefault("input_clusters", [])
    while len(ins) <= cluster:
        ins.append({"shape": cshape or in_shape(dst), "interfaces": []})
    di = {"edge_id": e}
    if dpos:
        di["position"], di["size"] = dpos, dsize
    ins[cluster]["interfaces"].append(di)


def hwc(h, w, c):
    return {"y": h, "x": w, "f": c}


def relu(src, name):
    s = src["shape"]
    h, w, c = s["y"], s["x"], s.get("f", s.get("r"))
    r = block(name, "CCMPB", dict(hwc(h, w, c), ky=1, kx=1, iy=h, ix=w),
              attributes=[{"type": "CMP", "int_value": 0}])
    connect(src, r, cshape=hwc(h, w, c))
    o = block(name + ".out", "SI", hwc(h, w, c))
    connect(r, o)
    return o


def scale(src, a, name):
    s = src["shape"]
    v = block(name, "CVS", hwc(s["y"], s["x"], s["f"]),
              attributes=[{"type": "CONST_A", "float_value": a}])
    connect(src, v)
    o = block(name + ".out", "SI", hwc(s["y"], s["x"], s["f"]))
    connect(v, o)
    return o


def conv3x3(sic, f, name):
    s = sic["shape"]
    h, w, r = s["y"], s["x"], s["r"]
    cc = block(name, "CC", {"y": h, "x": w, "f": f, "r": r, "ky": 3, "kx": 3,
                            "iy": h, "ix": w},
               attributes=[{"type": t, "int_value": v} for t, v in
                           (("KERNEL_Y", 3), ("KERNEL_X", 3), ("PAD_UP", 1),
                            ("PAD_DOWN", 1), ("PAD_LEFT", 1),
                            ("PAD_RIGHT", 1))])
    sw = block(name + ".w", "SW", {"f": f, "r": r, "ky": 3, "kx": 3},
               init={"seed": 3, "kind": "UNIFORM", "scale": 0.2})
    sb = block(name + ".b", "SB", {"f": f},
               init={"seed": 4, "kind": "UNIFORM", "scale": 0.1})
    connect(sic, cc, 0, {"y": h, "x": w, "r": r})
    connect(sw, cc, 1, {"f": f, "r": r, "ky": 3, "kx": 3})
    connect(sb, cc, 2, {"f": f})
    o = block(name + ".out", "SI", hwc(h, w, f))
    connect(cc, o)
    return o


def rows_perm(n):
    """A fixed permutation of n rows that no 16 boxes fit."""
    perm = list(range(n))
    random.Random(1).shuffle(perm)
    return perm


x = block("x", "SI", hwc(H, W, C))
r = relu(x, "r")
if case == "concat_c":
    a = scale(x, 0.5, "half")
    cat = block("cat", "SIC", {"y": H, "x": W, "r": 2 * C})
    connect(a, cat, dpos={"y": 0, "x": 0, "f": 0}, dsize=hwc(H, W, C))
    connect(r, cat, dpos={"y": 0, "x": 0, "f": C}, dsize=hwc(H, W, C))
    res = conv3x3(cat, 8, "conv")
elif case == "concat_h":
    a = scale(x, 0.5, "half")
    cat = block("cat", "SI", hwc(2 * H, W, C))
    connect(a, cat, dpos={"y": 0, "x": 0, "f": 0}, dsize=hwc(H, W, C))
    connect(r, cat, dpos={"y": H, "x": 0, "f": 0}, dsize=hwc(H, W, C))
    res = relu(cat, "r2")
elif case == "shuffle_concat":
    a = scale(x, 0.5, "half")
    perm = rows_perm(H)
    cat = block("cat", "SI", hwc(H, W, 2 * C))
    connect(a, cat, dpos={"y": 0, "x": 0, "f": 0}, dsize=hwc(H, W, C),
            rearranges=[("SHUFFLE", [0] + perm)])
    connect(r, cat, dpos={"y": 0, "x": 0, "f": C}, dsize=hwc(H, W, C))
    res = relu(cat, "r2")
elif case == "upsample3_c":
    a = scale(x, 0.5, "half")
    cat = block("cat", "SI", hwc(3 * H, W, 2 * C))
    for i, src in enumerate((a, r)):
        connect(src, cat, dpos={"y": 0, "x": 0, "f": i * C},
                dsize=hwc(3 * H, W, C), rearranges=[("SCALE", (3,))])
    res = relu(cat, "r2")
else:
    shape, rs, spos, ssize = None, [], None, None
    if case == "crop":
        spos, ssize = {"y": 1, "x": 2, "f": 1}, hwc(H - 2, W - 3, C - 2)
        shape = ssize
    elif case == "permute_hw":
        shape, rs = hwc(W, H, C), [("PERMUTE", (1, 0, 2))]
    elif case == "permute_c":
        shape, rs = hwc(C, H, W), [("PERMUTE", (2, 0, 1))]
    elif case == "reflect_shift":
        shape = hwc(H, W, C)
        rs = [("REFLECT", (1,)), ("SHIFT", (0, 3))]
    elif case == "rotate":
        shape, rs = hwc(W, H, C), [("ROTATE", (1,))]
    elif case == "reshape":
        shape, rs = hwc(H // 2, 2 * W, C), [("RESHAPE", (H // 2, 2 * W, C))]
    elif case == "upsample":
        shape, rs = hwc(2 * H, W, C), [("SCALE", (2,))]
    elif case == "upsample3":
        shape, rs = hwc(3 * H, W, C), [("SCALE", (3,))]
    elif case == "upsample2x2":
        shape, rs = hwc(2 * H, 2 * W, C), [("SCALE", (2, 2))]
    elif case == "shift_zero":
        shape, rs = hwc(H, W, C), [("SHIFT", (1, 2, 1))]
    elif case == "shuffle":
        n = H * W * C
        perm = [(i * 7919 + 13) % n for i in range(n)]
        assert len(set(perm)) == n, "7919 must not divide H * W * C"
        shape, rs = hwc(H, W, C), [("SHUFFLE", [-1] + perm)]
    elif case == "shuffle_rows":
        perm = rows_perm(H)
        shape, rs = hwc(H, W, C), [("SHUFFLE", [0] + perm)]
    elif case == "shear":
        shape, rs = hwc(H + W, W, C), [("SHEAR", (1, 0, 0, 1))]
    elif case == "affine":
        t = math.radians(30)
        cy, cx = (H - 1) / 2, (W - 1) / 2
        m = [math.cos(t), -math.sin(t), 0, math.sin(t), math.cos(t), 0]
        m[2] = cy - m[0] * cy - m[1] * cx
        m[5] = cx - m[3] * cy - m[4] * cx
        shape, rs = hwc(H, W, C), [("AFFINE", m)]
    elif case == "so_permute":
        shape, rs = hwc(W, H, C), [("PERMUTE", (1, 0, 2))]
    elif case == "so_shear":
        shape, rs = hwc(H + W, W, C), [("SHEAR", (1, 0, 0, 1))]
    else:
        sys.exit("unknown case " + case)
    if case.startswith("so_"):  # the SO itself reads the rearranging edge
        y = block("y", "SO", shape)
        connect(r, y, rearranges=rs)
        res = None
    else:
        v = block("view", "SI", shape)
        connect(r, v, spos=spos, ssize=ssize, rearranges=rs)
        res = relu(v, "r2")
if res is not None:
    y = block("y", "SO", dict(res["shape"]))
    connect(res, y)
json.dump({"version": "1.0", "blocks": blocks, "edges": edges},
          open(path, "w"), indent=1)
