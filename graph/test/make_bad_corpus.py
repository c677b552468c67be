#!/usr/bin/python3
# Regenerates good/small_conv.json and the bad-graph corpus bad/*.json with
# the messages each must produce (bad/NAME.expected). Run from graph/test.
#
# One bad graph per message the validator (graph/Validate.cpp) can emit:
# each case breaks one rule of a small valid graph and NAME.expected holds
# every error validation must report, in order, exactly (one line per
# error). Each case gives exactly one error, except where one mistake
# necessarily breaks two rules: then both are listed (see the case's
# comment).
# Validate.EveryMessageHasABadGraph fails if a message of Validate.cpp has
# no case here. The expected texts are written by hand from the rules, not
# copied from the validator's output.
import json, copy, os
base = {
 "version": "1.0",
 "blocks": [
  {"id": 0, "name": "x", "type": "SI", "precision": "INT8", "shape": {"y": 4, "x": 4, "f": 2},
   "output_clusters": [{"shape": {"y": 4, "x": 4, "f": 2}, "interfaces": [{"edge_id": 0}]}]},
  {"id": 1, "type": "SIC", "precision": "INT8", "shape": {"y": 4, "x": 4, "r": 2},
   "input_clusters": [{"shape": {"y": 4, "x": 4, "f": 2}, "interfaces": [{"edge_id": 0}]}],
   "output_clusters": [{"shape": {"y": 4, "x": 4, "r": 2}, "interfaces": [{"edge_id": 1}]}]},
  {"id": 2, "type": "SW", "precision": "INT8", "shape": {"f": 3, "r": 2, "ky": 3, "kx": 3},
   "output_clusters": [{"shape": {"f": 3, "r": 2, "ky": 3, "kx": 3}, "interfaces": [{"edge_id": 2}]}],
   "init": {"seed": 7, "kind": "UNIFORM", "scale": 100}},
  {"id": 3, "type": "SB", "precision": "INT32", "shape": {"f": 3},
   "output_clusters": [{"shape": {"f": 3}, "interfaces": [{"edge_id": 3}]}],
   "data": {"int32_data": [10, -20, 30]}},
  {"id": 4, "name": "conv", "type": "CC", "precision": "INT32",
   "shape": {"y": 4, "x": 4, "f": 3, "r": 2, "ky": 3, "kx": 3, "iy": 4, "ix": 4},
   "attributes": [{"type": "PAD_UP", "int_value": 1}, {"type": "PAD_DOWN", "int_value": 1},
                  {"type": "PAD_LEFT", "int_value": 1}, {"type": "PAD_RIGHT", "int_value": 1}],
   "input_clusters": [
     {"shape": {"y": 4, "x": 4, "r": 2}, "interfaces": [{"edge_id": 1}]},
     {"shape": {"f": 3, "r": 2, "ky": 3, "kx": 3}, "interfaces": [{"edge_id": 2}]},
     {"shape": {"f": 3}, "interfaces": [{"edge_id": 3}]}],
   "output_clusters": [{"shape": {"y": 4, "x": 4, "f": 3}, "interfaces": [{"edge_id": 4}]}]},
  {"id": 5, "name": "y", "type": "SO", "precision": "INT32", "shape": {"y": 4, "x": 4, "f": 3},
   "input_clusters": [{"shape": {"y": 4, "x": 4, "f": 3}, "interfaces": [{"edge_id": 4}]}]}
 ],
 "edges": [
  {"id": 0, "source": 0, "destination": 1},
  {"id": 1, "source": 1, "destination": 4},
  {"id": 2, "source": 2, "destination": 4},
  {"id": 3, "source": 3, "destination": 4},
  {"id": 4, "source": 4, "destination": 5}
 ]
}
json.dump(base, open('good/small_conv.json', 'w'), indent=1)
B = lambda g, i: g["blocks"][i]
cases = {}
def case(name, expected, fn, start=None):
    g = copy.deepcopy(base if start is None else start); fn(g)
    cases[name] = (g, [expected] if isinstance(expected, str) else expected)
def drop(g, block_ids=(), edge_ids=()):
    g["blocks"] = [b for b in g["blocks"] if b.get("id") not in block_ids]
    g["edges"] = [e for e in g["edges"] if e.get("id") not in edge_ids]
def iface(g, i, side="output_clusters"):
    return B(g, i)[side][0]["interfaces"]
