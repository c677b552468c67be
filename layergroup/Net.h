//===- Net.h - The layer view of a Task IR graph for LayerGroup -*- C++ -*-===//
//
// LayerGroup plans over layers and tensors, not over Task IR blocks: each
// compute block is a layer, and the chain of storage blocks between two
// compute blocks (SI -> SIC -> CC) is one tensor [C][H][W] of the
// blocks' precision. Weights are materialised as floats, biases as doubles.
//
//===----------------------------------------------------------------------===//
#ifndef BANGC_LAYERGROUP_NET_H
#define BANGC_LAYERGROUP_NET_H

#include "support/DType.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bangc::graph {
class Graph;
}

namespace bangc::lg {

/// The kinds of layer, one row each of layergroup/OpKinds.def (which also
/// holds what the planner needs to know of each). The blocks they come from:
/// Conv CC, CC2D and CVM; MaxPool CCMPB, MinPool CCMPS (a window, starting
/// from CMP); Relu a 1x1 CCMPB with CMP 0, Clamp another 1x1 compare;
/// SumPool CAVG (window sum + bias); Add CADD; Scale CVS (CONST_A) and CAX
/// (alpha[f]); Mul CVVH (bias + SI1 * SI2, the Hadamard product); Lut CLUT
/// (table[x - min of the input type], the table in Alpha); Lif CLIF
/// (integrate and fire, its membrane state carried across the images of a
/// run, which are its time steps).
enum class OpKind {
#define LG_OPKIND(KIND, ...) KIND,
#include "layergroup/OpKinds.def"
};
const char *opKindName(OpKind k);

/// The per-channel vectors a kind applies through a tile replicated over
/// pixels (the VECTORS column): a kind with a bias also takes CONST_B as
/// one.
enum class ChanVectors { None, Bias, BiasAlpha };
ChanVectors chanVectors(OpKind k);

/// The C type that holds an element of \p t on the device ("float",
/// "half", "int8_t", ...).
const char *deviceCType(DType t);

/// One box of a view tensor (Tensor::View): elements [H0, H1) x [W0, W1) x
/// [C0, C1) of the view read element Off + (h / DH) * SH + (w / DW) * SW +
/// c * SC of one image of tensor Source (NHWC, per image; strides may be 0
/// or negative). A strided DMA copies it (lg_load_view); with DH > 1 (rows
/// repeated DH times: nearest upsampling) each source row is copied once
/// and repeated in NRAM; with DW > 1 (columns repeated, SC 1) the DMA reads
/// each source pixel DW times (source stride 0).
struct ViewPiece {
  int Source = -1;
  int64_t H0 = 0, H1 = 0, W0 = 0, W1 = 0, C0 = 0, C1 = 0;
  int64_t Off = 0, SH = 0, SW = 0, SC = 1;
  int64_t DH = 1, DW = 1;
};

struct Tensor {
  std::string Name;
  int64_t C = 0, H = 1, W = 1;
  /// Element type in NRAM and GDRAM: the Task IR precision of the blocks,
  /// INT9 held as int16 and TERNARY as int8 (Narrowed says which).
  DType Type = DType::F32;
  /// A Task IR precision narrower than Type: its values are saturated to
  /// [-256, 255] (INT9) or [-1, 1] (TERNARY) when a layer stores them.
  enum class Narrow { None, Int9, Ternary } Narrowed = Narrow::None;
  int Producer = -1;                    ///< layer index, -1 for a network input
  std::vector<int> Consumers;           ///< layer indexes
  std::string InputName;                ///< host name when a network input
  std::vector<std::string> OutputNames; ///< SO names reading it
  /// The storage shape of each SO (by name) when it is not [H][W][C]
  /// (e.g. a CVM's [F]).
  std::map<std::string, std::vector<int64_t>> OutputShapes;
  /// The storage shape of a network input when it is not [H][W][C] (an
  /// SIFC's [R]).
  std::vector<int64_t> InputShape;
  /// A view: the tensor a rearranging edge (or edges: a concatenation)
  /// makes of other tensors, never stored itself; the groups that read it
  /// load these boxes of their sources with strided DMA (docs/layergroup.md
  /// "Rearranging edges"). The pieces tile [H][W][C] exactly.
  std::vector<ViewPiece> View;
  /// A gathered view (a map no MaxViewPieces strided boxes express:
  /// SHUFFLE, SHEAR, AFFINE, ...): View is then a box of the whole view
  /// per source tensor k, naming it, and Gather holds per source a table
  /// of the view's elements ([H][W][C]): the element of one image of
  /// source k it reads, or -1 (another source's, or zero). The load copies
  /// the source elements its rows span into NRAM and gathers them there
  /// (lg_gather_view); GatherRowLo/Hi are per source each view row's span
  /// [lo, hi) of source elements (lo > hi-1 for a row reading none).
  std::vector<int32_t> Gather;
  std::vector<int32_t> GatherRowLo, GatherRowHi;
  /// Layers that read a view of this tensor: it must be in GDRAM for them.
  std::vector<int> ViewReaders;
  int64_t elements() const { return C * H * W; }
  int64_t elemBytes() const { return int64_t(dtypeSize(Type)); }
  int64_t bytes() const { return elements() * elemBytes(); }
  bool isOutput() const { return !OutputNames.empty(); }
  bool isView() const { return !View.empty(); }
  bool gathered() const { return !Gather.empty(); }
  /// A gathered view: the source elements of one image rows [lo, hi) span
  /// (the windows lg_gather_view copies), summed over its sources.
  int64_t gatherWindow(int64_t lo, int64_t hi) const;
  /// Elements of one image that a load of rows [lo, hi) x columns [clo,
  /// chi), all channels, reads from GDRAM: all of them, or, for a view,
  /// those of its boxes that are not zero fill (a repeated row once); a
  /// gathered view its windows, and its index tables' int32 entries (per
  /// source the item's elements and two row bounds a row) as elements of
  /// Type.
  int64_t loadedElements(int64_t lo, int64_t hi, int64_t clo,
                         int64_t chi) const;
  /// The value range of an integer tensor: its type's, or Narrowed's.
  int64_t minValue() const;
  int64_t maxValue() const;
};

struct Layer {
  OpKind Kind = OpKind::Conv;
  std::string Name;
  int64_t BlockId = -1;
  std::vector<int> Inputs; ///< tensor indexes (data inputs)
  int Output = -1;
  int64_t KY = 1, KX = 1, SY = 1, SX = 1;
  int64_t PU = 0, PD = 0, PL = 0, PR = 0, DY = 1, DX = 1;
  /// Parameters as exact values; the device holds them in the type of the
  /// layer's input (weights) or output (bias, alpha). Weights are exact in
  /// float (buildNet refuses others), so held as floats: half the memory.
  std::vector<float> Weight; ///< Conv: [F][C][KY][KX]
  std::vector<double> Bias;  ///< per output channel; empty: ConstB
  std::vector<double> Alpha; ///< CAX per channel (empty: ConstA); Lut: the
                             ///< table, one entry per input value
  double Cmp = 0, ConstA = 1, ConstB = 0;
  bool ClampMax = true; ///< Clamp: max(x, Cmp) (CCMPB), else min (CCMPS)
  /// Lif (docs/taskir.md "CLIF"): V = Decay * V + x - VLeak (floored when
  /// LifFloor, an integer input), spike when V >= VTh, then V = VReset, or
  /// V - VTh when LifSoftReset. V starts at VReset.
  double VTh = 1, VReset = 0, VLeak = 0, Decay = 1;
  bool LifSoftReset = false, LifFloor = false;
  /// The reference executor's arithmetic: an integer output runs on the
  /// integer overloads of the matrix unit (Conv) or in scalar loops (the
  /// rest, lg_int_*), storing with the reference executor's saturation; a
  /// float layer whose vector path would round otherwise than the reference
  /// (FLOAT16 other than Conv, ReLU, max pools and HalfViaFloat; a float
  /// output over inputs of another type) runs in the same scalar loops.
  /// RealMath: it computes in double (the reference's real path: a float
  /// input or output, CONST_A/CONST_B) and rounds to nearest, ties away from
  /// zero (integers) or to nearest even through float (FLOAT16); otherwise
  /// in 64-bit integers.
  bool Integer = false;
  bool RealMath = false;
  /// A FLOAT16 CVS, CAX or one-input CADD whose alpha and bias are exact in
  /// half: the vector unit computes it in float, one product (exact: two
  /// 11-bit significands) and one sum, then rounds to half, which is the
  /// reference's value (docs/layergroup.md "Precisions"). A FLOAT16 CAVG
  /// of at most HalfSumMaxTerms terms (taps and bias): the exact sum in
  /// three float parts, rounded to float once, then to half.
  bool HalfViaFloat = false;

