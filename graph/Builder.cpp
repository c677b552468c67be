//===- Builder.cpp - Building Task IR graphs from C++ --------------------===//
#include "graph/Builder.h"

#include "graph/Precision.h"
#include "graph/WeightInit.h"

#include <cassert>
#include <cmath>

using namespace llvm;
using namespace bangc::taskir;

namespace bangc::graph {

Param Param::values(Precision p, std::vector<double> v) {
  Param r;
  r.Prec = p;
  r.Values = std::move(v);
  return r;
}

Param Param::uniform(Precision p, uint32_t seed, double scale,
                     bool materialize) {
  Param r;
  r.Prec = p;
  WeightInit i;
  i.set_seed(seed);
  i.set_kind(WeightInit::UNIFORM);
  i.set_scale(scale);
  r.Init = i;
  r.Materialize = materialize;
  return r;
}

Rearrange makeRearrange(RearrangeType t, std::vector<double> params) {
  Rearrange r;
  r.set_type(t);
  for (double p : params)
    r.add_params(p);
  return r;
}

GraphBuilder::GraphBuilder() { G.set_version("1.0"); }

int64_t GraphBuilder::addBlock(BlockType t, Precision p, const Dims &shape,
                               StringRef name) {
  int64_t id = NextBlock++;
  TaskBlock *b = G.add_blocks();
  b->set_id(int32_t(id));
  b->set_type(t);
  b->set_precision(p);
  shape.toProto(b->mutable_shape());
  if (!name.empty())
    b->set_name(name.str());
  Index[id] = G.blocks_size() - 1;
  return id;
}

TaskBlock &GraphBuilder::block(int64_t id) {
  assert(Index.count(id) && "unknown block id");
  return *G.mutable_blocks(Index[id]);
}

void GraphBuilder::setAttr(int64_t id, AttributeType a, int64_t v) {
  Attribute *at = block(id).add_attributes();
  at->set_type(a);
  at->set_int_value(int32_t(v));
}

void GraphBuilder::setAttrFloat(int64_t id, AttributeType a, double v) {
  Attribute *at = block(id).add_attributes();
  at->set_type(a);
  at->set_float_value(v);
}

void GraphBuilder::setParam(int64_t id, const Param &p) {
  TaskBlock &b = block(id);
  if (p.Init && !p.Materialize) {
    *b.mutable_init() = *p.Init;
    return;
  }
  std::vector<double> v =
      p.Init ? materializeInit(*p.Init, p.Prec, blockDims(b).volume())
             : p.Values;
  Data *d = b.mutable_data();
  switch (dataContainer(p.Prec)) {
  case DataContainer::Float:
    for (double x : v)
      d->add_float_data(float(x));
    break;
  case DataContainer::UInt32:
    for (double x : v)
      d->add_uint32_data(uint32_t(x));
    break;
  case DataContainer::Int32:
    for (double x : v)
      d->add_int32_data(int32_t(x));
    break;
  }
}

EdgeCluster &GraphBuilder::outputCluster(int64_t id) {
  TaskBlock &b = block(id);
  if (b.output_clusters_size() == 0)
    expectedOutputCluster(b).toProto(b.add_output_clusters()->mutable_shape());
  return *b.mutable_output_clusters(0);
}

static void addInterface(EdgeCluster &c, const Dims &pos, const Dims &size,
                         int64_t edge) {
  Interface *i = c.add_interfaces();
  pos.toProto(i->mutable_position());
  size.toProto(i->mutable_size());
  i->set_edge_id(int32_t(edge));
}

static Dims zerosLike(const Dims &d) {
  Dims z;
  for (unsigned k = 0; k < NumDims; ++k)
    if (d.has(k))
      z[k] = 0;
  return z;
}

int64_t GraphBuilder::connectBox(int64_t src, const Dims &srcPos,
                                 const Dims &srcSize, int64_t dst,
                                 int dstCluster, const Dims &dstClusterShape,
                                 const Dims &dstPos, const Dims &dstSize,
                                 std::vector<Rearrange> rs) {
  int64_t e = NextEdge++;
  Edge *ed = G.add_edges();
  ed->set_id(int32_t(e));
  ed->set_source(int32_t(src));
  ed->set_destination(int32_t(dst));
  for (Rearrange &r : rs)
    *ed->add_rearranges() = std::move(r);
  addInterface(outputCluster(src), srcPos, srcSize, e);
  TaskBlock &d = block(dst);
  while (d.input_clusters_size() <= dstCluster)
    dstClusterShape.toProto(d.add_input_clusters()->mutable_shape());
  addInterface(*d.mutable_input_clusters(dstCluster), dstPos, dstSize, e);
  return e;
}

int64_t GraphBuilder::connect(int64_t src, int64_t dst,
                              std::vector<Rearrange> rs, InputRole role) {
  Dims srcShape = Dims::fromProto(outputCluster(src).shape());
  TaskBlock &d = block(dst);
  Dims dstShape;
  int cluster = 0;
  if (isStorageBlock(d.type())) {
    dstShape = expectedStorageInputCluster(d);
  } else {
    dstShape = expectedInputCluster(d, role);
    cluster = d.input_clusters_size();
  }
  return connectBox(src, zerosLike(srcShape), srcShape, dst, cluster, dstShape,
                    zerosLike(dstShape), dstShape, std::move(rs));
}

int64_t GraphBuilder::addSI(Precision p, const Dims &d, StringRef name) {
  return addBlock(SI, p, d, name);
}

int64_t GraphBuilder::addParam(BlockType t, const Dims &d, const Param &p,
                               StringRef name) {
  int64_t id = addBlock(t, p.Prec, d, name);
  setParam(id, p);
  return id;
}

void GraphBuilder::setWindow(int64_t id, const Window &w, bool dilation) {
  setAttr(id, KERNEL_Y, w.K);
  setAttr(id, KERNEL_X, w.K);
  setAttr(id, STRIDE_Y, w.Stride);
  setAttr(id, STRIDE_X, w.Stride);
  if (w.Pad) {
    setAttr(id, PAD_UP, w.Pad);
    setAttr(id, PAD_DOWN, w.Pad);
    setAttr(id, PAD_LEFT, w.Pad);
    setAttr(id, PAD_RIGHT, w.Pad);
  }
  if (dilation && w.Dilation != 1) {
    setAttr(id, DILATION_Y, w.Dilation);
    setAttr(id, DILATION_X, w.Dilation);
  }
}

static std::string sub(StringRef name, StringRef suffix) {
  return name.empty() ? std::string() : (name + "." + suffix).str();
}

int64_t GraphBuilder::input(StringRef name, Precision p, int64_t y, int64_t x,
                            int64_t f) {
  return addSI(p, Dims{{DY, y}, {DX, x}, {DF, f}}, name);
}

int64_t GraphBuilder::output(int64_t src, StringRef name) {
  TaskBlock &s = block(src);
  int64_t o = addBlock(SO, s.precision(), blockDims(s), name);
  connect(src, o);
  return o;
}

int64_t GraphBuilder::conv2d(int64_t src, int64_t nf, Window w,
                             const Param &weight,
                             const std::optional<Param> &bias, Precision out,
                             StringRef name) {
  Dims in = siDims(src);
  Precision inP = block(src).precision();
  int64_t iy = in[DY], ix = in[DX], nr = in[DF];
  int64_t oy = windowOutputSize(iy, w.Pad, w.Pad, w.K, w.Stride, w.Dilation);
  int64_t ox = windowOutputSize(ix, w.Pad, w.Pad, w.K, w.Stride, w.Dilation);
  int64_t sic =
      addBlock(SIC, inP, Dims{{DY, iy}, {DX, ix}, {DR, nr}}, sub(name, "in"));
  connect(src, sic);
  int64_t sw = addParam(SW, Dims{{DF, nf}, {DR, nr}, {DKY, w.K}, {DKX, w.K}},
                        weight, sub(name, "w"));
  int64_t c = addBlock(CC, out,
                       Dims{{DY, oy},
                            {DX, ox},
                            {DF, nf},
                            {DR, nr},
                            {DKY, w.K},
                            {DKX, w.K},
                            {DIY, iy},
                            {DIX, ix}},
                       name);
  setWindow(c, w, /*Dilation=*/true);
  connect(sic, c, {}, InputRole::Data);
  connect(sw, c, {}, InputRole::Weight);
  if (bias) {
    int64_t sb = addParam(SB, Dims{{DF, nf}}, *bias, sub(name, "b"));
    connect(sb, c, {}, InputRole::Bias);
  }
  int64_t o = addSI(out, Dims{{DY, oy}, {DX, ox}, {DF, nf}}, sub(name, "out"));
  connect(c, o);
  return o;
}

static int64_t pool(GraphBuilder &gb, BlockType t, int64_t src, Window w,
                    StringRef name) {
  Dims in = blockDims(gb.block(src));
  Precision p = gb.block(src).precision();
  int64_t oy = windowOutputSize(in[DY], w.Pad, w.Pad, w.K, w.Stride, 1);
  int64_t ox = windowOutputSize(in[DX], w.Pad, w.Pad, w.K, w.Stride, 1);
  int64_t c = gb.addBlock(t, p,
                          Dims{{DY, oy},
                               {DX, ox},
                               {DF, in[DF]},
                               {DKY, w.K},
                               {DKX, w.K},
                               {DIY, in[DY]},
                               {DIX, in[DX]}},
                          name);
  gb.setAttr(c, KERNEL_Y, w.K);
  gb.setAttr(c, KERNEL_X, w.K);
  gb.setAttr(c, STRIDE_Y, w.Stride);
  gb.setAttr(c, STRIDE_X, w.Stride);
  if (w.Pad) {
    gb.setAttr(c, PAD_UP, w.Pad);
    gb.setAttr(c, PAD_DOWN, w.Pad);
    gb.setAttr(c, PAD_LEFT, w.Pad);
    gb.setAttr(c, PAD_RIGHT, w.Pad);
  }
  gb.connect(src, c);
  int64_t o = gb.addBlock(SI, p, Dims{{DY, oy}, {DX, ox}, {DF, in[DF]}},
                          sub(name, "out"));
  gb.connect(c, o);
  return o;
}

int64_t GraphBuilder::maxPool(int64_t src, Window w, StringRef name) {
  return pool(*this, CCMPB, src, w, name);
}

int64_t GraphBuilder::sumPool(int64_t src, Window w, StringRef name) {
  return pool(*this, CAVG, src, w, name);
}

int64_t GraphBuilder::relu(int64_t src, StringRef name) {
  int64_t o = pool(*this, CCMPB, src, Window{1, 1, 0, 1}, name);
  // The compute block is the one just before the output SI.
  int64_t c = o - 1;
  setAttr(c, CMP, 0);
  return o;
}

int64_t GraphBuilder::fullyConnected(int64_t src, int64_t nf,
                                     const Param &weight,
                                     const std::optional<Param> &bias,
                                     Precision out, StringRef name) {
  Dims in = siDims(src);
  Precision inP = block(src).precision();
  int64_t nr = in.volume();
  int64_t sifc = addBlock(SIFC, inP, Dims{{DR, nr}}, sub(name, "in"));
  std::vector<Rearrange> rs;
  if (in.present().size() != 1)
    rs.push_back(makeRearrange(RESHAPE, {double(nr)}));
  connect(src, sifc, std::move(rs));
  int64_t sw = addParam(SWFC, Dims{{DF, nf}, {DR, nr}}, weight, sub(name, "w"));
  int64_t c = addBlock(CVM, out, Dims{{DF, nf}, {DR, nr}}, name);
  connect(sifc, c, {}, InputRole::Data);
  connect(sw, c, {}, InputRole::Weight);
  if (bias) {
    int64_t sb = addParam(SB, Dims{{DF, nf}}, *bias, sub(name, "b"));
    connect(sb, c, {}, InputRole::Bias);
  }
  int64_t o = addSI(out, Dims{{DF, nf}}, sub(name, "out"));
  connect(c, o);
  return o;
}

int64_t GraphBuilder::add(std::vector<int64_t> srcs, Precision out,
                          StringRef name) {
  assert(!srcs.empty() && "add of nothing");
  Dims d = siDims(srcs[0]);
  int64_t c = addBlock(CADD, out, d, name);
  for (int64_t s : srcs)
    connect(s, c, {}, InputRole::Data);
  int64_t o = addSI(out, d, sub(name, "out"));
  connect(c, o);
  return o;
}

int64_t GraphBuilder::scale(int64_t src, double constA, Precision out,
                            StringRef name) {
  Dims d = siDims(src);
  int64_t c = addBlock(CVS, out, d, name);
  if (constA == std::floor(constA) && std::fabs(constA) < 2e9)
    setAttr(c, CONST_A, int64_t(constA));
  else
    setAttrFloat(c, CONST_A, constA);
  connect(src, c);
  int64_t o = addSI(out, d, sub(name, "out"));
  connect(c, o);
  return o;
}

int64_t GraphBuilder::lif(int64_t src, const LifParams &p, Precision out,
                          StringRef name) {
  Dims d = siDims(src);
  int64_t c = addBlock(CLIF, out, d, name);
  setAttrFloat(c, V_TH, p.Threshold);
  setAttrFloat(c, V_RESET, p.Reset);
  setAttrFloat(c, V_LEAK, p.Leak);
  setAttrFloat(c, DECAY, p.Decay);
  setAttr(c, RESET_MODE, p.SoftReset ? 1 : 0);
  connect(src, c);
  int64_t o = addSI(out, d, sub(name, "out"));
  connect(c, o);
  return o;
}

int64_t GraphBuilder::reshape(int64_t src, Dims to, StringRef name) {
  Precision p = block(src).precision();
  int64_t o = addSI(p, to, name);
  std::vector<double> shape;
  for (int64_t n : to.present())
    shape.push_back(double(n));
  connect(src, o, {makeRearrange(RESHAPE, shape)});
  return o;
}

} // namespace bangc::graph
