//===- Net.cpp - The layer view of a Task IR graph ------------------------===//
//
// The builders of hand-made networks, and buildNet: storage blocks become
// tensors, compute blocks layers, parameters floats.
//
//===----------------------------------------------------------------------===//
#include "layergroup/Net.h"
#include "layergroup/View.h"

#include "graph/BlockInfo.h"
#include "graph/Graph.h"
#include "graph/Precision.h"
#include "graph/WeightInit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>

using namespace llvm;
using namespace bangc::graph;
namespace tir = bangc::taskir;

namespace bangc::lg {

const char *opKindName(OpKind k) {
  switch (k) {
#define LG_OPKIND(KIND, NAME, ...)                                             \
  case OpKind::KIND:                                                           \
    return NAME;
#include "layergroup/OpKinds.def"
  }
  return "?";
}

ChanVectors chanVectors(OpKind k) {
  switch (k) {
#define LG_OPKIND(KIND, NAME, VECTORS, ...)                                    \
  case OpKind::KIND:                                                           \
    return ChanVectors::VECTORS;
#include "layergroup/OpKinds.def"
  }
  return ChanVectors::None;
}

const char *deviceCType(DType t) {
  assert(dtypeSize(t) <= 4 && "LayerGroup tensors are 8, 16 or 32 bits");
  return dtypeCName(t).data();
}

int64_t Tensor::minValue() const {
  switch (Narrowed) {
  case Narrow::Int9:
    return -256;
  case Narrow::Ternary:
    return -1;
  case Narrow::None:
    break;
  }
  assert(!isFloatDType(Type) && "a float tensor");
  if (isUnsignedIntDType(Type))
    return 0;
  return -(int64_t(1) << (8 * dtypeSize(Type) - 1));
}

int64_t Tensor::maxValue() const {
  switch (Narrowed) {
  case Narrow::Int9:
    return 255;
  case Narrow::Ternary:
    return 1;
  case Narrow::None:
    break;
  }
  assert(!isFloatDType(Type) && "a float tensor");
  if (isUnsignedIntDType(Type))
    return (int64_t(1) << (8 * dtypeSize(Type))) - 1;
  return (int64_t(1) << (8 * dtypeSize(Type) - 1)) - 1;
}

int Net::addInput(std::string name, int64_t c, int64_t h, int64_t w) {
  Tensor t;
  t.Name = name;
  t.InputName = name;
  t.C = c, t.H = h, t.W = w;
  Tensors.push_back(t);
  return int(Tensors.size()) - 1;
}

int Net::addLayer(Layer l, std::vector<int> ins, int64_t c, int64_t h,
                  int64_t w) {
  int index = int(Layers.size());
  Tensor t;
  t.Name = l.Name.empty() ? fmt::format("t{}", Tensors.size()) : l.Name;
  t.C = c, t.H = h, t.W = w;
  t.Producer = index;
  Tensors.push_back(t);
  l.Inputs = ins;
  l.Output = int(Tensors.size()) - 1;
  if (l.Name.empty())
    l.Name = fmt::format("{}{}", opKindName(l.Kind), index);
  for (int in : ins) {
    Tensors[in].Consumers.push_back(index);
    if (Tensors[in].isView())
      for (int s : viewSources(in))
        Tensors[s].ViewReaders.push_back(index);
  }
  Layers.push_back(std::move(l));
  return index;
}

void Net::markOutput(int tensor, std::string name, std::vector<int64_t> shape) {
  Tensor &t = Tensors[tensor];
  if (!shape.empty() && shape != std::vector<int64_t>{t.H, t.W, t.C})
    t.OutputShapes[name] = std::move(shape);
  t.OutputNames.push_back(std::move(name));
}

static int64_t outSize(int64_t in, int64_t k, int64_t s, int64_t p0,
                       int64_t p1) {
  return (in + p0 + p1 - k) / s + 1;
}

int Net::conv(int in, int64_t f, int64_t k, int64_t stride, int64_t pad,
              std::string name, uint32_t seed) {
  const Tensor &t = Tensors[in];
  Layer l;
  l.Kind = OpKind::Conv;
  l.Name = name;
  l.KY = l.KX = k, l.SY = l.SX = stride;
  l.PU = l.PD = l.PL = l.PR = pad;
  int64_t c = t.C;
  l.Weight.resize(f * c * k * k);
  uint64_t x = seed * 2654435761u + 1;
  for (float &v : l.Weight) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    v = float(double(x >> 11) / double(1ull << 53) - 0.5) * 0.2f;
  }
  l.Bias.resize(f);
  for (int64_t i = 0; i < f; ++i)
    l.Bias[i] = 0.01f * float(i % 7);
  int64_t oh = outSize(t.H, k, stride, pad, pad);
  int64_t ow = outSize(t.W, k, stride, pad, pad);
  return Layers[addLayer(std::move(l), {in}, f, oh, ow)].Output;
}