  bool windowed() const {
    return Kind == OpKind::Conv || Kind == OpKind::MaxPool ||
           Kind == OpKind::MinPool || Kind == OpKind::SumPool;
  }
  /// The layer carries state from one image (time step) to the next.
  bool stateful() const { return Kind == OpKind::Lif; }
  int64_t keffY() const { return (KY - 1) * DY + 1; }
  int64_t keffX() const { return (KX - 1) * DX + 1; }
};

/// The most halves (window taps and the bias) a HalfViaFloat CAVG sums:
/// their parts' float sums stay exact (64 x 65504 < 2^22 in steps of 2^-2).
constexpr int64_t HalfSumMaxTerms = 64;

struct Net {
  std::string Name;
  std::vector<Tensor> Tensors;
  std::vector<Layer> Layers; ///< topological order

  /// Builders for hand-made networks (tests) and for buildNet.
  int addInput(std::string name, int64_t c, int64_t h, int64_t w);
  /// Adds a layer reading \p ins; creates its output tensor with the given
  /// shape and returns the layer index.
  int addLayer(Layer l, std::vector<int> ins, int64_t c, int64_t h, int64_t w);
  void markOutput(int tensor, std::string name,
                  std::vector<int64_t> shape = {});

  /// Convenience builders (output shape derived), return the output tensor.
  int conv(int in, int64_t f, int64_t k, int64_t stride, int64_t pad,
           std::string name = "", uint32_t seed = 1);
  int maxPool(int in, int64_t k, int64_t stride, int64_t pad = 0,
              std::string name = "");
  int relu(int in, std::string name = "");
  /// max(x, cmp) (max) or min(x, cmp), element by element.
  int clamp(int in, double cmp, bool max, std::string name = "");
  int add(int a, int b, std::string name = "");

