//===- Planner.cpp - LayerGroup planning ----------------------------------===//
#include "layergroup/Planner.h"

#include <fmt/format.h>
#include <llvm/Support/MathExtras.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <cstdio>
#include <cstdlib>

using namespace llvm;

namespace bangc::lg {

// --- Backward-H -------------------------------------------------------------

RowRange backwardH(RowRange Out, int64_t Stride, int64_t Pad,
                   int64_t DilatedKernel, int64_t InH) {
  if (Out.size() == 0)
    return {0, 0};
  int64_t Lo = Out.Lo * Stride - Pad;
  int64_t Hi = (Out.Hi - 1) * Stride - Pad + DilatedKernel;
  return {std::max<int64_t>(0, Lo), std::min(InH, Hi)};
}

RowRange backwardH(const Layer &L, RowRange Out, int64_t InH) {
  if (!L.windowed())
    return backwardH(Out, 1, 0, 1, InH);
  return backwardH(Out, L.SY, L.PU, L.keffY(), InH);
}

RowRange backwardW(const Layer &L, RowRange Out, int64_t InW) {
  if (!L.windowed())
    return backwardH(Out, 1, 0, 1, InW);
  return backwardH(Out, L.SX, L.PL, L.keffX(), InW);
}

bool duplicationOk(int64_t H, const std::vector<RowRange> &Slices) {
  int64_t Total = 0;
  for (const RowRange &R : Slices)
    Total += R.size();
  return (Total - H) * 2 <= H;
}

// --- Groups -----------------------------------------------------------------

GroupInfo groupInfo(const Net &N, int First, int Last) {
  GroupInfo G;
  G.First = First, G.Last = Last;
  std::set<int> Seen;
  for (int L = First; L <= Last; ++L) {
    G.Layers.push_back(L);
    for (int T : N.Layers[L].Inputs) {
      int P = N.Tensors[T].Producer;
      if ((P < First || P > Last) && !Seen.count(T)) {
        Seen.insert(T);
        G.Inputs.push_back(T);
      }
    }
  }
  G.Tensors = G.Inputs;
  for (int L = First; L <= Last; ++L) {
    int T = N.Layers[L].Output;
    G.Tensors.push_back(T);
    bool Out = N.Tensors[T].isOutput();
    for (int C : N.Tensors[T].Consumers)
      if (C > Last)
        Out = true;
    (Out ? G.Outputs : G.Internal).push_back(T);
  }
  return G;
}

namespace {
/// Rows (W false) or columns (W true) of a tensor and of a layer's window.
int64_t extent(const Tensor &T, bool W) { return W ? T.W : T.H; }
RowRange backwardAxis(const Layer &L, RowRange Out, int64_t In, bool W) {
  return W ? backwardW(L, Out, In) : backwardH(L, Out, In);
}
const char *axisName(bool W) { return W ? "W" : "H"; }
const char *axisUnit(bool W) { return W ? "columns" : "rows"; }

/// H or W slices of a group: the group output split into equal ranges, then
/// backwards through the layers (a tensor read by several layers takes the
/// hull); the h/2 (w/2) rule on the tensors the group computes.
std::optional<HSlicing> sliceAxis(const Net &N, const GroupInfo &G, int Secs,
                                  bool W, PlanError *Why) {
  auto fail = [&](PlanFailure K, std::string M) -> std::optional<HSlicing> {
    if (Why)
      *Why = {K, std::move(M)};
    return std::nullopt;
  };
  HSlicing S;
  S.HSecs = Secs;
  size_t NT = G.Tensors.size();
  if (Secs == 1) {
    std::vector<RowRange> All(NT);
    for (size_t I = 0; I < NT; ++I) {
      All[I] = {0, extent(N.Tensors[G.Tensors[I]], W)};
      S.RowsCap.push_back(All[I].size());
    }
    S.Rows.push_back(All);
    S.Step = G.Outputs.empty() ? 0 : extent(N.Tensors[G.Outputs.back()], W);
    return S;
  }
  if (G.Outputs.size() != 1)
    return fail(PlanFailure::SeveralOutputs,
                fmt::format("{} slicing needs a single group output",
                            axisName(W)));
  int Final = G.Outputs[0];
  int64_t OH = extent(N.Tensors[Final], W);
  int64_t Step = (OH + Secs - 1) / Secs;
  if (Secs > OH || (Secs - 1) * Step >= OH)
    return fail(PlanFailure::EmptySlice,
                fmt::format("{} {} slices of {} {} leave a slice empty", Secs,
                            axisName(W), OH, axisUnit(W)));
  S.Step = Step;
  S.RowsCap.assign(NT, 0);
  for (int Sl = 0; Sl < Secs; ++Sl) {
    std::vector<RowRange> Req(NT, RowRange{0, 0});
    std::vector<bool> Set(NT, false);
    int FS = G.slot(Final);
    Req[FS] = {Sl * Step, std::min(OH, (Sl + 1) * Step)};
    Set[FS] = true;
    for (int L = G.Last; L >= G.First; --L) {
      const Layer &Ly = N.Layers[L];
      int OS = G.slot(Ly.Output);
      if (!Set[OS])
        return fail(PlanFailure::NotFeedingOutput,
                    fmt::format("layer {} does not feed the group output",
                                Ly.Name));
      for (int In : Ly.Inputs) {
        int IS = G.slot(In);
        RowRange R = backwardAxis(Ly, Req[OS], extent(N.Tensors[In], W), W);
        if (!Set[IS])
          Req[IS] = R, Set[IS] = true;
        else
          Req[IS] = {std::min(Req[IS].Lo, R.Lo), std::max(Req[IS].Hi, R.Hi)};
      }
    }
    for (size_t I = 0; I < NT; ++I) {
      if (Req[I].size() == 0)
        return fail(PlanFailure::EmptySlice,
                    fmt::format("a slice needs no {} of some tensor",
                                axisUnit(W)));
      S.RowsCap[I] = std::max(S.RowsCap[I], Req[I].size());
    }
    S.Rows.push_back(std::move(Req));
  }
  // The h/2 rule bounds recomputation inside a group: it applies to the
  // tensors the group computes. The rows of a group input are only re-read
  // (as for a single layer, which recomputes nothing), so a convolution
  // with its ReLU and pool slices as finely as the convolution alone. The
  // same rule holds along W.
  for (size_t I = G.Inputs.size(); I < NT; ++I) {
    std::vector<RowRange> Col;
    for (auto &R : S.Rows)
      Col.push_back(R[I]);
    const Tensor &T = N.Tensors[G.Tensors[I]];
    if (!duplicationOk(extent(T, W), Col))
      return fail(W ? PlanFailure::WDuplication : PlanFailure::HDuplication,
                  fmt::format("{}/2 rule: {} {} slices duplicate more than "
                              "half of the {} {} of '{}'",
                              W ? "w" : "h", Secs, axisName(W), extent(T, W),
                              axisUnit(W), T.Name));
  }
  return S;
}
} // namespace

std::optional<HSlicing> sliceH(const Net &N, const GroupInfo &G, int HSecs,
                               PlanError *Why) {
  return sliceAxis(N, G, HSecs, false, Why);
}

std::optional<HSlicing> sliceW(const Net &N, const GroupInfo &G, int WSecs,
                               PlanError *Why) {
  return sliceAxis(N, G, WSecs, true, Why);
}

/// Runs \p Plan with a PlanError and keeps only its message in \p Why.
template <typename Fn> static auto withMessage(std::string *Why, Fn &&Plan) {
  PlanError E;
  auto R = Plan(&E);
  if (!R && Why)
    *Why = std::move(E.Message);
  return R;
}

std::optional<HSlicing> sliceH(const Net &N, const GroupInfo &G, int HSecs,
                               std::string *Why) {
  return withMessage(Why, [&](PlanError *E) { return sliceH(N, G, HSecs, E); });
}

std::optional<HSlicing> sliceW(const Net &N, const GroupInfo &G, int WSecs,
                               std::string *Why) {
  return withMessage(Why, [&](PlanError *E) { return sliceW(N, G, WSecs, E); });
}

// --- NRAM allocation --------------------------------------------------------

static bool timeOverlap(const LmemBuffer &A, const LmemBuffer &B) {
  return A.Start <= B.End && B.Start <= A.End;
}

bool lmemDisjoint(const std::vector<LmemBuffer> &Bufs) {
  for (size_t I = 0; I < Bufs.size(); ++I)
    for (size_t J = I + 1; J < Bufs.size(); ++J) {
      const LmemBuffer &A = Bufs[I], &B = Bufs[J];
      if (A.Bytes == 0 || B.Bytes == 0 || !timeOverlap(A, B))
        continue;
      if (A.Offset < B.Offset + B.Bytes && B.Offset < A.Offset + A.Bytes)
        return false;
    }
  return true;
}

bool allocateLmem(std::vector<LmemBuffer> &Bufs, int64_t Capacity, int Banks,
                  bool WeightsFirst, int64_t *Peak) {
  const int64_t Align = 64;
  std::vector<size_t> Order(Bufs.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  auto life = [](const LmemBuffer &B) -> int64_t {
    return B.End == TsInf ? INT64_MAX / 4 : int64_t(B.End) - B.Start;
  };
  std::stable_sort(Order.begin(), Order.end(), [&](size_t X, size_t Y) {
    const LmemBuffer &A = Bufs[X], &B = Bufs[Y];
    if (WeightsFirst) {
      bool WA = A.K == LmemBuffer::Weight, WB = B.K == LmemBuffer::Weight;
      if (WA != WB)
        return WA;
    }
    if (A.Order != B.Order)
      return A.Order < B.Order;
    if (life(A) != life(B))
      return life(A) > life(B);
    return A.Bytes > B.Bytes;
  });
  int64_t BankBytes = Banks > 0 ? Capacity / Banks : 0;
  int64_t Top = 0;
  std::vector<size_t> Placed;
  bool Ok = true;
  for (size_t I : Order) {
    LmemBuffer &B = Bufs[I];
    int64_t Size = (B.Bytes + Align - 1) / Align * Align;
    // Candidate addresses: 0 and the ends of the placed buffers alive at
    // the same time; take the lowest that fits.
    std::vector<int64_t> Cands{0};
    for (size_t P : Placed)
      if (timeOverlap(Bufs[P], B))
        Cands.push_back((Bufs[P].Offset + Bufs[P].Bytes + Align - 1) / Align *
                        Align);
    std::sort(Cands.begin(), Cands.end());
    int64_t Found = -1;
    for (int64_t C : Cands) {
      if (BankBytes > 0 && Size <= BankBytes &&
          C / BankBytes != (C + Size - 1) / BankBytes)
        C = (C / BankBytes + 1) * BankBytes;
      bool Clash = false;
      for (size_t P : Placed) {
        const LmemBuffer &Q = Bufs[P];
        if (timeOverlap(Q, B) && C < Q.Offset + Q.Bytes && Q.Offset < C + Size) {
          Clash = true;
          break;
        }
      }
      if (!Clash) {
        Found = C;
        break;
      }
    }
    B.Offset = Found;
    Placed.push_back(I);
    Top = std::max(Top, Found + Size);
    if (Found + Size > Capacity)
      Ok = false;
  }
  if (Peak)
    *Peak = Top;
  return Ok;
}

// --- Costs ------------------------------------------------------------------

namespace {

struct CostModel {
  const bangsim::DeviceSpec &S;
  int Cores;
  double gdramPerCycle() const {
    double BW = std::min(S.gdramCoreGBps, S.gdramGBps / std::max(1, Cores));
    return BW / S.clockGHz;
  }
  double dma(double Bytes, bool Gdram) const {
    if (Bytes <= 0)
      return 0;
    double Per = Gdram ? gdramPerCycle() : S.onchipGBps / S.clockGHz;
    return double(S.dmaLatencyCycles) + Bytes / Per;
  }
  double vec(int Class, double Elems) const {
    return std::max(1.0, Elems * 4 / S.vectorBytesPerCycle[Class]);
  }
  /// Float multiply-accumulates on the matrix unit (a quarter of the 16-bit
  /// rate).
  double mac(double Macs) const {
    return std::max(1.0, Macs / (S.macsPerCycle / 4));
  }
  double scalar(double Instr) const { return Instr / S.scalarIPC; }
};

/// Instructions per inner iteration of the plain loops of lg_ops.mlu (from
/// the simulator's scalar count; see docs/layergroup.md).
constexpr double ScalarPoolPerTap = 30;
constexpr double ScalarPerCall = 30;
/// Floats of one per-channel vector tile (lg_chan_op).
constexpr int64_t TileFloats = 4096;

bool vectorPool(const Layer &L) {
  return L.Kind == OpKind::SumPool ||
         (L.Kind == OpKind::MaxPool && std::isinf(L.Cmp) && L.Cmp < 0);
}

/// Columns of the window tile: (OW - 1) * SX + dilated kernel.
int64_t tileCols(const Layer &L, int64_t OW) {
  return (OW - 1) * L.SX + L.keffX();
}
/// Rows of the window tile for OR output rows.
int64_t tileRows(const Layer &L, int64_t OR) {
  return (OR - 1) * L.SY + L.keffY();
}
/// True if a window op may need a padded scratch tile (InW and OW: the
/// columns of its input and output slices).
bool needsTile(const Layer &L, int64_t InW, int64_t OW) {
  return L.PU || L.PD || L.PL || L.PR || tileCols(L, OW) != InW;
}
/// Per-channel vector operands (bias, alpha) applied with lg_chan_op.
bool usesChanTile(const Layer &L) {
  switch (L.Kind) {
  case OpKind::Conv:
  case OpKind::SumPool:
  case OpKind::Add:
    return !L.Bias.empty();
  case OpKind::Scale:
    return !L.Bias.empty() || !L.Alpha.empty();
  default:
    return false;
  }
}

/// Cycles of lg_chan_op over Px pixels of C channels.
double chanOpCycles(const CostModel &M, int64_t Px, int64_t C, int64_t TilePx) {
  int64_t Tp = std::max<int64_t>(1, std::min(Px, TilePx));
  double Build = 0;
  for (int64_t Have = 1; Have < Tp; Have *= 2)
    Build += M.vec(BANG_OP_MOVE, double(std::min(Have, Tp - Have) * C)) +
             M.scalar(ScalarPerCall);
  int64_t Chunks = (Px + Tp - 1) / Tp;
  return Build + M.vec(BANG_OP_MOVE, double(C)) +
         double(Chunks) *
             (M.vec(BANG_OP_ALU, double(Tp * C)) + M.scalar(ScalarPerCall));
}

/// Cycles of filling a window tile and copying the real rows in.
double tileCycles(const CostModel &M, int64_t R, int64_t P, int64_t C,
                  int64_t Rows, int64_t W) {
  return M.vec(BANG_OP_MOVE, double(R * P * C)) +
         M.dma(double(Rows * W * C * 4), false);
}

} // namespace

/// The slice shape of a layer for one item: output rows and columns, input
/// columns, output channels (the channels of its output slice), and whether
/// its window op copies into a scratch tile.
struct LayerSlice {
  int64_t OutRows = 1, OutCols = 1, InCols = 1, FT = 1;
  bool Tile = false;
};

/// Cycles of filling and copying the window tile of convolution \p L for
/// one image (0 without a tile).
static double windowTileCycles(const Net &N, const CostModel &M, const Layer &L,
                               const LayerSlice &S) {
  if (L.Kind != OpKind::Conv || !S.Tile)
    return 0;
  int64_t R = tileRows(L, S.OutRows), P = tileCols(L, S.OutCols);
  const Tensor &In = N.Tensors[L.Inputs[0]];
  return tileCycles(M, R, P, In.C, std::min(R, In.H), S.InCols);
}

/// Compute cycles of layer \p L for one item of NB images.
static double layerCompute(const Net &N, const CostModel &M, const Layer &L,
                           int64_t NB, const LayerSlice &S, int64_t TilePx) {
  const Tensor &In = N.Tensors[L.Inputs[0]];
  int64_t OutRows = S.OutRows, FT = S.FT;
  int64_t Px = OutRows * S.OutCols;
  double C = 0;
  switch (L.Kind) {
  case OpKind::Conv: {
    C += windowTileCycles(N, M, L, S);
    C += M.mac(double(Px * FT * L.KY * L.KX * In.C)) + M.scalar(ScalarPerCall);
    if (!L.Bias.empty())
      C += chanOpCycles(M, Px, FT, TilePx);
    break;
  }
  case OpKind::MaxPool:
  case OpKind::MinPool:
  case OpKind::SumPool:
    if (vectorPool(L)) {
      int64_t R = tileRows(L, OutRows), P = tileCols(L, S.OutCols);
      if (S.Tile)
        C += tileCycles(M, R, P, FT, std::min(R, In.H), S.InCols);
      C += M.vec(BANG_OP_REDUCE, double(Px * FT * L.KY * L.KX)) +
           M.scalar(ScalarPerCall);
      if (!L.Bias.empty())
        C += chanOpCycles(M, Px, FT, TilePx);
    } else {
      C += M.scalar(double(FT * Px) * (double(L.KY * L.KX) * ScalarPoolPerTap + 6));
    }
    break;
  case OpKind::Relu:
    C += M.vec(BANG_OP_ACT, double(FT * Px)) + M.scalar(ScalarPerCall);
    break;
  case OpKind::Clamp:
    C += M.scalar(double(FT * Px) * 8);
    break;
  case OpKind::Scale:
    C += M.vec(BANG_OP_MUL, double(FT * Px)) + M.scalar(ScalarPerCall);
    if (!L.Alpha.empty())
      C += chanOpCycles(M, Px, FT, TilePx);
    if (!L.Bias.empty())
      C += chanOpCycles(M, Px, FT, TilePx);
    break;
  case OpKind::Add:
    C += double(L.Inputs.size()) *
         (M.vec(BANG_OP_ALU, double(FT * Px)) + M.scalar(ScalarPerCall));
    if (!L.Bias.empty())
      C += chanOpCycles(M, Px, FT, TilePx);
    break;
  }
  return C * double(NB);
}

static int64_t weightElems(const Net &N, const Layer &L, int64_t FT) {
  if (L.Kind == OpKind::Conv)
    return FT * N.Tensors[L.Inputs[0]].C * L.KY * L.KX;
  return 0;
}
/// Bias and alpha elements: whole vectors, resident in NRAM.
static int64_t vecElems(const Layer &L) {
  return int64_t(L.Bias.size() + L.Alpha.size());
}

bool channelSliceable(const Net &N, const GroupInfo &G) {
  if (G.Outputs.size() != 1 || G.Outputs[0] != N.Layers[G.Last].Output ||
      N.Layers[G.First].Kind != OpKind::Conv)
    return false;
  for (int L = G.First + 1; L <= G.Last; ++L) {
    const Layer &Ly = N.Layers[L];
    switch (Ly.Kind) {
    case OpKind::Relu:
    case OpKind::Clamp:
    case OpKind::Scale:
    case OpKind::MaxPool:
    case OpKind::MinPool:
    case OpKind::SumPool:
      break;
    default:
      return false;
    }
    if (Ly.Inputs.size() != 1 || Ly.Inputs[0] != N.Layers[L - 1].Output)
      return false;
  }
  return true;
}

std::optional<GroupPlan>
planGroupWith(const Net &N, const bangsim::DeviceSpec &Spec, int64_t Batch,
              const GroupInfo &G, int NSecs, int HSecs, int WSecs, int FSecs,
              const PlanOptions &O, PlanError *Why) {
  auto fail = [&](PlanFailure K, std::string M) -> std::optional<GroupPlan> {
    if (Why)
      *Why = {K, std::move(M)};
    return std::nullopt;
  };
  GroupPlan P;
  P.Info = G;
  P.NSecs = NSecs, P.HSecs = HSecs, P.WSecs = WSecs, P.FSecs = FSecs;
  P.Batch = Batch;
  P.NB = (Batch + NSecs - 1) / NSecs;
  if (NSecs < 1 || NSecs > Batch || (NSecs - 1) * P.NB >= Batch)
    return fail(PlanFailure::BadSlicing, "bad N slicing");
  int64_t F = N.Tensors[G.finalTensor()].C;
  int64_t FT = F;
  if (FSecs > 1) {
    if (!channelSliceable(N, G))
      return fail(PlanFailure::NotChannelSliceable,
                  "output-channel slices are for a convolution followed by "
                  "channel-wise layers");
    FT = (F + FSecs - 1) / FSecs;
    if ((FSecs - 1) * FT >= F)
      return fail(PlanFailure::BadSlicing, "bad channel slicing");
    if (P.NB != 1)
      return fail(PlanFailure::ChannelSlicesOneImage,
                  "output-channel slices take one image per item");
  }
  P.Channels = F, P.SliceChannels = FT;
  std::optional<HSlicing> H = sliceH(N, G, HSecs, Why);
  if (!H)
    return std::nullopt;
  P.H = *H;
  std::optional<HSlicing> Wd = sliceW(N, G, WSecs, Why);
  if (!Wd)
    return std::nullopt;
  P.W = *Wd;
  P.Cores = std::min(P.items(), Spec.numCores());
  P.Clusters = Spec.clusters;
  CostModel M{Spec, P.Cores};
  int64_t InputBytes = 0; // the whole group inputs, all images
  for (int T : G.Inputs)
    InputBytes += Batch * N.Tensors[T].elements() * 4;

  int K = int(G.Layers.size());
  auto local = [&](int L) { return L - G.First; };
  auto computeTs = [&](int L) { return local(L) + 1; };
  int StoreTs = K + 1;
  P.Steps.assign(K + 2, TimeStep{});
  auto rowsCap = [&](int T) { return H->RowsCap[G.slot(T)]; };
  auto colsCap = [&](int T) { return Wd->RowsCap[G.slot(T)]; };
  auto chans = [&](int T) { return P.sliceChannels(N, T); };
  auto actBytes = [&](int T) { return P.sliceBytes(N, T); };
  // Output channels of a layer's slice (its weight tile).
  auto layerF = [&](int L) { return chans(N.Layers[L].Output); };
  auto lastUse = [&](int T) {
    int Last = -1;
    for (int C : N.Tensors[T].Consumers)
      if (C >= G.First && C <= G.Last)
        Last = std::max(Last, computeTs(C));
    return Last;
  };
  // Pixels per call of the per-channel vector ops: the largest output
  // slice of the group, at most TileFloats / channels.
  int64_t MaxPx = 1, MaxC = 1;
  for (int L : G.Layers) {
    int T = N.Layers[L].Output;
    MaxPx = std::max(MaxPx, rowsCap(T) * colsCap(T));
    if (usesChanTile(N.Layers[L]))
      MaxC = std::max(MaxC, chans(T));
  }
  P.TilePx = int(std::max<int64_t>(1, std::min(MaxPx, TileFloats / MaxC)));
  // A window op reads its slice in place when no padding is needed and the
  // slice is exactly its window; with W slices an input read by several
  // layers holds their hull, so it copies.
  auto layerSlice = [&](int L) {
    const Layer &Ly = N.Layers[L];
    int In0 = Ly.Inputs[0], T = Ly.Output;
    LayerSlice S{rowsCap(T), colsCap(T), colsCap(In0), chans(T), false};
    int Readers = 0;
    for (int C : N.Tensors[In0].Consumers)
      Readers += C >= G.First && C <= G.Last;
    S.Tile =
        Ly.windowed() && (Ly.Kind == OpKind::Conv || vectorPool(Ly)) &&
        (needsTile(Ly, S.InCols, S.OutCols) || (WSecs > 1 && Readers > 1)) &&
        !P.PaddedInputs.count(In0);
    return S;
  };
  // A group input read by one convolution alone, which pads it, is loaded
  // straight into that convolution's window tile (one image per item,
  // whole rows): its buffer is the tile, the padding columns are zeroed
  // once, and the convolution copies nothing.
  for (int T : G.Inputs) {
    int Reader = -1, Readers = 0;
    for (int C : N.Tensors[T].Consumers)
      if (C >= G.First && C <= G.Last)
        Reader = C, ++Readers;
    if (Readers != 1 || WSecs != 1 || P.NB != 1 ||
        N.Layers[Reader].Kind != OpKind::Conv || !layerSlice(Reader).Tile)
      continue;
    const Layer &Ly = N.Layers[Reader];
    if (Ly.PL + N.Tensors[T].W > tileCols(Ly, colsCap(Ly.Output)))
      continue;
    P.PaddedInputs[T] = Reader;
  }
  // Bytes of a group input's buffer: its slice, or the reader's tile.
  auto inputBufBytes = [&](int T) {
    auto It = P.PaddedInputs.find(T);
    if (It == P.PaddedInputs.end())
      return actBytes(T);
    const Layer &Ly = N.Layers[It->second];
    return N.Tensors[T].C * tileRows(Ly, rowsCap(Ly.Output)) *
           tileCols(Ly, colsCap(Ly.Output)) * 4;
  };

  std::vector<LmemBuffer> &B = P.Buffers;
  std::vector<LmemBuffer> &WB = P.WramBuffers;
  int OrderId = 0;
  // Group inputs.
  for (int T : G.Inputs) {
    int First = INT_MAX;
    for (int C : N.Tensors[T].Consumers)
      if (C >= G.First && C <= G.Last)
        First = std::min(First, local(C));
    int LoadTs = (P.pipelined() || P.inputsResident()) ? 0 : First;
    P.Steps[LoadTs].LoadTensors.push_back(T);
    bool Double = P.pipelined() && !P.inputsResident();
    for (int Copy = 0; Copy < (Double ? 2 : 1); ++Copy) {
      LmemBuffer Bu;
      Bu.K = LmemBuffer::Activation;
      Bu.Name = N.Tensors[T].Name + (Copy ? "'" : "");
      Bu.Tensor = T, Bu.Copy = Copy, Bu.Bytes = inputBufBytes(T);
      // A padded input's padding columns are zeroed once, in the prologue:
      // no other buffer may share its NRAM, before its load or after.
      bool Padded = P.PaddedInputs.count(T);
      Bu.Start = Padded ? 0 : LoadTs;
      Bu.End = (P.pipelined() || P.inputsResident() || Padded) ? TsInf : lastUse(T);
      Bu.Order = OrderId;
      B.push_back(Bu);
    }
    ++OrderId;
  }
  // Layers: weights (WRAM), per-channel vectors and scratch (NRAM), outputs.
  for (int L : G.Layers) {
    const Layer &Ly = N.Layers[L];
    int64_t WE = weightElems(N, Ly, layerF(L));
    if (WE > 0) {
      int LoadTs = (P.weightsResident() || FSecs > 1) ? 0 : local(L);
      P.Steps[LoadTs].LoadWeights.push_back(L);
      int Copies = (FSecs > 1 && P.pipelined()) ? 2 : 1;
      for (int Copy = 0; Copy < Copies; ++Copy) {
        LmemBuffer Bu;
        Bu.K = LmemBuffer::Weight;
        Bu.Name = Ly.Name + ".w" + (Copy ? "'" : "");
        Bu.Layer = L, Bu.Copy = Copy, Bu.Part = 0;
        Bu.Bytes = WE * 4;
        Bu.Start = LoadTs;
        Bu.End = (P.weightsResident() || FSecs > 1) ? TsInf : computeTs(L);
        Bu.Order = OrderId;
        WB.push_back(Bu);
      }
    }
    const int64_t Vecs[3] = {0, int64_t(Ly.Bias.size()),
                             int64_t(Ly.Alpha.size())};
    for (int Part = 1; Part < 3; ++Part) {
      if (Vecs[Part] == 0)
        continue;
      LmemBuffer Bu;
      Bu.K = LmemBuffer::Weight;
      Bu.Name = Ly.Name + (Part == 1 ? ".b" : ".a");
      Bu.Layer = L, Bu.Part = Part;
      Bu.Bytes = Vecs[Part] * 4;
      Bu.Start = 0, Bu.End = TsInf; // loaded once per core
      Bu.Order = OrderId;
      B.push_back(Bu);
    }
    int T = Ly.Output;
    if (layerSlice(L).Tile) {
      int64_t C = Ly.Kind == OpKind::Conv ? N.Tensors[Ly.Inputs[0]].C
                                          : chans(T);
      LmemBuffer Bu;
      Bu.K = LmemBuffer::Scratch;
      Bu.Name = Ly.Name + ".tile";
      Bu.Layer = L, Bu.Part = 0;
      Bu.Bytes = tileRows(Ly, rowsCap(T)) * tileCols(Ly, colsCap(T)) * C * 4;
      Bu.Start = Bu.End = computeTs(L);
      Bu.Order = OrderId;
      B.push_back(Bu);
    }
    if (usesChanTile(Ly)) {
      LmemBuffer Bu;
      Bu.K = LmemBuffer::Scratch;
      Bu.Name = Ly.Name + ".vtile";
      Bu.Layer = L, Bu.Part = 1;
      Bu.Bytes = int64_t(P.TilePx) * chans(T) * 4;
      Bu.Start = Bu.End = computeTs(L);
      Bu.Order = OrderId;
      B.push_back(Bu);
    }
    bool IsOut = G.isOutput(T);
    int St = P.pipelined() ? StoreTs : std::min(StoreTs, computeTs(L) + 1);
    if (IsOut)
      P.Steps[St].StoreTensors.push_back(T);
    int Copies = (IsOut && P.pipelined()) ? 2 : 1;
    int Start = (IsOut && P.pipelined()) ? 0 : computeTs(L);
    int End = (IsOut && P.pipelined())
                  ? TsInf
                  : std::max(lastUse(T), IsOut ? St : computeTs(L));
    // An element-wise layer whose input is produced in the group and read
    // by it alone works in place: its output takes the input's buffer(s),
    // whose lifetime grows to cover both.
    int In0 = Ly.Inputs.empty() ? -1 : Ly.Inputs[0];
    bool InPlace = (Ly.Kind == OpKind::Relu || Ly.Kind == OpKind::Clamp ||
                    Ly.Kind == OpKind::Scale) &&
                   Ly.Inputs.size() == 1 && G.computes(N, In0) &&
                   N.Tensors[In0].Consumers.size() == 1 && !G.isOutput(In0) &&
                   actBytes(In0) == actBytes(T);
    if (InPlace) {
      int Root = P.Alias.count(In0) ? P.Alias[In0] : In0;
      P.Alias[T] = Root;
      LmemBuffer *First = nullptr;
      bool HasCopy1 = false;
      for (LmemBuffer &Bu : B)
        if (Bu.K == LmemBuffer::Activation && Bu.Tensor == Root) {
          Bu.Start = std::min(Bu.Start, Start);
          Bu.End = std::max(Bu.End, End);
          Bu.Name += "=" + N.Tensors[T].Name;
          HasCopy1 |= Bu.Copy == 1;
          if (Bu.Copy == 0)
            First = &Bu;
        }
      if (Copies == 2 && !HasCopy1) {
        LmemBuffer Bu = *First;
        Bu.Copy = 1;
        Bu.Name += "'";
        B.push_back(Bu);
      }
    } else {
      for (int Copy = 0; Copy < Copies; ++Copy) {
        LmemBuffer Bu;
        Bu.K = LmemBuffer::Activation;
        Bu.Name = N.Tensors[T].Name + (Copy ? "'" : "");
        Bu.Tensor = T, Bu.Copy = Copy, Bu.Bytes = actBytes(T);
        Bu.Start = Start, Bu.End = End;
        Bu.Order = OrderId;
        B.push_back(Bu);
      }
    }
    P.Steps[computeTs(L)].Compute.push_back(L);
    ++OrderId;
  }

  // GDRAM traffic over all items, exact: what the emitted kernel copies.
  int64_t R = 0, W = 0;
  // Inputs: each item reads its rows, all channels; resident inputs (a
  // global group without N or H slices) once per core; staged in SRAM, the
  // whole inputs once per cluster.
  int64_t InputReads = P.inputsResident() ? P.Cores : FSecs;
  // A tile holds rows x columns, so over all tiles the pixels are the sum
  // of the rows of the H slices times the sum of the W slices' columns.
  auto sumOf = [&](const HSlicing &S, int T) {
    int64_t Sum = 0;
    for (const auto &Sl : S.Rows)
      Sum += Sl[G.slot(T)].size();
    return Sum;
  };
  for (int T : G.Inputs)
    R += N.Tensors[T].C * sumOf(*H, T) * sumOf(*Wd, T) * 4 * InputReads;
  for (int T : G.Outputs)
    W += N.Tensors[T].C * sumOf(*H, T) * sumOf(*Wd, T) * 4;
  R *= Batch;
  W *= Batch;
  // Parameters: per-channel vectors once per core; weights once per core
  // when resident, else once per change of channel slice along each core's
  // item range (one tile for an unsliced group of one item).
  int64_t VecBytes = 0, WeightBytesF = 0; // per core; a whole layer's weights
  for (int L : G.Layers) {
    VecBytes += vecElems(N.Layers[L]) * 4;
    WeightBytesF += weightElems(N, N.Layers[L], N.Tensors[N.Layers[L].Output].C) * 4;
  }
  // Calls Load(item, first item of its phase?, channel slice) for each
  // weight tile core C loads: at each change of channel slice along its
  // items (a core keeps its tile from one phase to the next).
  auto forEachTileLoad = [&](int C, auto &&Load) {
    int Prev = -1;
    for (int Ph = 0; Ph < P.SramPhases; ++Ph)
      for (int It = P.itemBegin(C, Ph); It < P.itemEnd(C, Ph); ++It) {
        int Fi = P.itemF(It);
        if (Fi == Prev)
          continue;
        Prev = Fi;
        Load(It == P.itemBegin(C, Ph), Fi);
      }
  };
  auto tileBytes = [&](int64_t &Loads) {
    int64_t PerF = WeightBytesF / F, Bytes = 0; // per output channel
    Loads = 0;
    for (int C = 0; C < P.Cores; ++C)
      forEachTileLoad(C, [&](bool, int Fi) {
        ++Loads;
        Bytes += PerF * std::min(FT, F - Fi * FT);
      });
    return Bytes;
  };
  // SRAM staging of a global group's inputs, when the images fit and
  // inputs plus weight tiles read fewer GDRAM bytes than re-reading the
  // inputs once per channel slice. Per cluster (UNION1): each cluster
  // stages the images its items need; channel slices outermost, a cluster
  // needs every image but a core keeps its tile; image slices outermost
  // (batched), a cluster needs about Batch / clusters images but a core
  // reloads its tiles per image. Broadcast (all cores launched, one union
  // of all clusters): every image is read from GDRAM once, in phases of
  // the images that fit; a core keeps its tile across phases when its
  // share of each phase's items has one channel slice.
  int CPC = Spec.coresPerCluster;
  int Clusters = Spec.clusters;
  bool CanBroadcast =
      O.UseSram && O.SramBroadcast && Clusters > 1 && Clusters <= 8 &&
      llvm::isPowerOf2_32(unsigned(Clusters)) && P.Cores == Spec.numCores();
  if (O.UseSram && FSecs > 1 && P.Cores % CPC == 0) {
    int64_t Loads = 0, ImgBytes = InputBytes / Batch;
    int64_t Best = R + tileBytes(Loads); // direct
    struct Mode {
      bool NOuter, Broadcast;
      int Images, Phases;
    } BestMode{false, false, 0, 1};
    auto consider = [&](Mode Md, int64_t Reads) {
      P.Order = Md.NOuter ? ItemOrder::ImagesOuter : ItemOrder::ChannelsOuter;
      P.SramPhases = Md.Phases;
      int64_t Total = Reads + tileBytes(Loads);
      if (Md.Images * ImgBytes > Spec.sramBytes || Total >= Best)
        return;
      Best = Total, BestMode = Md, R = Reads;
    };
    for (bool NOuter : {false, true}) {
      if (NOuter && NSecs == 1)
        continue;
      P.Order = NOuter ? ItemOrder::ImagesOuter : ItemOrder::ChannelsOuter;
      P.SramPhases = 1;
      int64_t Reads = 0;
      int MaxImgs = 0;
      for (int K = 0; K < P.Cores / CPC; ++K) {
        auto [N0, N1] = P.clusterImages(K, CPC);
        MaxImgs = std::max(MaxImgs, N1 - N0 + 1);
        Reads += (N1 - N0 + 1) * ImgBytes;
      }
      consider({NOuter, false, MaxImgs, 1}, Reads);
    }
    if (CanBroadcast) {
      consider({false, true, int(Batch), 1}, InputBytes);
      for (int Imgs = 1; Imgs < NSecs; ++Imgs)
        if (NSecs % Imgs == 0)
          consider({true, true, Imgs, NSecs / Imgs}, InputBytes);
    }
    P.Order = BestMode.NOuter ? ItemOrder::ImagesOuter
                              : ItemOrder::ChannelsOuter;
    P.SramPhases = BestMode.Phases;
    P.InputStaging = BestMode.Images == 0 ? Staging::Direct
                     : BestMode.Broadcast ? Staging::SramPerChip
                                          : Staging::SramPerCluster;
    P.SramImages = BestMode.Images;
  }
  int64_t Wt = VecBytes * P.Cores;
  int64_t TileLoads = 0;
  if (FSecs > 1) {
    Wt += tileBytes(TileLoads);
  } else if (WeightBytesF > 0) {
    TileLoads = P.Cores;
    bool InSram = O.UseSram && P.weightsResident() && P.Cores % CPC == 0 &&
                  WeightBytesF <= Spec.sramBytes;
    P.WeightStaging = !InSram        ? Staging::Direct
                      : CanBroadcast ? Staging::SramPerChip
                                     : Staging::SramPerCluster;
    Wt += WeightBytesF * (P.sramBroadcast()   ? 1
                          : P.weightsInSram() ? P.Cores / CPC
                                              : P.Cores);
  }
  // A resident group's tiles re-read the halo rows and columns of their
  // inputs: staged in SRAM once per chip too (next to its weights), in
  // phases of the image slices that fit, each image is read from GDRAM once
  // and the halos come from SRAM.
  if (FSecs == 1 && P.weightsResident() && CanBroadcast &&
      O.StageResidentInputs && (P.sramBroadcast() || WeightBytesF == 0) &&
      R > InputBytes &&
      NSecs * P.NB == Batch) {
    int64_t Room = Spec.sramBytes - (P.weightsInSram() ? WeightBytesF : 0);
    int64_t SliceBytes = P.NB * (InputBytes / Batch);
    for (int Slices = NSecs; Slices >= 1 && !P.inputsInSram(); --Slices) {
      if (NSecs % Slices != 0 || Slices * SliceBytes > Room)
        continue;
      P.InputStaging = Staging::SramPerChip;
      P.Order = ItemOrder::ImagesOuter;
      P.SramImages = int(Slices * P.NB);
      P.SramPhases = NSecs / Slices;
      R = InputBytes;
    }
  }
  // A core whose items all share one channel slice loads one tile and
  // never prefetches another: no second weight buffer.
  if (FSecs > 1 && TileLoads == P.Cores)
    WB.erase(std::remove_if(WB.begin(), WB.end(),
                            [](const LmemBuffer &Bu) { return Bu.Copy == 1; }),
             WB.end());
  P.WeightTileLoads = TileLoads;
  P.WeightReadBytes = Wt;
  P.ReadBytes = R + Wt, P.WriteBytes = W;

  // Step costs for the largest slice.
  for (int L : G.Layers) {
    TimeStep &S = P.Steps[computeTs(L)];
    LayerSlice Sl = layerSlice(L);
    S.ComputeCycles = layerCompute(N, M, N.Layers[L], P.NB, Sl, P.TilePx);
    S.SyncCopy |= Sl.Tile;
  }
  // A pipelined item of one image makes the window tile of a convolution
  // computed first before it queues its stores and loads (see Codegen).
  if (P.pipelined() && P.NB == 1) {
    TimeStep &S1 = P.Steps[1];
    int L = S1.Compute.front();
    S1.TileFirstCycles = windowTileCycles(N, M, N.Layers[L], layerSlice(L));
  }
  auto weightLoadCycles = [&](int L) {
    return M.dma(double(weightElems(N, N.Layers[L], layerF(L)) * 4), true);
  };
  // A global group reloads its tile only when the channel slice changes:
  // the share of items that load one (pipelined, the tile loads are costed
  // per core below instead).
  double TileShare = FSecs == 1    ? 1.0
                     : P.pipelined() ? 0.0
                                   : double(TileLoads) / P.items();
  for (TimeStep &S : P.Steps) {
    if (!P.inputsResident())
      for (int T : S.LoadTensors)
        S.DmaCycles += M.dma(double(actBytes(T)), !P.inputsInSram());
    for (int T : S.StoreTensors)
      S.DmaCycles += M.dma(double(actBytes(T)), true);
    if (!P.weightsResident())
      for (int L : S.LoadWeights)
        S.DmaCycles += TileShare * weightLoadCycles(L);
  }
  // The w4 correction: a weight load moves to an earlier step while that
  // step's compute hides it.
  if (!P.weightsResident() && FSecs == 1) {
    for (int Ts = 2; Ts < int(P.Steps.size()); ++Ts) {
      std::vector<int> Keep;
      for (int L : P.Steps[Ts].LoadWeights) {
        int To = Ts;
        double C = weightLoadCycles(L);
        while (To > 1 && !P.Steps[To - 1].SyncCopy &&
               P.Steps[To - 1].ComputeCycles >= P.Steps[To - 1].DmaCycles + C)
          --To;
        if (To == Ts) {
          Keep.push_back(L);
          continue;
        }
        P.Steps[To].LoadWeights.push_back(L);
        P.Steps[To].DmaCycles += C;
        P.Steps[Ts].DmaCycles -= C;
        for (LmemBuffer &Bu : WB)
          if (Bu.Layer == L)
            Bu.Start = To;
      }
      P.Steps[Ts].LoadWeights = Keep;
    }
  }

  int64_t Cap = Spec.nramBytes - O.ReserveBytes;
  if (!allocateLmem(B, Cap, Spec.nramBanks, true, &P.PeakBytes))
    return fail(PlanFailure::NramFull,
                fmt::format("needs {} bytes of NRAM, has {}", P.PeakBytes, Cap));
  // WRAM also stages the per-channel vectors in the prologue (before any
  // weight is loaded), so it must hold the largest one.
  int64_t MaxVec = P.maxVectorBytes(N);
  if (!allocateLmem(WB, Spec.wramBytes, 0, P.weightsResident(), &P.WramPeakBytes) ||
      MaxVec > Spec.wramBytes)
    return fail(PlanFailure::WramFull,
                fmt::format("needs {} bytes of WRAM, has {}",
                            std::max(P.WramPeakBytes, MaxVec), Spec.wramBytes));

  // Cycles: per item the sum over steps of max(compute, DMA); a pipelined
  // item hides its input loads and output stores behind its first compute.
  // A step that copies a window tile (a synchronous on-chip DMA) waits for
  // the loads and stores queued before it: its DMA and compute add up.
  // (One made before the step queues its DMA waits for nothing.)
  auto stepCycles = [&](const TimeStep &S, double Dma) {
    if (S.TileFirstCycles > 0)
      return S.TileFirstCycles +
             std::max(S.ComputeCycles - S.TileFirstCycles, Dma);
    return S.SyncCopy ? S.ComputeCycles + Dma : std::max(S.ComputeCycles, Dma);
  };
  // A core with one item per phase stores and loads nothing in ts1.
  int PhaseItems = P.items() / P.SramPhases;
  int Rounds = (PhaseItems + P.Cores - 1) / P.Cores;
  double FillDrain = P.Steps[0].DmaCycles + P.Steps.back().DmaCycles;
  double Item = 0;
  double Moved = Rounds > 1 ? FillDrain : 0;
  if (P.pipelined()) {
    for (int Ts = 1; Ts <= K; ++Ts)
      Item += stepCycles(P.Steps[Ts],
                         P.Steps[Ts].DmaCycles + (Ts == 1 ? Moved : 0));
  } else {
    for (const TimeStep &S : P.Steps)
      Item += stepCycles(S, S.DmaCycles);
  }
  // Staging Bytes in SRAM: per cluster, a core copies a quarter (of a
  // cluster's cores); broadcast, a core copies its share of the chip's
  // cores and sends it to every other cluster.
  auto stage = [&](double Bytes) {
    if (!P.sramBroadcast())
      return M.dma(Bytes / CPC, true);
    double Share = Bytes / Spec.numCores();
    return M.dma(Share, true) + (Clusters - 1) * M.dma(Share, false);
  };
  double Prologue = 0;
  for (int L : G.Layers)
    if (vecElems(N.Layers[L]) > 0)
      Prologue += M.dma(double(vecElems(N.Layers[L]) * 4), true) +
                  M.dma(double(vecElems(N.Layers[L]) * 4), false);
  if (P.weightsInSram())
    Prologue +=
        stage(double(WeightBytesF)) + M.dma(double(WeightBytesF), false);
  else if (P.weightsResident())
    for (int L : G.Layers)
      if (weightElems(N, N.Layers[L], layerF(L)) > 0)
        Prologue += weightLoadCycles(L);
  double Phase = 0; // per phase: staging, the items, pipeline fill and drain
  if (P.inputsInSram())
    Phase += stage(double(InputBytes / Batch * P.SramImages));
  if (P.inputsResident())
    for (int T : G.Inputs)
      Prologue += M.dma(double(actBytes(T)), !P.inputsInSram());
  for (auto [T, L] : P.PaddedInputs) // zero the padding columns once
    Prologue += (P.pipelined() && !P.inputsResident() ? 2 : 1) *
                M.vec(BANG_OP_MOVE, double(inputBufBytes(T) / 4));
  Phase += Rounds * Item + (P.pipelined() ? FillDrain : 0);
  // A pipelined global group's core loads a weight tile that the first
  // item of a phase needs before that item (unhidden) and prefetches each
  // later one in ts1 of the item before, beside that item's loads and
  // stores. The busiest core counts.
  double Tiles = 0;
  if (P.pipelined() && FSecs > 1) {
    double WL = weightLoadCycles(G.First);
    const TimeStep &S1 = P.Steps[1];
    double D1 = S1.DmaCycles + Moved;
    double Change = stepCycles(S1, D1 + WL) - stepCycles(S1, D1);
    for (int C = 0; C < P.Cores; ++C) {
      double Own = 0;
      forEachTileLoad(
          C, [&](bool PhaseStart, int) { Own += PhaseStart ? WL : Change; });
      Tiles = std::max(Tiles, Own);
    }
  }
  P.Cycles = Prologue + Tiles + P.SramPhases * Phase;
  // Staging a resident group's inputs reads fewer bytes but adds the
  // staging, unhidden: kept only if the objective says so.
  if (P.inputsInSram() && !P.global()) {
    PlanOptions Without = O;
    Without.StageResidentInputs = false;
    auto Alt =
        planGroupWith(N, Spec, Batch, G, NSecs, HSecs, WSecs, FSecs, Without);
    if (Alt && planObjective(*Alt, Spec, O) < planObjective(P, Spec, O))
      return Alt;
  }
  return P;
}

std::optional<GroupPlan>
planGroupWith(const Net &N, const bangsim::DeviceSpec &Spec, int64_t Batch,
              const GroupInfo &G, int NSecs, int HSecs, int WSecs, int FSecs,
              const PlanOptions &O, std::string *Why) {
  return withMessage(Why, [&](PlanError *E) {
    return planGroupWith(N, Spec, Batch, G, NSecs, HSecs, WSecs, FSecs, O, E);
  });
}

double planObjective(const GroupPlan &P, const bangsim::DeviceSpec &Spec,
                     const PlanOptions &O) {
  double W = O.TrafficWeight;
  if (const char *E = getenv("BANGC_LG_TRAFFIC_WEIGHT"))
    W = atof(E);
  double CyclesPerByte = Spec.clockGHz / Spec.gdramGBps;
  return P.Cycles + W * CyclesPerByte * double(P.ReadBytes + P.WriteBytes);
}

std::optional<GroupPlan> planGroup(const Net &N,
                                   const bangsim::DeviceSpec &Spec,
                                   int64_t Batch, int First, int Last,
                                   const PlanOptions &O, std::string *Why) {
  GroupInfo G = groupInfo(N, First, Last);
  std::optional<GroupPlan> Best;
  PlanError LastWhy;
  auto consider = [&](int NS, int HS, int WS, int FS) -> bool {
    PlanError W;
    auto P = planGroupWith(N, Spec, Batch, G, NS, HS, WS, FS, O, &W);
    if (!P) {
      LastWhy = W;
      return false;
    }
    if (!Best || planObjective(*P, Spec, O) < planObjective(*Best, Spec, O))
      Best = std::move(P);
    return true;
  };
  // N first, down to one image per slice.
  int64_t PrevNB = -1;
  for (int NS = 1; NS <= Batch; ++NS) {
    int64_t NB = (Batch + NS - 1) / NS;
    if (NB == PrevNB)
      continue;
    PrevNB = NB;
    consider(NS, 1, 1, 1);
  }
  // Then H.
  int64_t OH = G.Outputs.empty() ? 1 : N.Tensors[G.Outputs.back()].H;
  int MaxH = int(std::min<int64_t>(OH, O.MaxHSecs));
  for (int HS = 2; HS <= MaxH; ++HS) {
    int64_t Step = (OH + HS - 1) / HS;
    if ((HS - 1) * Step >= OH)
      continue;
    if (!consider(int(Batch), HS, 1, 1) &&
        LastWhy.Kind == PlanFailure::HDuplication)
      break;
  }
  // Then H x W tiles, for rows too wide to hold several of them: W slice
  // counts by doubling while the w/2 rule holds; per count the H slices
  // from 1 until a tile fits, the items fill the cores twice over and two
  // more counts were tried (more H slices only add halo rows).
  int64_t OW = G.Outputs.empty() ? 1 : N.Tensors[G.Outputs.back()].W;
  int Cores = Spec.numCores();
  for (int WS = 2; WS <= std::min<int64_t>(OW, O.MaxWSecs); WS *= 2) {
    if (!sliceW(N, G, WS))
      break;
    int Extra = -1;
    for (int HS = 1; HS <= MaxH && Extra < 2; ++HS) {
      int64_t Step = (OH + HS - 1) / HS;
      if (HS > 1 && (HS - 1) * Step >= OH)
        continue;
      bool Ok = consider(int(Batch), HS, WS, 1);
      if (!Ok && LastWhy.Kind == PlanFailure::HDuplication)
        break;
      if (Extra >= 0 || (Ok && Batch * HS * WS >= 2 * Cores))
        ++Extra;
    }
  }
  // A convolution followed by channel-wise layers may also slice its output
  // channels (a global group): fewer weights per core, each slice re-reads
  // the input. Every power-of-two count is tried, and per count the H
  // slices from 1 until the items fill the cores twice over.
  if (channelSliceable(N, G)) {
    int64_t F = N.Tensors[G.Outputs[0]].C;
    for (int FS = 2; FS <= std::min<int64_t>(F, O.MaxFSecs); FS *= 2) {
      bool Fit = false;
      for (int HS = 1; HS <= MaxH; ++HS) {
        int64_t Step = (OH + HS - 1) / HS;
        if (HS > 1 && (HS - 1) * Step >= OH)
          continue;
        bool Ok = consider(int(Batch), HS, 1, FS);
        if (!Ok && LastWhy.Kind == PlanFailure::HDuplication)
          break;
        Fit |= Ok;
        if (Fit && Batch * HS * FS >= 2 * Cores)
          break;
      }
    }
  }
  if (!Best && Why)
    *Why = LastWhy.Message;
  return Best;
}
Expected<NetPlan> planNet(const Net &N, const bangsim::DeviceSpec &Spec,
                          int64_t Batch, const PlanOptions &O) {
  auto T0 = std::chrono::steady_clock::now();
  int L = int(N.Layers.size());
  NetPlan R;
  if (L == 0)
    return R;
  const double Inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<std::optional<GroupPlan>>> GP(
      L, std::vector<std::optional<GroupPlan>>(L));
  for (int I = 0; I < L; ++I) {
    int MaxJ = O.LayerByLayer ? I : std::min(L - 1, I + O.MaxGroupLayers - 1);
    for (int J = I; J <= MaxJ; ++J) {
      std::string Why;
      GP[I][J] = planGroup(N, Spec, Batch, I, J, O, &Why);
      ++R.GroupEvaluations;
      if (getenv("BANGC_LG_DEBUG"))
        fprintf(stderr, "group %d..%d: %s\n", I, J,
                GP[I][J]
                    ? fmt::format("nsecs {} hsecs {} wsecs {} fsecs {} "
                                  "cycles {:.0f} peak {} wram {} bytes "
                                  "{} (weights {})",
                                  GP[I][J]->NSecs, GP[I][J]->HSecs,
                                  GP[I][J]->WSecs, GP[I][J]->FSecs,
                                  GP[I][J]->Cycles, GP[I][J]->PeakBytes,
                                  GP[I][J]->WramPeakBytes,
                                  GP[I][J]->ReadBytes + GP[I][J]->WriteBytes,
                                  GP[I][J]->WeightReadBytes)
                          .c_str()
                    : Why.c_str());
      if (!GP[I][J] && I == J)
        return createStringError(
            inconvertibleErrorCode(),
            fmt::format("layer group: layer '{}' does not fit in NRAM: {}",
                        N.Layers[I].Name, Why));
      // A longer group only needs more memory and duplicates more rows;
      // stop once a single-output group fails.
      if (!GP[I][J] && J > I && groupInfo(N, I, J).Outputs.size() == 1)
        break;
    }
  }
  std::vector<std::vector<double>> Cost(L, std::vector<double>(L, Inf));
  std::vector<std::vector<int>> Split(L, std::vector<int>(L, -1));
  for (int Len = 1; Len <= L; ++Len)
    for (int I = 0; I + Len - 1 < L; ++I) {
      int J = I + Len - 1;
      if (GP[I][J])
        Cost[I][J] = planObjective(*GP[I][J], Spec, O);
      for (int K = I; K < J; ++K) {
        double C = Cost[I][K] + Cost[K + 1][J];
        if (C < Cost[I][J]) {
          Cost[I][J] = C;
          Split[I][J] = K;
        }
      }
    }
  std::vector<std::pair<int, int>> Stack{{0, L - 1}}, Ranges;
  while (!Stack.empty()) {
    auto [I, J] = Stack.back();
    Stack.pop_back();
    if (Split[I][J] < 0) {
      Ranges.push_back({I, J});
      continue;
    }
    Stack.push_back({Split[I][J] + 1, J});
    Stack.push_back({I, Split[I][J]});
  }
  for (auto [I, J] : Ranges) {
    R.Groups.push_back(*GP[I][J]);
    R.Cycles += GP[I][J]->Cycles;
    R.ReadBytes += GP[I][J]->ReadBytes;
    R.WriteBytes += GP[I][J]->WriteBytes;
    R.WeightReadBytes += GP[I][J]->WeightReadBytes;
  }
  R.SearchSeconds = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - T0)
                        .count();
  return R;
}

std::string formatTimeSteps(const Net &N, const GroupPlan &P) {
  std::string S;
  for (size_t Ts = 0; Ts < P.Steps.size(); ++Ts) {
    const TimeStep &T = P.Steps[Ts];
    std::vector<std::string> Parts;
    for (int L : T.Compute)
      Parts.push_back("compute " + N.Layers[L].Name);
    for (int X : T.LoadTensors)
      Parts.push_back("load " + N.Tensors[X].Name);
    for (int L : T.LoadWeights)
      Parts.push_back("load weights " + N.Layers[L].Name +
                      (P.weightsResident() ? " (resident)" : ""));
    for (int X : T.StoreTensors)
      Parts.push_back("store " + N.Tensors[X].Name);
    std::string J;
    for (size_t I = 0; I < Parts.size(); ++I)
      J += (I ? "; " : "") + Parts[I];
    S += fmt::format("ts{}: {} [compute {:.0f}, dma {:.0f} cycles]\n", Ts,
                     J.empty() ? "-" : J, T.ComputeCycles, T.DmaCycles);
  }
  return S;
}

} // namespace bangc::lg