int Net::maxPool(int in, int64_t k, int64_t stride, int64_t pad,
                 std::string name) {
  const Tensor &t = Tensors[in];
  Layer l;
  l.Kind = OpKind::MaxPool;
  l.Name = name;
  l.KY = l.KX = k, l.SY = l.SX = stride;
  l.PU = l.PD = l.PL = l.PR = pad;
  l.Cmp = -std::numeric_limits<double>::infinity();
  int64_t oh = outSize(t.H, k, stride, pad, pad);
  int64_t ow = outSize(t.W, k, stride, pad, pad);
  return Layers[addLayer(std::move(l), {in}, t.C, oh, ow)].Output;
}

/// \p l over \p ins, its output of the first input's shape.
int Net::elementwise(Layer l, std::vector<int> ins) {
  const Tensor &t = Tensors[ins[0]];
  int64_t c = t.C, h = t.H, w = t.W;
  return Layers[addLayer(std::move(l), std::move(ins), c, h, w)].Output;
}

int Net::relu(int in, std::string name) {
  Layer l;
  l.Kind = OpKind::Relu;
  l.Name = name;
  return elementwise(std::move(l), {in});
}

int Net::clamp(int in, double cmp, bool max, std::string name) {
  Layer l;
  l.Kind = OpKind::Clamp;
  l.Name = name;
  l.Cmp = cmp;
  l.ClampMax = max;
  return elementwise(std::move(l), {in});
}

int Net::add(int a, int b, std::string name) {
  Layer l;
  l.Kind = OpKind::Add;
  l.Name = name;
  return elementwise(std::move(l), {a, b});
}

int64_t Net::macs(int index) const {
  const Layer &l = Layers[index];
  const Tensor &out = Tensors[l.Output];
  if (l.Kind == OpKind::Conv)
    return out.elements() * Tensors[l.Inputs[0]].C * l.KY * l.KX;
  if (l.windowed())
    return out.elements() * l.KY * l.KX;
  return out.elements() * int64_t(l.Inputs.size());
}

std::vector<int> Net::inputs() const {
  std::vector<int> r;
  for (size_t i = 0; i < Tensors.size(); ++i)
    if (Tensors[i].Producer < 0 && !Tensors[i].isView())
      r.push_back(int(i));
  return r;
}

int64_t Tensor::loadedElements(int64_t lo, int64_t hi, int64_t clo,
                               int64_t chi) const {
  if (!isView())
    return std::max<int64_t>(0, hi - lo) * std::max<int64_t>(0, chi - clo) * C;
  if (gathered()) {
    if (hi <= lo || chi <= clo)
      return 0;
    int64_t entries =
        int64_t(View.size()) * ((hi - lo) * (chi - clo) * C + 2 * (hi - lo));
    assert(4 % elemBytes() == 0 && "table entries are whole elements");
    return gatherWindow(lo, hi) + entries * (4 / elemBytes());
  }
  int64_t n = 0;
  for (const ViewPiece &p : View) {
    int64_t a = std::max(lo, p.H0), b = std::min(hi, p.H1);
    int64_t cols = std::min(chi, p.W1) - std::max(clo, p.W0);
    if (p.Source >= 0 && b > a && cols > 0) // each source row once
      n += ((b - 1) / p.DH - a / p.DH + 1) * cols * (p.C1 - p.C0);
    // (a repeated column is read once per view column: DW copies)
  }
  return n;
}

int64_t Tensor::gatherWindow(int64_t lo, int64_t hi) const {
  int64_t sum = 0;
  for (size_t k = 0; k < View.size(); ++k) {
    int64_t a = INT64_MAX, b = 0;
    for (int64_t r = lo; r < hi; ++r) {
      a = std::min<int64_t>(a, GatherRowLo[k * size_t(H) + size_t(r)]);
      b = std::max<int64_t>(b, GatherRowHi[k * size_t(H) + size_t(r)]);
    }
    sum += b > a ? b - a : 0;
  }
  return sum;
}

std::vector<int> Net::viewSources(int t) const {
  if (!Tensors[t].isView())
    return {t};
  std::vector<int> r;
  for (const ViewPiece &p : Tensors[t].View)
    if (p.Source >= 0 && std::find(r.begin(), r.end(), p.Source) == r.end())
      r.push_back(p.Source);
  return r;
}

bool Net::stateful() const {
  for (const Layer &l : Layers)
    if (l.stateful())
      return true;
  return false;
}

std::vector<int> Net::outputs() const {
  std::vector<int> r;
  for (size_t i = 0; i < Tensors.size(); ++i)
    if (Tensors[i].isOutput())
      r.push_back(int(i));
  return r;
}

// --- From a Task IR graph ---------------------------------------------------

