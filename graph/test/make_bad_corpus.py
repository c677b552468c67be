#!/usr/bin/python3
# Regenerates good/small_conv.json and the bad-graph corpus bad/*.json with
# the message each must produce (bad/NAME.expected). Run from graph/test.
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
def case(name, expected, fn):
    g = copy.deepcopy(base); fn(g); cases[name] = (g, expected)

case("version", "graph: version '2.0' is not supported", lambda g: g.update(version="2.0"))
case("no_blocks", "graph: has no blocks", lambda g: g.update(blocks=[], edges=[]))
case("missing_block_id", "block <no id> (SB): id: missing", lambda g: B(g,3).pop("id"))
case("duplicate_block_id", "block 3 (SO 'y'): id: duplicate block id 3", lambda g: B(g,5).update(id=3))
case("missing_type", "block 3 (BLOCK_TYPE_UNSPECIFIED): type: missing or unknown block type", lambda g: B(g,3).pop("type"))
case("missing_precision", "block 3 (SB): precision: missing or unknown precision", lambda g: B(g,3).pop("precision"))
case("duplicate_name", "block 5 (SO 'x'): name: 'x' is also the name of block 0 (SI 'x')", lambda g: B(g,5).update(name="x"))
case("shape_zero_dim", "block 3 (SB): shape: dimension 'f' is 0", lambda g: B(g,3)["shape"].update(f=0))
case("shape_required_dim", "block 1 (SIC): shape: dimension 'r' is required for SIC", lambda g: B(g,1)["shape"].pop("r"))
case("shape_unused_dim", "block 3 (SB): shape: dimension 'r' must be -1 (unused) for SB", lambda g: B(g,3)["shape"].update(r=2))
case("window_mismatch", "block 4 (CC 'conv'): shape: y = 4 but the window gives (iy 4 + pad 0 + 1 - dilation 1 * (ky 3 - 1) - 1) / stride 1 + 1 = 3", lambda g: B(g,4)["attributes"].pop(0))
case("cluster_count", "block 4 (CC 'conv'): input_clusters: CC takes input clusters (input, weight[, bias]), got 1", lambda g: B(g,4).update(input_clusters=B(g,4)["input_clusters"][:1]))
case("cluster_shape", "block 4 (CC 'conv'): input_clusters[1].shape: expected [f=3, r=2, ky=3, kx=3] (weight), got [f=3, r=2, kx=3]", lambda g: B(g,4)["input_clusters"][1]["shape"].pop("ky"))
case("storage_cluster_shape", "block 1 (SIC): input_clusters[0].shape: expected [y=4, x=4, f=2] (input), got [y=4, x=4, r=2]", lambda g: B(g,1)["input_clusters"][0].update(shape={"y":4,"x":4,"r":2}))
case("so_output_cluster", "block 5 (SO 'y'): output_clusters: SO blocks have no output cluster", lambda g: B(g,5).update(output_clusters=[{"shape": {"y": 4, "x": 4, "f": 3}}]))
case("interface_outside", "block 0 (SI 'x'): output_clusters[0].interfaces[0]: position [y=0, x=2, f=0] size [y=4, x=4, f=2] lies outside the cluster shape [y=4, x=4, f=2] in dimension 'x'", lambda g: B(g,0)["output_clusters"][0]["interfaces"][0].update(position={"y":0,"x":2,"f":0}, size={"y":4,"x":4,"f":2}))
case("interface_dims", "block 0 (SI 'x'): output_clusters[0].interfaces[0].size: uses dimensions [y, x] but the cluster has [y, x, f]", lambda g: B(g,0)["output_clusters"][0]["interfaces"][0].update(size={"y":4,"x":4}))
case("interface_gap", "block 5 (SO 'y'): input_clusters[0].interfaces: input interfaces cover 32 of the cluster's 48 elements", lambda g: B(g,5)["input_clusters"][0]["interfaces"][0].update(position={"y":0,"x":0,"f":0}, size={"y":4,"x":4,"f":2}))
case("interface_overlap", "block 1 (SIC): input_clusters[0].interfaces: input interfaces 0 and 1 overlap", lambda g: (B(g,1)["input_clusters"][0]["interfaces"].append({"edge_id": 5}), g["edges"].append({"id":5,"source":0,"destination":1}), B(g,0)["output_clusters"][0]["interfaces"].append({"edge_id":5})))
case("interface_missing_edge_id", "block 5 (SO 'y'): input_clusters[0].interfaces[0].edge_id: missing", lambda g: B(g,5)["input_clusters"][0]["interfaces"][0].pop("edge_id"))
case("interface_unknown_edge", "block 5 (SO 'y'): input_clusters[0].interfaces[0].edge_id: edge 9 does not exist", lambda g: B(g,5)["input_clusters"][0]["interfaces"][0].update(edge_id=9))
case("interface_wrong_block", "block 5 (SO 'y'): input_clusters[0].interfaces[0].edge_id: edge 3 has destination 4, not this block", lambda g: B(g,5)["input_clusters"][0]["interfaces"][0].update(edge_id=3))
case("compute_input_unfed", "block 4 (CC 'conv'): input_clusters[2]: the bias cluster has no interfaces", lambda g: B(g,4)["input_clusters"][2].update(interfaces=[]))
case("missing_edge_id", "edge <no id>: id: missing", lambda g: g["edges"][0].pop("id"))
case("duplicate_edge_id", "edge 3: id: duplicate edge id 3", lambda g: g["edges"][4].update(id=3))
case("edge_missing_source", "edge 0: source: missing", lambda g: g["edges"][0].pop("source"))
case("edge_unknown_block", "edge 0: destination: block 42 does not exist", lambda g: g["edges"][0].update(destination=42))
case("edge_no_source_interface", "edge 0: source: no output interface of block 0 (SI 'x') refers to this edge", lambda g: B(g,0).pop("output_clusters"))
case("edge_compute_to_compute", "edge 4: destination: joins two compute blocks", lambda g: (B(g,5).update(type="CVS", precision="INT32", attributes=[{"type":"CONST_A","int_value":1}], output_clusters=[{"shape":{"y":4,"x":4,"f":3}}])))
case("edge_shape_mismatch", "edge 0: rearranges: source interface size [y=4, x=4, f=2] does not match destination interface size [y=2, x=8, f=2]; add a rearrangement", lambda g: (B(g,1).update(shape={"y":2,"x":8,"r":2}), B(g,1)["input_clusters"][0].update(shape={"y":2,"x":8,"f":2}), B(g,1)["output_clusters"][0].update(shape={"y":2,"x":8,"r":2})))
case("edge_rearrange_result", "edge 0: rearranges: rearrangements turn the source interface size [y=4, x=4, f=2] into [4, 2, 4]", lambda g: g["edges"][0].update(rearranges=[{"type":"PERMUTE","params":[0,2,1]}]))
case("edge_rearrange_params", "edge 0: rearranges[0]: RESHAPE: new shape [5, 5, 2] has 50 elements but the input [4, 4, 2] has 32", lambda g: g["edges"][0].update(rearranges=[{"type":"RESHAPE","params":[5,5,2]}]))
case("edge_rearrange_type", "edge 0: rearranges[0].type: missing or unknown rearrangement type", lambda g: g["edges"][0].update(rearranges=[{"params":[1]}]))
case("role_source_type", "block 4 (CC 'conv'): input_clusters[0]: the input of CC must come from SIC, but block 0 (SI 'x') feeds it", lambda g: (g["edges"][1].update(source=0), B(g,0)["output_clusters"][0]["interfaces"].append({"edge_id":1}), B(g,1)["output_clusters"][0].update(interfaces=[]), B(g,0).update(shape={"y":4,"x":4,"f":2})) and None)
case("cc_precision", "block 4 (CC 'conv'): precision: CC with INT8 inputs must produce INT32, got INT16", lambda g: (B(g,4).update(precision="INT16"), B(g,5).update(precision="INT16")))
case("storage_precision", "block 5 (SO 'y'): precision: is INT8 but its source block 4 (CC 'conv') produces INT32", lambda g: B(g,5).update(precision="INT8"))
case("weight_class", "block 4 (CC 'conv'): precision: INT8 inputs with FLOAT32 weights", lambda g: B(g,2).update(precision="FLOAT32"))
case("bias_precision", "block 4 (CC 'conv'): precision: bias is INT16 but integer inputs need a INT32 bias", lambda g: (B(g,3).update(precision="INT16")))
case("data_wrong_container", "block 3 (SB): data: INT32 values belong in int32_data, but 3 values are in other containers", lambda g: B(g,3).update(data={"float_data":[1,2,3]}))
case("data_length", "block 3 (SB): data: has 2 values but shape [f=3] needs 3", lambda g: B(g,3).update(data={"int32_data":[1,2]}))
case("data_range", "block 2 (SW): data: int32_data[1] = 300 is outside the INT8 range [-128, 127]", lambda g: (B(g,2).pop("init"), B(g,2).update(data={"int32_data":[1,300]+[0]*52})))
case("data_shape", "block 3 (SB): data.shape: [4] does not match the block shape [3]", lambda g: B(g,3)["data"].update(shape=[4]))
case("data_on_wrong_block", "block 0 (SI 'x'): data: only SW, SWFC, SB and CLUT blocks carry data", lambda g: B(g,0).update(data={"int32_data":[1]}))
case("weights_without_values", "block 2 (SW): data: has neither data, init nor a producing edge", lambda g: B(g,2).pop("init"))
case("data_and_init", "block 3 (SB): data: more than one of data, init and a producing edge", lambda g: B(g,3).update(init={"seed":1,"kind":"UNIFORM","scale":1}))
case("init_kind", "block 2 (SW): init.kind: must be UNIFORM or CONSTANT", lambda g: B(g,2)["init"].pop("kind"))
case("attr_not_applicable", "block 4 (CC 'conv'): attributes[4]: CMP does not apply to CC", lambda g: B(g,4)["attributes"].append({"type":"CMP","int_value":0}))
case("attr_duplicate", "block 4 (CC 'conv'): attributes[4]: PAD_UP is given more than once", lambda g: B(g,4)["attributes"].append({"type":"PAD_UP","int_value":1}))
case("attr_no_value", "block 4 (CC 'conv'): attributes[4]: STRIDE_X has no int_value or float_value", lambda g: B(g,4)["attributes"].append({"type":"STRIDE_X"}))
case("attr_must_be_int", "block 4 (CC 'conv'): attributes[4]: STRIDE_X must be an int_value", lambda g: B(g,4)["attributes"].append({"type":"STRIDE_X","float_value":1.5}))
case("attr_negative_pad", "block 4 (CC 'conv'): attributes[0]: PAD_UP must be >= 0, got -1", lambda g: B(g,4)["attributes"][0].update(int_value=-1))
case("attr_kernel_mismatch", "block 4 (CC 'conv'): attributes[4]: KERNEL_X = 5 disagrees with the shape's kx = 3", lambda g: B(g,4)["attributes"].append({"type":"KERNEL_X","int_value":5}))
case("attr_stride_zero", "block 4 (CC 'conv'): attributes[4]: STRIDE_Y must be >= 1, got 0", lambda g: B(g,4)["attributes"].append({"type":"STRIDE_Y","int_value":0}))
case("cycle", "graph: has a cycle (Task IR 1.0 graphs must be acyclic)", lambda g: (g["edges"].append({"id":5,"source":5,"destination":0}), B(g,5).update(type="SI"), B(g,5).update(output_clusters=[{"shape":{"y":4,"x":4,"f":3},"interfaces":[{"edge_id":5}]}]), B(g,0).update(input_clusters=[{"shape":{"y":4,"x":4,"f":2},"interfaces":[{"edge_id":5}]}])))

os.makedirs('bad', exist_ok=True)
for name, (g, exp) in cases.items():
    json.dump(g, open(f'bad/{name}.json', 'w'), indent=1)
    open(f'bad/{name}.expected', 'w').write(exp + "\n")
print(len(cases))