CONV = "block 4 (CC 'conv')"
# An isolated bias block: valid on its own, used to break id and cluster
# rules without touching the blocks the edges join.
LONE_SB = {"id": 6, "type": "SB", "precision": "INT32", "shape": {"f": 1}, "data": {"int32_data": [5]}}
def lone(g, **changes):
    b = copy.deepcopy(LONE_SB); b.update(changes)
    for k in [k for k, v in changes.items() if v is None]:
        b.pop(k)
    g["blocks"].append(b)

case("version", "graph: version '2.0' is not supported (expected 1.0)", lambda g: g.update(version="2.0"))
case("no_blocks", "graph: has no blocks", lambda g: g.update(blocks=[], edges=[]))
case("missing_block_id", "block <no id> (SB): id: missing", lambda g: lone(g, id=None))
case("duplicate_block_id", "block 3 (SB): id: duplicate block id 3", lambda g: lone(g, id=3))
case("missing_type", "block 6 (BLOCK_TYPE_UNSPECIFIED): type: missing or unknown block type", lambda g: lone(g, type=None))
case("missing_precision", "block 3 (SB): precision: missing or unknown precision", lambda g: B(g,3).pop("precision"))
case("duplicate_name", "block 5 (SO 'x'): name: 'x' is also the name of block 0 (SI 'x')", lambda g: B(g,5).update(name="x"))
case("shape_zero_dim", "block 3 (SB): shape: dimension 'f' is 0; used dimensions must be >= 1 and unused ones -1", lambda g: B(g,3)["shape"].update(f=0))
case("shape_required_dim", "block 1 (SIC): shape: dimension 'r' is required for SIC", lambda g: B(g,1)["shape"].pop("r"))
case("shape_unused_dim", "block 3 (SB): shape: dimension 'r' must be -1 (unused) for SB", lambda g: B(g,3)["shape"].update(r=2))
case("window_mismatch", "block 4 (CC 'conv'): shape: y = 4 but the window gives (iy 4 + pad 0 + 1 - dilation 1 * (ky 3 - 1) - 1) / stride 1 + 1 = 3", lambda g: B(g,4)["attributes"].pop(0))
# Edges 2 and 3 still lead to the block: no error of their own.
case("cluster_count", CONV + ": input_clusters: CC takes input clusters (input, weight[, bias]), got 1", lambda g: B(g,4).update(input_clusters=B(g,4)["input_clusters"][:1]))
case("cluster_shape", "block 4 (CC 'conv'): input_clusters[1].shape: expected [f=3, r=2, ky=3, kx=3] (weight), got [f=3, r=2, kx=3]", lambda g: B(g,4)["input_clusters"][1]["shape"].pop("ky"))
case("storage_cluster_shape", "block 1 (SIC): input_clusters[0].shape: expected [y=4, x=4, f=2] (input), got [y=4, x=4, r=2]", lambda g: B(g,1)["input_clusters"][0].update(shape={"y":4,"x":4,"r":2}))
case("so_output_cluster", "block 5 (SO 'y'): output_clusters: SO blocks have no output cluster", lambda g: B(g,5).update(output_clusters=[{"shape": {"y": 4, "x": 4, "f": 3}}]))
case("interface_outside", "block 0 (SI 'x'): output_clusters[0].interfaces[0]: position [y=0, x=2, f=0] size [y=4, x=4, f=2] lies outside the cluster shape [y=4, x=4, f=2] in dimension 'x'", lambda g: B(g,0)["output_clusters"][0]["interfaces"][0].update(position={"y":0,"x":2,"f":0}, size={"y":4,"x":4,"f":2}))
# r instead of f: the size still lists 4, 4, 2 as edge 0's destination does.
case("interface_dims", "block 0 (SI 'x'): output_clusters[0].interfaces[0].size: uses dimensions [y, x, r] but the cluster has [y, x, f]", lambda g: iface(g,0)[0].update(size={"y":4,"x":4,"r":2}))
# The producer sends the same part (output interfaces need not tile).
case("interface_gap", "block 5 (SO 'y'): input_clusters[0].interfaces: input interfaces cover 32 of the cluster's 48 elements; they must cover it exactly", lambda g: [i.update(position={"y":0,"x":0,"f":0}, size={"y":4,"x":4,"f":2}) for i in (iface(g,5,"input_clusters")[0], iface(g,4)[0])])
case("interface_overlap", "block 1 (SIC): input_clusters[0].interfaces: input interfaces 0 and 1 overlap", lambda g: (B(g,1)["input_clusters"][0]["interfaces"].append({"edge_id": 5}), g["edges"].append({"id":5,"source":0,"destination":1}), B(g,0)["output_clusters"][0]["interfaces"].append({"edge_id":5})))
case("interface_missing_edge_id", "block 0 (SI 'x'): output_clusters[0].interfaces[1].edge_id: missing", lambda g: iface(g,0).append({}))
case("interface_unknown_edge", "block 0 (SI 'x'): output_clusters[0].interfaces[1].edge_id: edge 9 does not exist", lambda g: iface(g,0).append({"edge_id": 9}))
case("interface_wrong_block", "block 0 (SI 'x'): output_clusters[0].interfaces[1].edge_id: edge 3 has source 3, not this block", lambda g: iface(g,0).append({"edge_id": 3}))
case("compute_input_unfed", CONV + ": input_clusters[2]: the bias cluster has no interfaces; every compute input must be fed by an edge", lambda g: (B(g,4)["input_clusters"][2].update(interfaces=[]), drop(g, (3,), (3,))))
case("missing_edge_id", "edge <no id>: id: missing", lambda g: g["edges"].append({"source": 0, "destination": 1}))
case("duplicate_edge_id", "edge 3: id: duplicate edge id 3", lambda g: g["edges"].append({"id": 3, "source": 0, "destination": 1}))
case("edge_missing_source", "edge 0: source: missing", lambda g: (g["edges"][0].pop("source"), iface(g,0).clear()))
case("edge_unknown_block", "edge 4: destination: block 42 does not exist", lambda g: (g["edges"][4].update(destination=42), B(g,5).pop("input_clusters")))
case("edge_no_source_interface", "edge 0: source: no output interface of block 0 (SI 'x') refers to this edge", lambda g: B(g,0).pop("output_clusters"))
# A compute block reading a compute block also breaks the role rule (its
# input must come from a storage block): both are reported.
case("edge_compute_to_compute", ["edge 4: destination: joins two compute blocks (block 4 (CC 'conv') -> block 5 (CVS 'y')); a storage block must sit between them", "block 5 (CVS 'y'): input_clusters[0]: the input of CVS must come from SI, but block 4 (CC 'conv') feeds it"], lambda g: (B(g,5).update(type="CVS", precision="INT32", attributes=[{"type":"CONST_A","int_value":1}], output_clusters=[{"shape":{"y":4,"x":4,"f":3}}])))
case("edge_shape_mismatch", "edge 0: rearranges: source interface size [y=2, x=8, f=2] does not match destination interface size [y=4, x=4, f=2]; add a rearrangement (e.g. RESHAPE)", lambda g: (B(g,0).update(shape={"y":2,"x":8,"f":2}), B(g,0)["output_clusters"][0].update(shape={"y":2,"x":8,"f":2})))
case("edge_rearrange_result", "edge 0: rearranges: rearrangements turn the source interface size [y=4, x=4, f=2] into [4, 2, 4], but the destination interface size is [y=4, x=4, f=2]", lambda g: g["edges"][0].update(rearranges=[{"type":"PERMUTE","params":[0,2,1]}]))
case("edge_rearrange_params", "edge 0: rearranges[0]: RESHAPE: new shape [5, 5, 2] has 50 elements but the input [4, 4, 2] has 32 (input shape [4, 4, 2])", lambda g: g["edges"][0].update(rearranges=[{"type":"RESHAPE","params":[5,5,2]}]))
case("edge_rearrange_type", "edge 0: rearranges[0].type: missing or unknown rearrangement type", lambda g: g["edges"][0].update(rearranges=[{"params":[1]}]))
case("role_source_type", "block 4 (CC 'conv'): input_clusters[0]: the input of CC must come from SIC, but block 0 (SI 'x') feeds it", lambda g: (g["edges"][1].update(source=0), B(g,0)["output_clusters"][0]["interfaces"].append({"edge_id":1}), B(g,1)["output_clusters"][0].update(interfaces=[]), B(g,0).update(shape={"y":4,"x":4,"f":2})) and None)
case("cc_precision", "block 4 (CC 'conv'): precision: CC with INT8 inputs must produce INT32, got INT16", lambda g: (B(g,4).update(precision="INT16"), B(g,5).update(precision="INT16")))
case("storage_precision", "block 5 (SO 'y'): precision: is INT8 but its source block 4 (CC 'conv') produces INT32; storage blocks do not convert precisions", lambda g: B(g,5).update(precision="INT8"))
case("weight_class", "block 4 (CC 'conv'): precision: INT8 inputs with FLOAT32 weights; both must be integer or both float", lambda g: B(g,2).update(precision="FLOAT32"))
case("bias_precision", "block 4 (CC 'conv'): precision: bias is INT16 but integer inputs need a bias of INT32", lambda g: (B(g,3).update(precision="INT16")))
case("data_wrong_container", "block 3 (SB): data: INT32 values belong in int32_data, but 3 values are in other containers", lambda g: B(g,3).update(data={"float_data":[1,2,3]}))
case("data_length", "block 3 (SB): data: has 2 values but shape [f=3] needs 3", lambda g: B(g,3).update(data={"int32_data":[1,2]}))
case("data_range", "block 2 (SW): data: int32_data[1] = 300 is outside the INT8 range [-128, 127]", lambda g: (B(g,2).pop("init"), B(g,2).update(data={"int32_data":[1,300]+[0]*52})))
case("data_shape", "block 3 (SB): data.shape: [4] does not match the block shape [3]", lambda g: B(g,3)["data"].update(shape=[4]))
case("data_on_wrong_block", "block 0 (SI 'x'): data: only SW, SWFC, SB and CLUT blocks carry data", lambda g: B(g,0).update(data={"int32_data":[1]}))
case("weights_without_values", "block 2 (SW): data: has neither data, init nor a producing edge; weights and biases need values", lambda g: B(g,2).pop("init"))
case("data_and_init", "block 3 (SB): data: more than one of data, init and a producing edge give this block's values", lambda g: B(g,3).update(init={"seed":1,"kind":"UNIFORM","scale":1}))
case("init_kind", "block 2 (SW): init.kind: must be UNIFORM or CONSTANT", lambda g: B(g,2)["init"].pop("kind"))
case("attr_not_applicable", "block 4 (CC 'conv'): attributes[4]: CMP does not apply to CC", lambda g: B(g,4)["attributes"].append({"type":"CMP","int_value":0}))
case("attr_duplicate", "block 4 (CC 'conv'): attributes[4]: PAD_UP is given more than once", lambda g: B(g,4)["attributes"].append({"type":"PAD_UP","int_value":1}))
case("attr_no_value", "block 4 (CC 'conv'): attributes[4]: STRIDE_X has no int_value or float_value", lambda g: B(g,4)["attributes"].append({"type":"STRIDE_X"}))
case("attr_must_be_int", "block 4 (CC 'conv'): attributes[4]: STRIDE_X must be an int_value", lambda g: B(g,4)["attributes"].append({"type":"STRIDE_X","float_value":1.5}))
case("attr_negative_pad", "block 4 (CC 'conv'): attributes[0]: PAD_UP must be >= 0, got -1", lambda g: B(g,4)["attributes"][0].update(int_value=-1))
case("attr_kernel_mismatch", "block 4 (CC 'conv'): attributes[4]: KERNEL_X = 5 disagrees with the shape's kx = 3", lambda g: B(g,4)["attributes"].append({"type":"KERNEL_X","int_value":5}))
case("attr_stride_zero", "block 4 (CC 'conv'): attributes[4]: STRIDE_Y must be >= 1, got 0", lambda g: B(g,4)["attributes"].append({"type":"STRIDE_Y","int_value":0}))
# A storage block fed back by the compute block it feeds: nothing else wrong.
case("cycle", "graph: has a cycle (Task IR 1.0 graphs must be acyclic); blocks on or after it: 0, 1", lambda g: None, start={"version": "1.0",
  "blocks": [
   {"id": 0, "name": "a", "type": "SI", "precision": "INT8", "shape": {"y": 2, "x": 2, "f": 2},
    "input_clusters": [{"shape": {"y": 2, "x": 2, "f": 2}, "interfaces": [{"edge_id": 1}]}],
    "output_clusters": [{"shape": {"y": 2, "x": 2, "f": 2}, "interfaces": [{"edge_id": 0}]}]},
   {"id": 1, "name": "add", "type": "CADD", "precision": "INT8", "shape": {"y": 2, "x": 2, "f": 2},
    "input_clusters": [{"shape": {"y": 2, "x": 2, "f": 2}, "interfaces": [{"edge_id": 0}]}],
    "output_clusters": [{"shape": {"y": 2, "x": 2, "f": 2}, "interfaces": [{"edge_id": 1}]}]}],
  "edges": [{"id": 0, "source": 0, "destination": 1}, {"id": 1, "source": 1, "destination": 0}]})