namespace {

Error unsupported(const tir::TaskBlock &b, const std::string &why) {
  return createStringError(inconvertibleErrorCode(),
                           "layer group: " + describeBlock(b) +
                               ": not supported: " + why);
}

/// An edge that moves a whole tensor as it is: no rearrangement but
/// RESHAPE (which keeps the C-order values, so an NHWC tensor's bytes), no
/// offset, the whole storage block. \p reshapes: whether it reshapes.
bool plainEdge(const Graph &g, int64_t e, bool &reshapes) {
  const tir::Edge &edge = g.edge(e);
  reshapes = false;
  for (const tir::Rearrange &r : edge.rearranges()) {
    if (r.type() == tir::RESHAPE)
      reshapes = true;
    else if (r.type() != tir::IDENTITY)
      return false;
  }
  const Graph::End &src = g.sourceEnd(e);
  const Graph::End &dst = g.destinationEnd(e);
  for (unsigned i = 0; i < NumDims; ++i)
    if ((src.Position.has(i) && src.Position[i] != 0) ||
        (dst.Position.has(i) && dst.Position[i] != 0))
      return false;
  const taskir::TaskBlock &srcBlock = g.block(src.Block);
  const taskir::TaskBlock &dstBlock = g.block(dst.Block);
  int64_t whole = isStorageBlock(srcBlock.type())
                      ? blockDims(srcBlock).volume()
                      : blockDims(dstBlock).volume();
  return src.Size.volume() == whole && dst.Size.volume() == whole;
}

/// The tensor element type of a block's precision: its host type
/// (precisionDType), INT9 held as int16 and TERNARY as int8, narrowed.
struct ElementType {
  DType Type;
  Tensor::Narrow Narrowed;
  bool operator!=(const ElementType &o) const {
    return Type != o.Type || Narrowed != o.Narrowed;
  }
};
ElementType elementType(const tir::TaskBlock &b) {
  tir::Precision p = b.precision();
  Tensor::Narrow narrow = p == tir::INT9      ? Tensor::Narrow::Int9
                          : p == tir::TERNARY ? Tensor::Narrow::Ternary
                                              : Tensor::Narrow::None;
  return {precisionDType(p), narrow};
}

ElementType elementType(const Tensor &t) { return {t.Type, t.Narrowed}; }

/// Whether every value is exact in FLOAT16.
template <typename T> bool fitsHalf(const std::vector<T> &values) {
  for (double v : values)
    if (roundToFloatPrecision(v, tir::FLOAT16) != v)
      return false;
  return true;
}

/// Whether every value is an integer of precision \p p's range.
bool fitsPrecision(const std::vector<double> &values, tir::Precision p) {
  for (double v : values)
    if (v != std::floor(v) || v < double(precisionMin(p)) ||
        v > double(precisionMax(p)))
      return false;
  return true;
}

int64_t dimOr(const Dims &d, Dim x, int64_t otherwise) {
  return d.has(x) ? d[x] : otherwise;
}

/// Builds the net block by block in topological order.
class NetBuilder {
public:
  explicit NetBuilder(const Graph &g) : g(g) {}
  Expected<Net> build();

private:
  const Graph &g;
  Net n;
  std::map<int64_t, int> storageTensor; ///< storage block -> tensor
  std::map<int64_t, int> computeTensor; ///< compute block -> output tensor
  /// Storage blocks holding their tensor flattened ([H][W][C] reshaped to
  /// [H * W * C]): only a CVM may read them (as a full-window convolution).
  std::set<int64_t> flattened;

