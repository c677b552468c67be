//===- Builder.cpp - Building Task IR graphs from C++ --------------------===//
#include "graph/Builder.h"

#include "graph/Precision.h"
#include "graph/WeightInit.h"

#include <cassert>
#include <cmath>

using namespace llvm;
using namespace bangc::taskir;

namespace bangc::graph {

Param Param::values(Precision P, std::vector<double> V) {
  Param R;
  R.Prec = P;
  R.Values = std::move(V);
  return R;
}

Param Param::uniform(Precision P, uint32_t Seed, double Scale,
                     bool Materialize) {
  Param R;
  R.Prec = P;
  WeightInit I;
  I.set_seed(Seed);
  I.set_kind(WeightInit::UNIFORM);
  I.set_scale(Scale);
  R.Init = I;
  R.Materialize = Materialize;
  return R;
}

Rearrange makeRearrange(RearrangeType T, std::vector<double> Params) {
  Rearrange R;
  R.set_type(T);
  for (double P : Params)
    R.add_params(P);
  return R;
}

GraphBuilder::GraphBuilder() { G.set_version("1.0"); }

int64_t GraphBuilder::addBlock(BlockType T, Precision P, const Dims &Shape,
                               StringRef Name) {
  int64_t Id = NextBlock++;
  TaskBlock *B = G.add_blocks();
  B->set_id(int32_t(Id));
  B->set_type(T);
  B->set_precision(P);
  Shape.toProto(B->mutable_shape());
  if (!Name.empty())
    B->set_name(Name.str());
  Index[Id] = G.blocks_size() - 1;
  return Id;
}

TaskBlock &GraphBuilder::block(int64_t Id) {
  assert(Index.count(Id) && "unknown block id");
  return *G.mutable_blocks(Index[Id]);
}

void GraphBuilder::setAttr(int64_t Id, AttributeType A, int64_t V) {
  Attribute *At = block(Id).add_attributes();
  At->set_type(A);
  At->set_int_value(int32_t(V));
}

void GraphBuilder::setAttrFloat(int64_t Id, AttributeType A, double V) {
  Attribute *At = block(Id).add_attributes();
  At->set_type(A);
  At->set_float_value(V);
}

void GraphBuilder::setParam(int64_t Id, const Param &P) {
  TaskBlock &B = block(Id);
  if (P.Init && !P.Materialize) {
    *B.mutable_init() = *P.Init;
    return;
  }
  std::vector<double> V =
      P.Init ? materializeInit(*P.Init, P.Prec, blockDims(B).volume())
             : P.Values;
  Data *D = B.mutable_data();
  switch (dataContainer(P.Prec)) {
  case DataContainer::Float:
    for (double X : V)
      D->add_float_data(float(X));
    break;
  case DataContainer::UInt32:
    for (double X : V)
      D->add_uint32_data(uint32_t(X));
    break;
  case DataContainer::Int32:
    for (double X : V)
      D->add_int32_data(int32_t(X));
    break;
  }
}

EdgeCluster &GraphBuilder::outputCluster(int64_t Id) {
  TaskBlock &B = block(Id);
  if (B.output_clusters_size() == 0)
    expectedOutputCluster(B).toProto(B.add_output_clusters()->mutable_shape());
  return *B.mutable_output_clusters(0);
}

static void addInterface(EdgeCluster &C, const Dims &Pos, const Dims &Size,
                         int64_t Edge) {
  Interface *I = C.add_interfaces();
  Pos.toProto(I->mutable_position());
  Size.toProto(I->mutable_size());
  I->set_edge_id(int32_t(Edge));
}

static Dims zerosLike(const Dims &D) {
  Dims Z;
  for (unsigned K = 0; K < NumDims; ++K)
    if (D.has(K))
      Z[K] = 0;
  return Z;
}

int64_t GraphBuilder::connectBox(int64_t Src, const Dims &SrcPos,
                                 const Dims &SrcSize, int64_t Dst,
                                 int DstCluster, const Dims &DstClusterShape,
                                 const Dims &DstPos, const Dims &DstSize,
                                 std::vector<Rearrange> Rs) {
  int64_t E = NextEdge++;
  Edge *Ed = G.add_edges();
  Ed->set_id(int32_t(E));
  Ed->set_source(int32_t(Src));
  Ed->set_destination(int32_t(Dst));
  for (Rearrange &R : Rs)
    *Ed->add_rearranges() = std::move(R);
  addInterface(outputCluster(Src), SrcPos, SrcSize, E);
  TaskBlock &D = block(Dst);
  while (D.input_clusters_size() <= DstCluster)
    DstClusterShape.toProto(D.add_input_clusters()->mutable_shape());
  addInterface(*D.mutable_input_clusters(DstCluster), DstPos, DstSize, E);
  return E;
}

int64_t GraphBuilder::connect(int64_t Src, int64_t Dst, std::vector<Rearrange> Rs,
                              InputRole Role) {
  Dims SrcShape = Dims::fromProto(outputCluster(Src).shape());
  TaskBlock &D = block(Dst);
  Dims DstShape;
  int Cluster = 0;
  if (isStorageBlock(D.type())) {
    DstShape = expectedStorageInputCluster(D);
  } else {
    DstShape = expectedInputCluster(D, Role);
    Cluster = D.input_clusters_size();
  }
  return connectBox(Src, zerosLike(SrcShape), SrcShape, Dst, Cluster, DstShape,
                    zerosLike(DstShape), DstShape, std::move(Rs));
}

int64_t GraphBuilder::addSI(Precision P, const Dims &D, StringRef Name) {
  return addBlock(SI, P, D, Name);
}

int64_t GraphBuilder::addParam(BlockType T, const Dims &D, const Param &P,
                               StringRef Name) {
  int64_t Id = addBlock(T, P.Prec, D, Name);
  setParam(Id, P);
  return Id;
}

void GraphBuilder::setWindow(int64_t Id, const Window &W, bool Dilation) {
  setAttr(Id, KERNEL_Y, W.K);
  setAttr(Id, KERNEL_X, W.K);
  setAttr(Id, STRIDE_Y, W.Stride);
  setAttr(Id, STRIDE_X, W.Stride);
  if (W.Pad) {
    setAttr(Id, PAD_UP, W.Pad);
    setAttr(Id, PAD_DOWN, W.Pad);
    setAttr(Id, PAD_LEFT, W.Pad);
    setAttr(Id, PAD_RIGHT, W.Pad);
  }
  if (Dilation && W.Dilation != 1) {
    setAttr(Id, DILATION_Y, W.Dilation);
    setAttr(Id, DILATION_X, W.Dilation);
  }
}

static std::string sub(StringRef Name, StringRef Suffix) {
  return Name.empty() ? std::string() : (Name + "." + Suffix).str();
}

int64_t GraphBuilder::input(StringRef Name, Precision P, int64_t Y, int64_t X,
                            int64_t F) {
  return addSI(P, Dims{{DY, Y}, {DX, X}, {DF, F}}, Name);
}

int64_t GraphBuilder::output(int64_t Src, StringRef Name) {
  TaskBlock &S = block(Src);
  int64_t O = addBlock(SO, S.precision(), blockDims(S), Name);
  connect(Src, O);
  return O;
}

int64_t GraphBuilder::conv2d(int64_t Src, int64_t NF, Window W,
                             const Param &Weight,
                             const std::optional<Param> &Bias, Precision Out,
                             StringRef Name) {
  Dims In = siDims(Src);
  Precision InP = block(Src).precision();
  int64_t IY = In[DY], IX = In[DX], NR = In[DF];
  int64_t OY = windowOutputSize(IY, W.Pad, W.Pad, W.K, W.Stride, W.Dilation);
  int64_t OX = windowOutputSize(IX, W.Pad, W.Pad, W.K, W.Stride, W.Dilation);
  int64_t Sic = addBlock(SIC, InP, Dims{{DY, IY}, {DX, IX}, {DR, NR}},
                         sub(Name, "in"));
  connect(Src, Sic);
  int64_t Sw = addParam(SW, Dims{{DF, NF}, {DR, NR}, {DKY, W.K}, {DKX, W.K}},
                        Weight, sub(Name, "w"));
  int64_t C = addBlock(CC, Out,
                       Dims{{DY, OY}, {DX, OX}, {DF, NF}, {DR, NR},
                            {DKY, W.K}, {DKX, W.K}, {DIY, IY}, {DIX, IX}},
                       Name);
  setWindow(C, W, /*Dilation=*/true);
  connect(Sic, C, {}, InputRole::Data);
  connect(Sw, C, {}, InputRole::Weight);
  if (Bias) {
    int64_t Sb = addParam(SB, Dims{{DF, NF}}, *Bias, sub(Name, "b"));
    connect(Sb, C, {}, InputRole::Bias);
  }
  int64_t O = addSI(Out, Dims{{DY, OY}, {DX, OX}, {DF, NF}}, sub(Name, "out"));
  connect(C, O);
  return O;
}

static int64_t pool(GraphBuilder &GB, BlockType T, int64_t Src, Window W,
                    StringRef Name) {
  Dims In = blockDims(GB.block(Src));
  Precision P = GB.block(Src).precision();
  int64_t OY = windowOutputSize(In[DY], W.Pad, W.Pad, W.K, W.Stride, 1);
  int64_t OX = windowOutputSize(In[DX], W.Pad, W.Pad, W.K, W.Stride, 1);
  int64_t C = GB.addBlock(T, P,
                          Dims{{DY, OY}, {DX, OX}, {DF, In[DF]}, {DKY, W.K},
                               {DKX, W.K}, {DIY, In[DY]}, {DIX, In[DX]}},
                          Name);
  GB.setAttr(C, KERNEL_Y, W.K);
  GB.setAttr(C, KERNEL_X, W.K);
  GB.setAttr(C, STRIDE_Y, W.Stride);
  GB.setAttr(C, STRIDE_X, W.Stride);
  if (W.Pad) {
    GB.setAttr(C, PAD_UP, W.Pad);
    GB.setAttr(C, PAD_DOWN, W.Pad);
    GB.setAttr(C, PAD_LEFT, W.Pad);
    GB.setAttr(C, PAD_RIGHT, W.Pad);
  }
  GB.connect(Src, C);
  int64_t O = GB.addBlock(SI, P, Dims{{DY, OY}, {DX, OX}, {DF, In[DF]}},
                          sub(Name, "out"));
  GB.connect(C, O);
  return O;
}

int64_t GraphBuilder::maxPool(int64_t Src, Window W, StringRef Name) {
  return pool(*this, CCMPB, Src, W, Name);
}

int64_t GraphBuilder::sumPool(int64_t Src, Window W, StringRef Name) {
  return pool(*this, CAVG, Src, W, Name);
}

int64_t GraphBuilder::relu(int64_t Src, StringRef Name) {
  int64_t O = pool(*this, CCMPB, Src, Window{1, 1, 0, 1}, Name);
  // The compute block is the one just before the output SI.
  int64_t C = O - 1;
  setAttr(C, CMP, 0);
  return O;
}

int64_t GraphBuilder::fullyConnected(int64_t Src, int64_t NF,
                                     const Param &Weight,
                                     const std::optional<Param> &Bias,
                                     Precision Out, StringRef Name) {
  Dims In = siDims(Src);
  Precision InP = block(Src).precision();
  int64_t NR = In.volume();
  int64_t Sifc = addBlock(SIFC, InP, Dims{{DR, NR}}, sub(Name, "in"));
  std::vector<Rearrange> Rs;
  if (In.present().size() != 1)
    Rs.push_back(makeRearrange(RESHAPE, {double(NR)}));
  connect(Src, Sifc, std::move(Rs));
  int64_t Sw = addParam(SWFC, Dims{{DF, NF}, {DR, NR}}, Weight, sub(Name, "w"));
  int64_t C = addBlock(CVM, Out, Dims{{DF, NF}, {DR, NR}}, Name);
  connect(Sifc, C, {}, InputRole::Data);
  connect(Sw, C, {}, InputRole::Weight);
  if (Bias) {
    int64_t Sb = addParam(SB, Dims{{DF, NF}}, *Bias, sub(Name, "b"));
    connect(Sb, C, {}, InputRole::Bias);
  }
  int64_t O = addSI(Out, Dims{{DF, NF}}, sub(Name, "out"));
  connect(C, O);
  return O;
}

int64_t GraphBuilder::add(std::vector<int64_t> Srcs, Precision Out,
                          StringRef Name) {
  assert(!Srcs.empty() && "add of nothing");
  Dims D = siDims(Srcs[0]);
  int64_t C = addBlock(CADD, Out, D, Name);
  for (int64_t S : Srcs)
    connect(S, C, {}, InputRole::Data);
  int64_t O = addSI(Out, D, sub(Name, "out"));
  connect(C, O);
  return O;
}

int64_t GraphBuilder::scale(int64_t Src, double ConstA, Precision Out,
                            StringRef Name) {
  Dims D = siDims(Src);
  int64_t C = addBlock(CVS, Out, D, Name);
  if (ConstA == std::floor(ConstA) && std::fabs(ConstA) < 2e9)
    setAttr(C, CONST_A, int64_t(ConstA));
  else
    setAttrFloat(C, CONST_A, ConstA);
  connect(Src, C);
  int64_t O = addSI(Out, D, sub(Name, "out"));
  connect(C, O);
  return O;
}

int64_t GraphBuilder::lif(int64_t Src, const LifParams &P, Precision Out,
                          StringRef Name) {
  Dims D = siDims(Src);
  int64_t C = addBlock(CLIF, Out, D, Name);
  setAttrFloat(C, V_TH, P.Threshold);
  setAttrFloat(C, V_RESET, P.Reset);
  setAttrFloat(C, V_LEAK, P.Leak);
  setAttrFloat(C, DECAY, P.Decay);
  setAttr(C, RESET_MODE, P.SoftReset ? 1 : 0);
  connect(Src, C);
  int64_t O = addSI(Out, D, sub(Name, "out"));
  connect(C, O);
  return O;
}

int64_t GraphBuilder::reshape(int64_t Src, Dims To, StringRef Name) {
  Precision P = block(Src).precision();
  int64_t O = addSI(P, To, Name);
  std::vector<double> Shape;
  for (int64_t N : To.present())
    Shape.push_back(double(N));
  connect(Src, O, {makeRearrange(RESHAPE, Shape)});
  return O;
}

} // namespace bangc::graph