# --- Small valid graphs for the other block types ---------------------------
def elementwise(ctype, out="INT8", attrs=(), inputs=(("x", "INT8"),), bias=None, name="op"):
    """Storage inputs [y=2, x=2, f=2] -> one compute block (id 10) -> SO 'y'
    (id 11). inputs: (name, precision) of each SI data input (ids 0, 1, ..);
    bias: (type, precision, data) of an [f=2] SB block (id 5) read as the
    last input cluster."""
    sh = {"y": 2, "x": 2, "f": 2}
    g = {"version": "1.0", "blocks": [], "edges": []}
    clusters = []
    for i, (n, p) in enumerate(inputs):
        g["blocks"].append({"id": i, "name": n, "type": "SI", "precision": p, "shape": dict(sh),
                            "output_clusters": [{"shape": dict(sh), "interfaces": [{"edge_id": i}]}]})
        g["edges"].append({"id": i, "source": i, "destination": 10})
        clusters.append({"shape": dict(sh), "interfaces": [{"edge_id": i}]})
    if bias:
        t, p, data = bias
        g["blocks"].append({"id": 5, "type": t, "precision": p, "shape": {"f": 2}, "data": data,
                            "output_clusters": [{"shape": {"f": 2}, "interfaces": [{"edge_id": 5}]}]})
        g["edges"].append({"id": 5, "source": 5, "destination": 10})
        clusters.append({"shape": {"f": 2}, "interfaces": [{"edge_id": 5}]})
    g["blocks"].append({"id": 10, "name": name, "type": ctype, "precision": out, "shape": dict(sh),
                        "attributes": list(attrs), "input_clusters": clusters,
                        "output_clusters": [{"shape": dict(sh), "interfaces": [{"edge_id": 10}]}]})
    g["blocks"].append({"id": 11, "name": "y", "type": "SO", "precision": out, "shape": dict(sh),
                        "input_clusters": [{"shape": dict(sh), "interfaces": [{"edge_id": 10}]}]})
    g["edges"].append({"id": 10, "source": 10, "destination": 11})
    return g