  Error addStorage(int64_t id);
  Expected<int> addView(const tir::TaskBlock &b, int cluster);
  Error addViewStorage(const tir::TaskBlock &b);
  int tensorOf(int64_t block) const;
  Error addCompute(int64_t id);
  Error setKind(const tir::TaskBlock &b, Layer &l);
  Error setPrecision(const tir::TaskBlock &b, const Graph::Operands &ops,
                     const std::vector<int> &ins, Layer &l);
  Error setFloatPrecision(const tir::TaskBlock &b, const std::vector<int> &ins,
                          Layer &l);
  Error readParameters(const Graph::Operands &ops, Layer &l);
  int widenForConv(int in, const Layer &conv);
  Error cvmAsConv(const tir::TaskBlock &b, const Graph::Operands &ops,
                  const std::vector<int> &ins, Layer &l);
  Expected<std::vector<int>> dataInputs(const tir::TaskBlock &b,
                                        const Graph::Operands &ops,
                                        const Layer &l);
};

int NetBuilder::tensorOf(int64_t block) const {
  if (auto it = computeTensor.find(block); it != computeTensor.end())
    return it->second;
  if (auto it = storageTensor.find(block); it != storageTensor.end())
    return it->second;
  return -1;
}

/// The tensor input cluster \p cluster of \p b holds when its edges take
/// sub-boxes, rearrange or concatenate: a view (Tensor::View) of the
/// tensors it reads, [H][W][C] from the cluster's y, x and the rest, which
/// the groups reading it load with strided DMA.
Expected<int> NetBuilder::addView(const tir::TaskBlock &b, int cluster) {
  Expected<ViewMap> map = clusterViewMap(
      g, n, b, cluster, [&](int64_t block) { return tensorOf(block); });
  if (!map)
    return unsupported(b, "an input edge: " + toString(map.takeError()));
  Dims cd = Dims::fromProto(b.input_clusters(cluster).shape());
  int64_t h = dimOr(cd, DY, 1), w = dimOr(cd, DX, 1);
  int64_t c = cd.volume() / (h * w);
  std::string why;
  std::vector<ViewPiece> pieces =
      fitViewPieces(*map, h, w, c, MaxViewPieces, why);
  // No few strided boxes express it: gathered in NRAM, from one source.
  Tensor gather;
  if (pieces.empty() && !gatherView(*map, h, w, c, gather, why))
    return unsupported(b, "an edge rearrangement that strided copies do not "
                          "express nor an NRAM gather takes: " +
                              why);
  if (pieces.empty())
    pieces = gather.View;
  // The element type of its sources (clusterViewMap checked that they
  // share one precision); the rest of a view's own.
  auto read = std::find_if(pieces.begin(), pieces.end(),
                           [](const ViewPiece &p) { return p.Source >= 0; });
  if (read == pieces.end())
    return unsupported(b, "an input edge that reads nothing (all zeros)");
  Tensor t = n.Tensors[read->Source];
  t.Gather = std::move(gather.Gather);
  t.GatherRowLo = std::move(gather.GatherRowLo);
  t.GatherRowHi = std::move(gather.GatherRowHi);
  t.Name = fmt::format("{}.in{}",
                       b.name().empty() ? fmt::format("b{}", b.id()) : b.name(),
                       cluster);
  t.C = c, t.H = h, t.W = w;
  t.Producer = -1;
  t.Consumers.clear(), t.ViewReaders.clear();
  t.InputName.clear(), t.OutputNames.clear(), t.OutputShapes.clear();
  t.View = std::move(pieces);
  n.Tensors.push_back(std::move(t));
  return int(n.Tensors.size()) - 1;
}

/// A storage block whose edges rearrange, take sub-boxes or concatenate
/// holds a view. An SO over such edges is a copy of its view (group stores
/// write whole tensors): a scale by 1 whose group loads the view, as any
/// reader does, and stores the SO's tensor.
Error NetBuilder::addViewStorage(const tir::TaskBlock &b) {
  // The reference executor passes values through storage blocks
  // unconverted: one tensor holds one type.
  if (g.inputPrecision(b.id(), 0) != b.precision())
    return unsupported(b, "a precision other than its source's");
  Expected<int> t = addView(b, 0);
  if (!t)
    return t.takeError();
  storageTensor[b.id()] = *t;
  if (b.type() != tir::SO)
    return Error::success();
  const Tensor &v = n.Tensors[*t];
  Layer copy;
  copy.Kind = OpKind::Scale; // ConstA 1, ConstB 0
  copy.Name = Graph::ioName(b) + ".copy";
  // Exact in every type: float on the vector unit; half through float
  // (HalfViaFloat: 1 * x + 0 rounds nothing); integers in the 64-bit
  // integer loop (x * 1 + 0, already in range: the saturation and an INT9
  // or TERNARY clamp change nothing).
  copy.HalfViaFloat = v.Type == DType::F16;
  copy.Integer = v.Type != DType::F32 && v.Type != DType::F16;
  DType type = v.Type;
  Tensor::Narrow narrowed = v.Narrowed;
  int index = n.addLayer(std::move(copy), {*t}, v.C, v.H, v.W);
  int out = n.Layers[index].Output;
  n.Tensors[out].Type = type;
  n.Tensors[out].Narrowed = narrowed;
  storageTensor[b.id()] = out;
  n.markOutput(out, Graph::ioName(b), storageShape(b));
  return Error::success();
}

// A storage block is a tensor: a network input, or the tensor of its
// source (an SO also marks it an output).
Error NetBuilder::addStorage(int64_t id) {
  const tir::TaskBlock &b = g.block(id);
  tir::BlockType type = b.type();
  Dims d = blockDims(b);
  ElementType elemType = elementType(b);
  const auto &in = g.inEdges(id);
  if (in.empty()) {
    if (type == tir::SO)
      return unsupported(b, "SO without input");
    int64_t c = type == tir::SI ? dimOr(d, DF, 1) : dimOr(d, DR, 1);
    storageTensor[id] =
        n.addInput(Graph::ioName(b), c, dimOr(d, DY, 1), dimOr(d, DX, 1));
    Tensor &t = n.Tensors[storageTensor[id]];
    t.Type = elemType.Type;
    t.Narrowed = elemType.Narrowed;
    if (storageShape(b) != std::vector<int64_t>{t.H, t.W, t.C})
      t.InputShape = storageShape(b);
    return Error::success();
  }
  bool reshapes = false;
  if (in.size() != 1 || !plainEdge(g, in[0], reshapes))
    return addViewStorage(b);
  int64_t src = g.sourceEnd(in[0]).Block;
  int tensor;
  if (computeTensor.count(src))
    tensor = computeTensor[src];
  else if (storageTensor.count(src))
    tensor = storageTensor[src];
  else
    return unsupported(b, "input from an unsupported block");
  // The reference executor passes values through storage blocks
  // unconverted: one tensor holds one type.
  if (elementType(n.Tensors[tensor]) != elemType)
    return unsupported(b, "a precision other than its source's");
  if (flattened.count(src))
    return unsupported(b, "a flattened tensor read by other than a CVM");
  // A RESHAPE keeps the tensor when it keeps [H][W][C] (SI {f} and SIFC
  // {r} are [1][1][C]), or flattens it for a CVM.
  const Tensor &t = n.Tensors[tensor];
  int64_t c = type == tir::SIFC ? dimOr(d, DR, 1) : dimOr(d, DF, 1);
  int64_t h = dimOr(d, DY, 1), w = dimOr(d, DX, 1);
  if (reshapes && (c != t.C || h != t.H || w != t.W)) {
    if (type != tir::SIFC || c != t.elements())
      return addViewStorage(b);
    flattened.insert(id);
  }
  storageTensor[id] = tensor;
  if (type == tir::SO)
    n.markOutput(tensor, Graph::ioName(b), storageShape(b));
  return Error::success();
}

/// The layer kind of a compute block (a 1x1 CCMPB with CMP 0 is a ReLU,
/// other 1x1 compares clamp). The switch has a default: a block kind maps
/// to a layer kind here when LayerGroup gets one (docs/architecture.md), and
/// until then it is "not supported: block type".
Error NetBuilder::setKind(const tir::TaskBlock &b, Layer &l) {
  BlockKind kind = kindOf(b);
  switch (kind) {
  case BlockKind::CC:
  case BlockKind::CC2D:
    l.Kind = OpKind::Conv;
    return Error::success();
  case BlockKind::CCMPB:
  case BlockKind::CCMPS: {
    bool max = kind == BlockKind::CCMPB;
    double inf = std::numeric_limits<double>::infinity();
    l.Cmp = attrNumber(b, tir::CMP).value_or(max ? -inf : inf);
    bool pointwise = l.KY == 1 && l.KX == 1 && l.SY == 1 && l.SX == 1 &&
                     l.PU == 0 && l.PD == 0 && l.PL == 0 && l.PR == 0;
    l.ClampMax = max;
    if (pointwise)
      l.Kind = (max && l.Cmp == 0) ? OpKind::Relu : OpKind::Clamp;
    else
      l.Kind = max ? OpKind::MaxPool : OpKind::MinPool;
    return Error::success();
  }
  case BlockKind::CAVG:
    l.Kind = OpKind::SumPool;
    return Error::success();
  case BlockKind::CADD:
    l.Kind = OpKind::Add;
    return Error::success();
  case BlockKind::CVS:
    l.Kind = OpKind::Scale;
    l.ConstA = attrNumber(b, tir::CONST_A).value_or(1.0);
    return Error::success();
  case BlockKind::CAX:
    l.Kind = OpKind::Scale;
    return Error::success();
  case BlockKind::CVM: // a convolution with one output pixel (addCompute)
    l.Kind = OpKind::Conv;
    return Error::success();
  case BlockKind::CLIF:
    l.Kind = OpKind::Lif;
    l.VTh = attrNumber(b, tir::V_TH).value_or(1.0);
    l.VReset = attrNumber(b, tir::V_RESET).value_or(0.0);
    l.VLeak = attrNumber(b, tir::V_LEAK).value_or(0.0);
    l.Decay = attrNumber(b, tir::DECAY).value_or(1.0);
    l.LifSoftReset = attrNumber(b, tir::RESET_MODE).value_or(0.0) == 1.0;
    l.LifFloor = !isFloatPrecision(g.inputPrecision(b.id(), 0));
    return Error::success();
  case BlockKind::CVVH:
    l.Kind = OpKind::Mul;
    return Error::success();
  case BlockKind::CLUT: { // the table: the block's own data
    l.Kind = OpKind::Lut;
    auto table = blockValues(b);
    if (!table)
      return table.takeError();
    l.Alpha = std::move(*table);
    return Error::success();
  }
  default: // a kind no layer kind maps (a new row of BlockKinds.def)
    return unsupported(b, "block type");
  }
}

/// Weights, bias and alpha, exact (FLOAT32 blocks hold float values). The
/// weights as floats, drawn straight into floats (the device holds them as
/// float or narrower; VGG-16's would be 118 MB of doubles): weights not
/// exact in float are not supported.
Error NetBuilder::readParameters(const Graph::Operands &ops, Layer &l) {
  if (ops.Weight) {
    const tir::TaskBlock &b = g.block(*ops.Weight);
    if (!b.has_init() && !b.data().int32_data_size() &&
        !b.data().uint32_data_size() && !b.data().float_data_size())
      return blockValues(b).takeError(); // has neither: its error
    auto values = blockValuesFloat(b);
    if (!values)
      return unsupported(b, toString(values.takeError()));
    l.Weight = std::move(*values);
  }
  std::pair<std::optional<int64_t>, std::vector<double> *> parts[] = {
      {ops.Bias, &l.Bias}, {ops.Alpha, &l.Alpha}};
  for (auto &[block, into] : parts) {
    if (!block)
      continue;
    auto values = blockValues(g.block(*block));
    if (!values)
      return values.takeError();
    *into = std::move(*values);
  }
  return Error::success();
}

/// CVM, SO[f] = bias[f] + sum_r W[f][r] * SI[r], is a convolution whose
/// kernel covers its whole input: over a flattened [H][W][C] tensor, r =
/// (y * W + x) * C + c (the C order RESHAPE keeps), so the weight [F][R]
/// becomes [F][C][H][W]; over a [1][1][C] tensor it is a 1x1 convolution.
/// Other layers do not read flattened tensors.
Error NetBuilder::cvmAsConv(const tir::TaskBlock &b, const Graph::Operands &ops,
                            const std::vector<int> &ins, Layer &l) {
  if (kindOf(b) != BlockKind::CVM) {
    for (int64_t src : ops.Data)
      if (flattened.count(src))
        return unsupported(b, "a flattened input (only a CVM reads one)");
    return Error::success();
  }
  const Tensor &in = n.Tensors[ins[0]];
  if (in.H == 1 && in.W == 1)
    return Error::success();
  int64_t f = blockDims(b)[DF], c = in.C, kh = in.H, kw = in.W;
  if (int64_t(l.Weight.size()) != f * c * kh * kw)
    return unsupported(b, "weights of another size than [F][R]");
  std::vector<float> w(l.Weight.size());
  for (int64_t o = 0; o < f; ++o)
    for (int64_t y = 0; y < kh; ++y)
      for (int64_t x = 0; x < kw; ++x)
        for (int64_t k = 0; k < c; ++k)
          w[((o * c + k) * kh + y) * kw + x] =
              l.Weight[o * c * kh * kw + (y * kw + x) * c + k];
  l.Weight = std::move(w);
  l.KY = kh, l.KX = kw;
  return Error::success();
}

/// Float layers: setFloatPrecision. Integer layers follow the
/// reference executor's two paths (Layer::Integer, RealMath); convolutions
/// take the matrix unit's integer overloads (INT8 or INT16 inputs and
/// weights, INT9 and TERNARY held as int16 and int8, an INT32 output).
/// Bias and alpha values must be exact in the output type, which holds
/// them on the device.
Error NetBuilder::setPrecision(const tir::TaskBlock &b,
                               const Graph::Operands &ops,
                               const std::vector<int> &ins, Layer &l) {
  tir::Precision p = b.precision();
  tir::Precision data = g.inputPrecision(b.id(), 0);
  if (l.Kind == OpKind::Lut) { // indexes by the input; holds the output's
    int64_t lo = precisionMin(data), entries = precisionMax(data) - lo + 1;
    if (int64_t(l.Alpha.size()) != entries)
      return unsupported(b, "a table of another size than its input's range");
    l.Integer = p != tir::FLOAT32;
    return Error::success();
  }
  if (l.Kind == OpKind::Lif) { // computes in double, stores 0 or 1
    l.Integer = p != tir::FLOAT32;
    return Error::success();
  }
  if (isFloatPrecision(p))
    return setFloatPrecision(b, ins, l);
  l.Integer = true;
  l.RealMath = isFloatPrecision(data) || attrIsFloat(b, tir::CONST_A) ||
               attrIsFloat(b, tir::CONST_B);
  if (l.Kind == OpKind::Conv) {
    DType in = n.Tensors[ins[0]].Type;
    if (p != tir::INT32 || l.RealMath || !ops.Weight)
      return unsupported(b, "an integer convolution other than integer "
                            "inputs and weights into INT32");
    tir::Precision w = g.block(*ops.Weight).precision();
    bool same = (in == DType::I8 && w == tir::INT8) ||
                (in == DType::I16 && w == tir::INT16);
    // Otherwise both must fit INT16: the input is widened (addCompute),
    // the weights held as int16.
    auto fits16 = [](tir::Precision q) {
      return q == tir::INT8 || q == tir::UINT8 || q == tir::INT16 ||
             q == tir::INT9 || q == tir::TERNARY;
    };
    if (!same && !(fits16(data) && fits16(w)))
      return unsupported(b, "an integer convolution whose inputs or weights "
                            "do not fit INT16");
  }
  if (l.Kind == OpKind::Add && ins.size() > 2)
    return unsupported(b, "an integer CADD of more than two inputs");
  if (!fitsPrecision(l.Bias, p) || !fitsPrecision(l.Alpha, p))
    return unsupported(b, "bias or alpha values outside " + precisionName(p));
  return Error::success();
}

/// A float layer over inputs of its own type takes the device's float
/// units: a FLOAT32 layer the vector unit (float arithmetic, close to the
/// reference's double), a convolution the matrix unit (half inputs and
/// weights accumulate in float: FLOAT16 weights and bias must be exact in
/// half, which holds them), and FLOAT16 ReLU and max pools from -inf (no
/// rounding) and a CADD of two inputs without a bias (a half sum rounded
/// once, from float, which holds it exactly or rounds it harmlessly: float
/// has more than twice half's 11 bits) the vector unit, exactly as the
/// reference computes them. Every other FLOAT16 layer, and a float layer
/// over inputs of another type, runs the reference's double arithmetic in
/// the scalar loops (Integer, RealMath) and stores as it does: through
/// float, to half.
Error NetBuilder::setFloatPrecision(const tir::TaskBlock &b,
                                    const std::vector<int> &ins, Layer &l) {
  tir::Precision p = b.precision();
  bool sameType = true;
  for (int t : ins)
    sameType &= n.Tensors[t].Type == precisionDType(p);
  if (l.Kind == OpKind::Conv) {
    if (!sameType)
      return unsupported(b, "a " + precisionName(p) +
                                " convolution over inputs of another "
                                "precision");
    std::vector<double> constB{l.ConstB};
    if (p == tir::FLOAT16 &&
        (!fitsHalf(l.Weight) || !fitsHalf(l.Bias) || !fitsHalf(constB)))
      return unsupported(b, "weights or bias values not exact in FLOAT16 "
                            "(the matrix unit reads half weights)");
    return Error::success();
  }
  bool exactVector =
      l.Kind == OpKind::Relu ||
      (l.Kind == OpKind::MaxPool && std::isinf(l.Cmp) && l.Cmp < 0) ||
      (l.Kind == OpKind::Add && ins.size() == 2 && l.Bias.empty() &&
       l.ConstB == 0);
  if (sameType && (p == tir::FLOAT32 || exactVector))
    return Error::success();
  // bias + a * x: the product of two halves is exact in float, and float's
  // one rounding of the sum of two floats is the reference's double sum
  // rounded to float (double has 53 >= 2 * 24 + 2 bits, so rounding twice
  // is rounding once); both then round that float to half.
  std::vector<double> consts{l.ConstA, l.ConstB};
  bool scaleOnly = l.Kind == OpKind::Scale ||
                   (l.Kind == OpKind::Add && ins.size() == 1);
  if (sameType && p == tir::FLOAT16 && scaleOnly && fitsHalf(l.Bias) &&
      fitsHalf(l.Alpha) && fitsHalf(consts)) {
    l.HalfViaFloat = true;
    return Error::success();
  }
  // A window sum of halves (and the bias) is exact in double; in three
  // float parts it is exact too for at most HalfSumMaxTerms terms, and
  // their TwoSum rounds it to float once (lg_sum_pool_half).
  bool sumBias = !l.Bias.empty() || l.ConstB != 0;
  if (sameType && p == tir::FLOAT16 && l.Kind == OpKind::SumPool &&
      fitsHalf(l.Bias) && fitsHalf(consts) &&
      l.KY * l.KX + (sumBias ? 1 : 0) <= HalfSumMaxTerms) {
    l.HalfViaFloat = true;
    return Error::success();
  }
  l.Integer = true;
  l.RealMath = true;
  if (l.Kind == OpKind::Add && ins.size() > 2)
    return unsupported(b, "a " + precisionName(p) +
                              " CADD of more than two inputs");
  if (p == tir::FLOAT16 && (!fitsHalf(l.Bias) || !fitsHalf(l.Alpha)))
    return unsupported(b, "bias or alpha values not exact in FLOAT16");
  return Error::success();
}

Expected<std::vector<int>> NetBuilder::dataInputs(const tir::TaskBlock &b,
                                                  const Graph::Operands &ops,
                                                  const Layer &l) {
  (void)ops;
  // Each data cluster: the tensor of its storage block when one whole edge
  // moves it as it is (or flattened for a CVM), else a view.
  std::vector<InputRole> roles = inputRoles(b);
  std::vector<int> ins;
  for (int k = 0; k < b.input_clusters_size() && k < int(roles.size()); ++k) {
    if (roles[k] != InputRole::Data)
      continue;
    std::vector<int64_t> edges;
    for (int64_t e : g.inEdges(b.id()))
      if (g.destinationEnd(e).Cluster == k)
        edges.push_back(e);
    bool reshapes = false;
    if (edges.size() == 1 && plainEdge(g, edges[0], reshapes)) {
      int64_t src = g.sourceEnd(edges[0]).Block;
      if (!storageTensor.count(src))
        return unsupported(b, "data input from an unsupported block");
      const Tensor &t = n.Tensors[storageTensor[src]];
      Dims cd = Dims::fromProto(b.input_clusters(k).shape());
      int64_t h = dimOr(cd, DY, 1), w = dimOr(cd, DX, 1);
      if (flattened.count(src) ||
          (t.H == h && t.W == w && t.C == cd.volume() / (h * w))) {
        ins.push_back(storageTensor[src]);
        continue;
      }
    }
    Expected<int> v = addView(b, k);
    if (!v)
      return v.takeError();
    ins.push_back(*v);
  }
  if (ins.empty())
    return unsupported(b, "no data input");
  if (l.Kind == OpKind::Mul && ins.size() != 2)
    return unsupported(b, "a CVVH without two data inputs");
  if (l.Kind != OpKind::Add && l.Kind != OpKind::Mul && ins.size() != 1)
    return unsupported(b, "more than one data input");
  return ins;
}

/// The matrix unit multiplies int8 by int8 or int16 by int16: a convolution
/// over another integer input (UINT8 spikes into INT8 weights) reads it
/// widened to INT16 by a layer of its own, an exact integer scale by 1, and
/// holds its weights as int16 (weightElemBytes follows the input). Returns
/// the tensor the convolution reads.
int NetBuilder::widenForConv(int in, const Layer &conv) {
  DType t = n.Tensors[in].Type;
  bool sameAsWeights = true;
  for (float w : conv.Weight)
    if (t == DType::I8 ? (w < -128 || w > 127) : false)
      sameAsWeights = false;
  if ((t == DType::I8 && sameAsWeights) || t == DType::I16)
    return in;
  Layer w;
  w.Kind = OpKind::Scale;
  w.Name = conv.Name + ".widen";
  w.BlockId = conv.BlockId;
  w.Integer = true;
  const Tensor &src = n.Tensors[in];
  int index = n.addLayer(std::move(w), {in}, src.C, src.H, src.W);
  int out = n.Layers[index].Output;
  n.Tensors[out].Type = DType::I16;
  return out;
}

// A compute block is a layer.
Error NetBuilder::addCompute(int64_t id) {
  const tir::TaskBlock &b = g.block(id);
  ElementType type = elementType(b);
  Graph::Operands ops = g.operands(id);
  Layer l;
  l.Name = b.name().empty() ? fmt::format("b{}", id) : b.name();
  l.BlockId = id;
  if (hasWindow(b.type())) {
    KernelParams kp = kernelParams(b);
    l.KY = kp.KY, l.KX = kp.KX, l.SY = kp.SY, l.SX = kp.SX;
    l.PU = kp.PadUp, l.PD = kp.PadDown, l.PL = kp.PadLeft, l.PR = kp.PadRight,
    l.DY = kp.DY, l.DX = kp.DX;
  }
  if (Error e = setKind(b, l))
    return e;
  l.ConstB = attrNumber(b, tir::CONST_B).value_or(0.0);
  if (Error e = readParameters(ops, l))
    return e;
  Expected<std::vector<int>> ins = dataInputs(b, ops, l);
  if (!ins)
    return ins.takeError();
  if (Error e = cvmAsConv(b, ops, *ins, l))
    return e;
  if (Error e = setPrecision(b, ops, *ins, l))
    return e;
  if (l.Kind == OpKind::Conv && l.Integer)
    (*ins)[0] = widenForConv((*ins)[0], l);
  Dims d = blockDims(b);
  int64_t c = dimOr(d, DF, 1), h = dimOr(d, DY, 1), w = dimOr(d, DX, 1);
  // The reference adds CONST_B when there is no SB bias (the integer loops
  // take it as a constant; an integer convolution's is an integer).
  bool takesBias = chanVectors(l.Kind) != ChanVectors::None;
  if (takesBias && l.Bias.empty() && l.ConstB != 0 &&
      (!l.Integer || l.Kind == OpKind::Conv))
    l.Bias.assign(size_t(c),
                  l.Integer ? l.ConstB
                            : roundToFloatPrecision(l.ConstB, b.precision()));
  int index = n.addLayer(std::move(l), *ins, c, h, w);
  n.Tensors[n.Layers[index].Output].Type = type.Type;
  n.Tensors[n.Layers[index].Output].Narrowed = type.Narrowed;
  computeTensor[id] = n.Layers[index].Output;
  return Error::success();
}

Expected<Net> NetBuilder::build() {
  for (int64_t id : g.topologicalOrder()) {
    switch (kindOf(g.block(id))) {
    case BlockKind::SW:
    case BlockKind::SWFC:
    case BlockKind::SB:
      continue; // parameters, read by their layer
    case BlockKind::SI:
    case BlockKind::SIC:
    case BlockKind::SIC2D:
    case BlockKind::SIFC:
    case BlockKind::SO:
      if (Error e = addStorage(id))
        return std::move(e);
      continue;
#include "graph/ComputeKindCases.inc"
      if (Error e = addCompute(id))
        return std::move(e);
      continue;
    }
  }
  return std::move(n);
}

} // namespace

Expected<Net> buildNet(const Graph &g) { return NetBuilder(g).build(); }

} // namespace bangc::lg