  int64_t macs(int layer) const;
  /// Bytes of one weight of \p l (the type of its data input) and of one
  /// element of its per-channel vectors (bias, alpha: its output type).
  int64_t weightElemBytes(const Layer &l) const {
    return Tensors[l.Inputs[0]].elemBytes();
  }
  int64_t vectorElemBytes(const Layer &l) const {
    return Tensors[l.Output].elemBytes();
  }
  /// Network inputs (no producer, not a view).
  std::vector<int> inputs() const;
  /// The tensors views of tensor \p t read (itself if it is not a view).
  std::vector<int> viewSources(int t) const;
  std::vector<int> outputs() const;
  /// Some layer carries state across images: the batch is time.
  bool stateful() const;

private:
  /// Adds \p l over \p ins with the shape of the first input.
  int elementwise(Layer l, std::vector<int> ins);
};

/// The layer view of a validated graph. Errors name the block that is not
/// supported (rearranging edges, partial interfaces, parameters a FLOAT16
/// or integer layer cannot hold exactly). An integer convolution whose input
/// and weights are not both INT8 or both INT16 reads its input widened to
/// INT16 by a layer of its own ("<conv>.widen") when every value fits.
llvm::Expected<Net> buildNet(const graph::Graph &g);

} // namespace bangc::lg

#endif