def attr(t, v):
    return {"type": t, ("float_value" if isinstance(v, float) else "int_value"): v}
def blk(g, i):
    return next(b for b in g["blocks"] if b.get("id") == i)
LUT8 = {"int32_data": [v // 2 for v in range(-128, 128)]}
def lut():
    g = elementwise("CLUT", name="lut"); blk(g, 10)["data"] = copy.deepcopy(LUT8); return g
lif = lambda attrs: elementwise("CLIF", name="lif", attrs=attrs)
cvs = lambda attrs, **kw: elementwise("CVS", out="INT32", name="scale", attrs=attrs, **kw)
# The same convolution on FLOAT16 data, FLOAT32 bias and output.
fconv = copy.deepcopy(base)
for i, p in [(0, "FLOAT16"), (1, "FLOAT16"), (2, "FLOAT16"), (3, "FLOAT32"), (4, "FLOAT32"), (5, "FLOAT32")]:
    B(fconv, i)["precision"] = p
B(fconv, 3)["data"] = {"float_data": [0.5, -1.0, 2.0]}
# Max pooling 2x2, stride 2, on a 4x4 INT8 input.
pool = {"version": "1.0", "blocks": [
  {"id": 0, "name": "x", "type": "SI", "precision": "INT8", "shape": {"y": 4, "x": 4, "f": 2},
   "output_clusters": [{"shape": {"y": 4, "x": 4, "f": 2}, "interfaces": [{"edge_id": 0}]}]},
  {"id": 1, "name": "pool", "type": "CCMPB", "precision": "INT8",
   "shape": {"y": 2, "x": 2, "f": 2, "ky": 2, "kx": 2, "iy": 4, "ix": 4},
   "attributes": [attr("STRIDE_X", 2), attr("STRIDE_Y", 2), attr("CMP", 0)],
   "input_clusters": [{"shape": {"y": 4, "x": 4, "f": 2}, "interfaces": [{"edge_id": 0}]}],
   "output_clusters": [{"shape": {"y": 2, "x": 2, "f": 2}, "interfaces": [{"edge_id": 1}]}]},
  {"id": 2, "name": "y", "type": "SO", "precision": "INT8", "shape": {"y": 2, "x": 2, "f": 2},
   "input_clusters": [{"shape": {"y": 2, "x": 2, "f": 2}, "interfaces": [{"edge_id": 1}]}]}],
 "edges": [{"id": 0, "source": 0, "destination": 1}, {"id": 1, "source": 1, "destination": 2}]}
# A fully connected layer, valid, and one whose weight cluster would hold 2^29
# elements (the weight edge 99 does not exist: the size check comes first).
small_fc = {"version": "1.0", "blocks": [
  {"id": 0, "name": "x", "type": "SIFC", "precision": "INT8", "shape": {"r": 4},
   "output_clusters": [{"shape": {"r": 4}, "interfaces": [{"edge_id": 0}]}]},
  {"id": 2, "type": "SWFC", "precision": "INT8", "shape": {"f": 3, "r": 4}, "init": {"seed": 1, "kind": "UNIFORM", "scale": 10},
   "output_clusters": [{"shape": {"f": 3, "r": 4}, "interfaces": [{"edge_id": 2}]}]},
  {"id": 1, "name": "fc", "type": "CVM", "precision": "INT32", "shape": {"f": 3, "r": 4},
   "input_clusters": [{"shape": {"r": 4}, "interfaces": [{"edge_id": 0}]},
                      {"shape": {"f": 3, "r": 4}, "interfaces": [{"edge_id": 2}]}],
   "output_clusters": [{"shape": {"f": 3}, "interfaces": [{"edge_id": 1}]}]},
  {"id": 3, "name": "y", "type": "SO", "precision": "INT32", "shape": {"f": 3},
   "input_clusters": [{"shape": {"f": 3}, "interfaces": [{"edge_id": 1}]}]}],
 "edges": [{"id": 0, "source": 0, "destination": 1}, {"id": 2, "source": 2, "destination": 1}, {"id": 1, "source": 1, "destination": 3}]}
# A fully connected layer whose weight cluster would hold 2^29 elements (the
# weight edge 99 does not exist: the size check comes first).
big_fc = {"version": "1.0", "blocks": [
  {"id": 0, "name": "x", "type": "SIFC", "precision": "INT8", "shape": {"r": 512},
   "output_clusters": [{"shape": {"r": 512}, "interfaces": [{"edge_id": 0}]}]},
  {"id": 1, "name": "fc", "type": "CVM", "precision": "INT32", "shape": {"f": 1048576, "r": 512},
   "input_clusters": [{"shape": {"r": 512}, "interfaces": [{"edge_id": 0}]},
                      {"shape": {"f": 1048576, "r": 512}, "interfaces": [{"edge_id": 99}]}],
   "output_clusters": [{"shape": {"f": 1048576}, "interfaces": [{"edge_id": 1}]}]},
  {"id": 2, "name": "y", "type": "SO", "precision": "INT32", "shape": {"f": 1048576},
   "input_clusters": [{"shape": {"f": 1048576}, "interfaces": [{"edge_id": 1}]}]}],
 "edges": [{"id": 0, "source": 0, "destination": 1}, {"id": 1, "source": 1, "destination": 2}]}
# The valid starting points of the cases below (Validate.GoodGraphsAreValid).
for name, g in [("small_cadd", elementwise("CADD")), ("small_clut", lut()),
                ("small_cvs", cvs([attr("CONST_A", 2)])), ("small_clif", lif([attr("V_TH", 1.0)])),
                ("small_cax", elementwise("CAX", out="INT32", name="ax", bias=("SB", "INT32", {"int32_data": [3, -4]}))),
                ("small_conv_float", fconv), ("small_pool", pool), ("small_fc", small_fc)]:
    json.dump(g, open(f'good/{name}.json', 'w'), indent=1)

# --- Shapes -------------------------------------------------------------------
case("shape_cadd_window", "block 10 (CADD 'op'): shape: CADD's ky and kx are 1 (or -1)", lambda g: blk(g,10)["shape"].update(ky=3, kx=3), start=elementwise("CADD"))
case("shape_too_large", "block 3 (SB): shape: [f=536870912] is too large", lambda g: B(g,3)["shape"].update(f=536870912))
case("window_mismatch_x", CONV + ": shape: x = 4 but the window gives (ix 4 + pad 0 + 1 - dilation 1 * (kx 3 - 1) - 1) / stride 1 + 1 = 3", lambda g: B(g,4)["attributes"].pop(2))

# --- Clusters and interfaces ---------------------------------------------------
case("cluster_too_large", "block 1 (CVM 'fc'): input_clusters[1].shape: [f=1048576, r=512] is too large", lambda g: None, start=big_fc)
case("storage_input_clusters", "block 3 (SB): input_clusters: storage blocks have at most one input cluster, got 2", lambda g: B(g,3).update(input_clusters=[{"shape": {"f": 3}}, {"shape": {"f": 3}}]))
case("storage_output_clusters", "block 6 (SB): output_clusters: storage blocks have at most one output cluster, got 2", lambda g: lone(g, output_clusters=[{"shape": {"f": 1}}, {"shape": {"f": 1}}]))
case("compute_output_clusters", CONV + ": output_clusters: compute blocks have exactly one output cluster, got 0", lambda g: B(g,4).pop("output_clusters"))
case("interface_position_dims", "block 0 (SI 'x'): output_clusters[0].interfaces[0].position: uses dimensions [y, x] but the cluster has [y, x, f]", lambda g: iface(g,0)[0].update(position={"y": 0, "x": 0}))

# --- Edges ----------------------------------------------------------------------
case("edge_unknown_source", "edge 0: source: block 42 does not exist", lambda g: (g["edges"][0].update(source=42), iface(g,0).clear()))
case("edge_missing_destination", "edge 4: destination: missing", lambda g: (g["edges"][4].pop("destination"), B(g,5).pop("input_clusters")))
case("edge_two_source_interfaces", "edge 0: source: 2 output interfaces refer to this edge; exactly one must", lambda g: iface(g,0).append({"edge_id": 0}))
case("edge_no_destination_interface", "edge 5: destination: no input interface of block 1 (SIC) refers to this edge", lambda g: (g["edges"].append({"id": 5, "source": 0, "destination": 1}), iface(g,0).append({"edge_id": 5})))
case("edge_two_destination_interfaces", "edge 4: destination: 2 input interfaces refer to this edge; exactly one must", lambda g: B(g,5)["input_clusters"][0].update(interfaces=[
    {"edge_id": 4, "position": {"y": 0, "x": 0, "f": 0}, "size": {"y": 2, "x": 4, "f": 3}},
    {"edge_id": 4, "position": {"y": 2, "x": 0, "f": 0}, "size": {"y": 2, "x": 4, "f": 3}}]))

# --- Roles and precisions --------------------------------------------------------
def mixed(g):
    # Two SI blocks feed the halves (y = 0 and y = 1) of one input cluster.
    for i, p in [(0, "INT8"), (1, "INT16")]:
        b = blk(g, i); b["shape"] = {"y": 1, "x": 2, "f": 2}; b["precision"] = p
        b["output_clusters"][0]["shape"] = {"y": 1, "x": 2, "f": 2}
    blk(g, 10)["input_clusters"] = [{"shape": {"y": 2, "x": 2, "f": 2}, "interfaces": [
        {"edge_id": 0, "position": {"y": 0, "x": 0, "f": 0}, "size": {"y": 1, "x": 2, "f": 2}},
        {"edge_id": 1, "position": {"y": 1, "x": 0, "f": 0}, "size": {"y": 1, "x": 2, "f": 2}}]}]
case("precision_mixed_cluster", "block 10 (CADD 'add'): input_clusters[0]: interfaces receive mixed precisions INT8 and INT16", mixed,
     start=elementwise("CADD", out="INT16", name="add", inputs=(("a", "INT8"), ("b", "INT16"))))
case("precision_mixed_inputs", "block 10 (CADD 'add'): input_clusters[1]: mixes float and integer inputs (INT8 and FLOAT16)", lambda g: None,
     start=elementwise("CADD", out="FLOAT16", name="add", inputs=(("a", "INT8"), ("b", "FLOAT16"))))
case("alpha_class", "block 10 (CAX 'ax'): precision: INT8 inputs with FLOAT32 alpha; both must be integer or both float", lambda g: None,
     start=elementwise("CAX", out="INT32", name="ax", bias=("SB", "FLOAT32", {"float_data": [0.5, 0.25]})))
case("float_cc_output", CONV + ": precision: CC with FLOAT16 inputs must produce FLOAT16 or FLOAT32, got INT32", lambda g: (B(g,4).update(precision="INT32"), B(g,5).update(precision="INT32")), start=fconv)
case("cmp_keeps_precision", "block 1 (CCMPB 'pool'): precision: CCMPB keeps its input precision INT8, got INT16", lambda g: (B(g,1).update(precision="INT16"), B(g,2).update(precision="INT16")), start=pool)
case("clut_float_input", "block 10 (CLUT 'lut'): precision: CLUT indexes its table with the input value; FLOAT16 inputs are not supported (use INT8, UINT8, INT9, INT16, UINT16 or TERNARY)",
     lambda g: (blk(g,0).update(precision="FLOAT16"), blk(g,10).update(data={"int32_data": [1, 2, 3]})), start=lut())
case("clut_table_size", "block 10 (CLUT 'lut'): data: CLUT table for INT8 inputs needs 256 entries (one per input value from -128), got 3", lambda g: blk(g,10).update(data={"int32_data": [1, 2, 3]}), start=lut())
case("output_class", "block 10 (CADD 'op'): precision: CADD with INT8 inputs must have integer output precision, got FLOAT16", lambda g: (blk(g,10).update(precision="FLOAT16"), blk(g,11).update(precision="FLOAT16")), start=elementwise("CADD"))

# --- Data -------------------------------------------------------------------------
case("init_on_wrong_block", "block 0 (SI 'x'): init: only SW, SWFC and SB blocks may be initialised", lambda g: B(g,0).update(init={"seed": 1, "kind": "UNIFORM", "scale": 1}))
case("init_scale", "block 2 (SW): init.scale: must be finite (and >= 0 for UNIFORM), got -1", lambda g: B(g,2)["init"].update(scale=-1))
case("clut_without_table", "block 10 (CLUT 'lut'): data: CLUT needs its table in data", lambda g: blk(g,10).pop("data"), start=lut())
case("data_precision", "block 3 (SB): data.precision: is INT16 but the block precision is INT32", lambda g: B(g,3)["data"].update(precision="INT16"))
case("clut_table_shape", "block 10 (CLUT 'lut'): data.shape: a CLUT table is 1-D with 256 entries", lambda g: blk(g,10)["data"].update(shape=[2, 128]), start=lut())
case("data_not_finite", "block 3 (SB): data: float_data[1] is not finite", lambda g: B(g,3)["data"].update(float_data=[0.5, "NaN", 2.0]), start=fconv)

# --- Attributes ---------------------------------------------------------------------
case("attr_missing_type", CONV + ": attributes[4].type: missing or unknown attribute type", lambda g: B(g,4)["attributes"].append({"int_value": 1}))
case("attr_not_finite", "block 10 (CVS 'scale'): attributes[0]: CONST_A is not finite", lambda g: blk(g,10)["attributes"][0].update(float_value="Infinity"), start=cvs([attr("CONST_A", 2.0)]))
case("attr_reset_mode", "block 10 (CLIF 'lif'): attributes[1]: RESET_MODE must be 0 (reset to V_RESET) or 1 (subtract V_TH), got 2", lambda g: None, start=lif([attr("V_TH", 1.0), attr("RESET_MODE", 2)]))
case("attr_decay", "block 10 (CLIF 'lif'): attributes[1]: DECAY must lie in [0, 1], got 1.5", lambda g: None, start=lif([attr("V_TH", 1.0), attr("DECAY", 1.5)]))
case("cvs_without_const_a", "block 10 (CVS 'scale'): attributes: CVS needs CONST_A (the scale)", lambda g: None, start=cvs([attr("CONST_B", 1)]))
case("clif_without_v_th", "block 10 (CLIF 'lif'): attributes: CLIF needs V_TH (the firing threshold)", lambda g: None, start=lif([attr("DECAY", 0.5)]))
case("bias_twice", "block 10 (CVS 'scale'): attributes: the bias is given both by an SB input cluster and by CONST_B", lambda g: None,
     start=cvs([attr("CONST_A", 2), attr("CONST_B", 1)], bias=("SB", "INT32", {"int32_data": [1, 2]})))


os.makedirs('bad', exist_ok=True)
for name, (g, exp) in cases.items():
    json.dump(g, open(f'bad/{name}.json', 'w'), indent=1)
    open(f'bad/{name}.expected', 'w').write("".join(e + "\n" for e in exp))
print(len(cases))
