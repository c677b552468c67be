//===- Planner.cpp - LayerGroup planning ----------------------------------===//
#include "graph/layergroup/Planner.h"

#include <fmt/format.h>

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

static int tensorSlot(const GroupInfo &G, int T) {
  auto It = std::find(G.Tensors.begin(), G.Tensors.end(), T);
  return It == G.Tensors.end() ? -1 : int(It - G.Tensors.begin());
}

std::optional<HSlicing> sliceH(const Net &N, const GroupInfo &G, int HSecs,
                               std::string *Why) {
  auto fail = [&](std::string M) -> std::optional<HSlicing> {
    if (Why)
      *Why = std::move(M);
    return std::nullopt;
  };
  HSlicing S;
  S.HSecs = HSecs;
  size_t NT = G.Tensors.size();
  if (HSecs == 1) {
    std::vector<RowRange> All(NT);
    for (size_t I = 0; I < NT; ++I) {
      All[I] = {0, N.Tensors[G.Tensors[I]].H};
      S.RowsCap.push_back(All[I].size());
    }
    S.Rows.push_back(All);
    S.Step = G.Outputs.empty() ? 0 : N.Tensors[G.Outputs.back()].H;
    return S;
  }
  if (G.Outputs.size() != 1)
    return fail("H slicing needs a single group output");
  int Final = G.Outputs[0];
  int64_t OH = N.Tensors[Final].H;
  int64_t Step = (OH + HSecs - 1) / HSecs;
  if (HSecs > OH || (HSecs - 1) * Step >= OH)
    return fail(fmt::format("{} H slices of {} rows leave a slice empty",
                            HSecs, OH));
  S.Step = Step;
  S.RowsCap.assign(NT, 0);
  for (int Sl = 0; Sl < HSecs; ++Sl) {
    std::vector<RowRange> Req(NT, RowRange{0, 0});
    std::vector<bool> Set(NT, false);
    int FS = tensorSlot(G, Final);
    Req[FS] = {Sl * Step, std::min(OH, (Sl + 1) * Step)};
    Set[FS] = true;
    for (int L = G.Last; L >= G.First; --L) {
      const Layer &Ly = N.Layers[L];
      int OS = tensorSlot(G, Ly.Output);
      if (!Set[OS])
        return fail(fmt::format("layer {} does not feed the group output",
                                Ly.Name));
      for (int In : Ly.Inputs) {
        int IS = tensorSlot(G, In);
        RowRange R = backwardH(Ly, Req[OS], N.Tensors[In].H);
        if (!Set[IS])
          Req[IS] = R, Set[IS] = true;
        else
          Req[IS] = {std::min(Req[IS].Lo, R.Lo), std::max(Req[IS].Hi, R.Hi)};
      }
    }
    for (size_t I = 0; I < NT; ++I) {
      if (Req[I].size() == 0)
        return fail("a slice needs no rows of some tensor");
      S.RowsCap[I] = std::max(S.RowsCap[I], Req[I].size());
    }
    S.Rows.push_back(std::move(Req));
  }
  // The h/2 rule bounds recomputation inside a group; a single (global)
  // layer recomputes nothing, its halos are only re-read.
  for (size_t I = 0; I < NT && G.Layers.size() > 1; ++I) {
    std::vector<RowRange> Col;
    for (auto &R : S.Rows)
      Col.push_back(R[I]);
    const Tensor &T = N.Tensors[G.Tensors[I]];
    if (!duplicationOk(T.H, Col))
      return fail(fmt::format("h/2 rule: {} H slices duplicate more than "
                              "half of the {} rows of '{}'",
                              HSecs, T.H, T.Name));
  }
  return S;
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
  double scalar(double Instr) const { return Instr / S.scalarIPC; }
};

/// Instructions per inner iteration of the plain loops of lg_ops.mlu (from
/// the simulator's scalar count; see docs/layergroup.md).
constexpr double ScalarConvPerMac = 26;
constexpr double ScalarPoolPerTap = 30;
constexpr double ScalarPerCall = 30;

bool vectorConv(const Layer &L) {
  return L.Kind == OpKind::Conv && L.SY == 1 && L.SX == 1;
}
bool needsPad(const Layer &L) {
  return L.PU || L.PD || L.PL || L.PR;
}

} // namespace

/// Compute cycles of layer \p L for one item: NB images, OutRows output
/// rows, FT output channels.
static double layerCompute(const Net &N, const CostModel &M, const Layer &L,
                           int64_t NB, int64_t OutRows, int64_t FT) {
  const Tensor &In = N.Tensors[L.Inputs[0]];
  const Tensor &Out = N.Tensors[L.Output];
  double C = 0;
  switch (L.Kind) {
  case OpKind::Conv: {
    if (vectorConv(L)) {
      int64_t P = L.PL + In.W + L.PR;
      int64_t R = OutRows - 1 + L.keffY();
      int64_t Len = (OutRows - 1) * P + Out.W;
      if (needsPad(L))
        C += M.vec(BANG_OP_MOVE, double(In.C * R * P)) +
             In.C * M.dma(double(OutRows * In.W * 4), false);
      double PerF = M.vec(BANG_OP_MOVE, double(Len)) +
                    double(In.C * L.KY * L.KX) *
                        (M.vec(BANG_OP_MUL, double(Len)) +
                         M.scalar(ScalarPerCall)) +
                    M.dma(double(OutRows * Out.W * 4), false);
      C += double(FT) * PerF;
    } else {
      C += M.scalar(double(FT * OutRows * Out.W) *
                    (double(In.C * L.KY * L.KX) * ScalarConvPerMac + 10));
    }
    break;
  }
  case OpKind::MaxPool:
  case OpKind::MinPool:
  case OpKind::SumPool:
    C += M.scalar(double(Out.C * OutRows * Out.W) *
                  (double(L.KY * L.KX) * ScalarPoolPerTap + 6));
    break;
  case OpKind::Relu: // one call when the slices line up
    C += M.vec(BANG_OP_ACT, double(Out.C * OutRows * Out.W)) +
         M.scalar(ScalarPerCall);
    break;
  case OpKind::Clamp:
    C += M.scalar(double(Out.C * OutRows * Out.W) * 8);
    break;
  case OpKind::Scale:
    C += double(Out.C) * (2 * M.vec(BANG_OP_MUL, double(OutRows * Out.W)) +
                          M.scalar(ScalarPerCall));
    break;
  case OpKind::Add:
    C += double(Out.C) * double(L.Inputs.size()) *
         (M.vec(BANG_OP_ALU, double(OutRows * Out.W)) + M.scalar(ScalarPerCall));
    break;
  }
  return C * double(NB);
}

static int64_t weightElems(const Net &N, const Layer &L, int64_t FT) {
  if (L.Kind == OpKind::Conv)
    return FT * N.Tensors[L.Inputs[0]].C * L.KY * L.KX;
  return 0;
}
static int64_t biasElems(const Net &N, const Layer &L, int64_t FT) {
  (void)N;
  return L.Bias.empty() ? 0 : FT;
}
static int64_t alphaElems(const Layer &L) { return int64_t(L.Alpha.size()); }
static int64_t paramElems(const Net &N, const Layer &L, int64_t FT) {
  return weightElems(N, L, FT) + biasElems(N, L, FT) + alphaElems(L);
}

std::optional<GroupPlan> planGroupWith(const Net &N,
                                       const bangsim::DeviceSpec &Spec,
                                       int64_t Batch, const GroupInfo &G,
                                       int NSecs, int HSecs, int FSecs,
                                       const PlanOptions &O,
                                       std::string *Why) {
  auto fail = [&](std::string M) -> std::optional<GroupPlan> {
    if (Why)
      *Why = std::move(M);
    return std::nullopt;
  };
  GroupPlan P;
  P.Info = G;
  P.NSecs = NSecs, P.HSecs = HSecs, P.FSecs = FSecs, P.Batch = Batch;
  P.NB = (Batch + NSecs - 1) / NSecs;
  if (NSecs < 1 || NSecs > Batch || (NSecs - 1) * P.NB >= Batch)
    return fail("bad N slicing");
  int64_t F = N.Tensors[G.Outputs.empty() ? G.Tensors.back() : G.Outputs[0]].C;
  int64_t FT = F;
  if (FSecs > 1) {
    if (G.Layers.size() != 1 || N.Layers[G.First].Kind != OpKind::Conv)
      return fail("output-channel slices are for a single convolution");
    FT = (F + FSecs - 1) / FSecs;
    if ((FSecs - 1) * FT >= F)
      return fail("bad channel slicing");
  }
  std::optional<HSlicing> H = sliceH(N, G, HSecs, Why);
  if (!H)
    return std::nullopt;
  P.H = *H;
  P.Items = NSecs * HSecs * FSecs;
  P.Cores = std::min(P.Items, Spec.numCores());
  P.Pipelined = P.Items > P.Cores;
  P.Resident = NSecs * HSecs > 1 && FSecs == 1;
  CostModel M{Spec, P.Cores};

  int K = int(G.Layers.size());
  auto local = [&](int L) { return L - G.First; };
  auto computeTs = [&](int L) { return local(L) + 1; };
  int StoreTs = K + 1;
  P.Steps.assign(K + 2, TimeStep{});
  auto rowsCap = [&](int T) { return H->RowsCap[tensorSlot(G, T)]; };
  auto chans = [&](int T) {
    return (FSecs > 1 && T == N.Layers[G.First].Output) ? FT : N.Tensors[T].C;
  };
  auto actBytes = [&](int T) {
    return P.NB * chans(T) * rowsCap(T) * N.Tensors[T].W * 4;
  };
  auto lastUse = [&](int T) {
    int Last = -1;
    for (int C : N.Tensors[T].Consumers)
      if (C >= G.First && C <= G.Last)
        Last = std::max(Last, computeTs(C));
    return Last;
  };
  std::vector<LmemBuffer> &B = P.Buffers;
  int OrderId = 0;
  // Group inputs.
  for (int T : G.Inputs) {
    int First = INT_MAX;
    for (int C : N.Tensors[T].Consumers)
      if (C >= G.First && C <= G.Last)
        First = std::min(First, local(C));
    int LoadTs = P.Pipelined ? 0 : First;
    P.Steps[LoadTs].LoadTensors.push_back(T);
    for (int Copy = 0; Copy < (P.Pipelined ? 2 : 1); ++Copy) {
      LmemBuffer Bu;
      Bu.K = LmemBuffer::Activation;
      Bu.Name = N.Tensors[T].Name + (Copy ? "'" : "");
      Bu.Tensor = T, Bu.Copy = Copy, Bu.Bytes = actBytes(T);
      Bu.Start = P.Pipelined ? 0 : LoadTs;
      Bu.End = P.Pipelined ? TsInf : lastUse(T);
      Bu.Order = OrderId;
      B.push_back(Bu);
    }
    ++OrderId;
  }
  // Layers: weights, scratch, outputs.
  for (int L : G.Layers) {
    const Layer &Ly = N.Layers[L];
    int64_t PE = paramElems(N, Ly, FT);
    if (PE > 0) {
      int LoadTs = (P.Resident || FSecs > 1) ? 0 : local(L);
      P.Steps[LoadTs].LoadWeights.push_back(L);
      int Copies = (FSecs > 1 && P.Pipelined) ? 2 : 1;
      const int64_t Parts[3] = {weightElems(N, Ly, FT), biasElems(N, Ly, FT),
                                alphaElems(Ly)};
      for (int Copy = 0; Copy < Copies; ++Copy)
        for (int Part = 0; Part < 3; ++Part) {
          if (Parts[Part] == 0)
            continue;
          LmemBuffer Bu;
          Bu.K = LmemBuffer::Weight;
          Bu.Name = Ly.Name + (Part == 0 ? ".w" : Part == 1 ? ".b" : ".a") +
                    (Copy ? "'" : "");
          Bu.Layer = L, Bu.Copy = Copy, Bu.Part = Part;
          Bu.Bytes = Parts[Part] * 4;
          Bu.Start = LoadTs;
          Bu.End = (P.Resident || (FSecs > 1 && P.Pipelined)) ? TsInf
                                                              : computeTs(L);
          Bu.Order = OrderId;
          B.push_back(Bu);
        }
    }
    if (vectorConv(Ly)) {
      const Tensor &In = N.Tensors[Ly.Inputs[0]];
      const Tensor &Out = N.Tensors[Ly.Output];
      int64_t OR = rowsCap(Ly.Output);
      int64_t Pp = Ly.PL + In.W + Ly.PR;
      if (needsPad(Ly)) {
        LmemBuffer Bu;
        Bu.K = LmemBuffer::Scratch;
        Bu.Name = Ly.Name + ".pad";
        Bu.Layer = L, Bu.Part = 0;
        Bu.Bytes = In.C * (OR - 1 + Ly.keffY()) * Pp * 4;
        Bu.Start = Bu.End = computeTs(L);
        Bu.Order = OrderId;
        B.push_back(Bu);
      }
      LmemBuffer Bu;
      Bu.K = LmemBuffer::Scratch;
      Bu.Name = Ly.Name + ".acc";
      Bu.Layer = L, Bu.Part = 1;
      Bu.Bytes = ((OR - 1) * Pp + Out.W) * 4;
      Bu.Start = Bu.End = computeTs(L);
      Bu.Order = OrderId;
      B.push_back(Bu);
    }
    int T = Ly.Output;
    bool IsOut = std::find(G.Outputs.begin(), G.Outputs.end(), T) !=
                 G.Outputs.end();
    int St = P.Pipelined ? StoreTs : std::min(StoreTs, computeTs(L) + 1);
    if (IsOut)
      P.Steps[St].StoreTensors.push_back(T);
    for (int Copy = 0; Copy < ((IsOut && P.Pipelined) ? 2 : 1); ++Copy) {
      LmemBuffer Bu;
      Bu.K = LmemBuffer::Activation;
      Bu.Name = N.Tensors[T].Name + (Copy ? "'" : "");
      Bu.Tensor = T, Bu.Copy = Copy, Bu.Bytes = actBytes(T);
      if (IsOut && P.Pipelined) {
        Bu.Start = 0, Bu.End = TsInf;
      } else {
        Bu.Start = computeTs(L);
        Bu.End = std::max(lastUse(T), IsOut ? St : computeTs(L));
      }
      Bu.Order = OrderId;
      B.push_back(Bu);
    }
    P.Steps[computeTs(L)].Compute.push_back(L);
    ++OrderId;
  }

  // Step costs for the largest slice.
  for (int L : G.Layers)
    P.Steps[computeTs(L)].ComputeCycles =
        layerCompute(N, M, N.Layers[L], P.NB, rowsCap(N.Layers[L].Output),
                     FSecs > 1 ? FT : N.Tensors[N.Layers[L].Output].C);
  auto weightLoadCycles = [&](int L) {
    return M.dma(double(paramElems(N, N.Layers[L], FT) * 4), true);
  };
  for (TimeStep &S : P.Steps) {
    for (int T : S.LoadTensors)
      S.DmaCycles += double(P.NB) * M.dma(double(actBytes(T)) / P.NB, true);
    for (int T : S.StoreTensors)
      S.DmaCycles += double(P.NB) * M.dma(double(actBytes(T)) / P.NB, true);
    if (!P.Resident)
      for (int L : S.LoadWeights)
        S.DmaCycles += weightLoadCycles(L);
  }
  // The w4 correction: a weight load moves to an earlier step while that
  // step's compute hides it.
  if (!P.Resident && FSecs == 1) {
    for (int Ts = 2; Ts < int(P.Steps.size()); ++Ts) {
      std::vector<int> Keep;
      for (int L : P.Steps[Ts].LoadWeights) {
        int To = Ts;
        double C = weightLoadCycles(L);
        while (To > 1 &&
               P.Steps[To - 1].ComputeCycles >= P.Steps[To - 1].DmaCycles + C)
          --To;
        if (To == Ts) {
          Keep.push_back(L);
          continue;
        }
        P.Steps[To].LoadWeights.push_back(L);
        P.Steps[To].DmaCycles += C;
        P.Steps[Ts].DmaCycles -= C;
        for (LmemBuffer &Bu : B)
          if (Bu.K == LmemBuffer::Weight && Bu.Layer == L)
            Bu.Start = To;
      }
      P.Steps[Ts].LoadWeights = Keep;
    }
  }

  int64_t Cap = Spec.nramBytes - O.ReserveBytes;
  if (!allocateLmem(B, Cap, Spec.nramBanks, P.Resident, &P.PeakBytes))
    return fail(fmt::format("needs {} bytes of NRAM, has {}", P.PeakBytes, Cap));

  // Cycles: per item the sum over steps of max(compute, DMA); a pipelined
  // item hides its input loads and output stores behind its first compute.
  double Item = 0;
  if (P.Pipelined) {
    double Moved = P.Steps[0].DmaCycles + P.Steps.back().DmaCycles;
    for (int Ts = 1; Ts <= K; ++Ts)
      Item += std::max(P.Steps[Ts].ComputeCycles,
                       P.Steps[Ts].DmaCycles + (Ts == 1 ? Moved : 0));
  } else {
    for (const TimeStep &S : P.Steps)
      Item += std::max(S.ComputeCycles, S.DmaCycles);
  }
  int Rounds = (P.Items + P.Cores - 1) / P.Cores;
  double Prologue = 0;
  if (P.Resident)
    for (int L : G.Layers)
      if (paramElems(N, N.Layers[L], FT) > 0)
        Prologue += weightLoadCycles(L);
  P.Cycles = Prologue + Rounds * Item +
             (P.Pipelined ? P.Steps[0].DmaCycles + P.Steps.back().DmaCycles
                          : 0);

  // GDRAM traffic over all items.
  int64_t R = 0, W = 0;
  for (int Sl = 0; Sl < HSecs; ++Sl) {
    for (int T : G.Inputs)
      R += N.Tensors[T].C * H->Rows[Sl][tensorSlot(G, T)].size() *
           N.Tensors[T].W * 4 * FSecs;
    for (int T : G.Outputs) {
      RowRange Rr = H->Rows[Sl][tensorSlot(G, T)];
      W += N.Tensors[T].C * Rr.size() * N.Tensors[T].W * 4;
    }
  }
  R *= Batch;
  W *= Batch;
  int64_t Params = 0;
  for (int L : G.Layers)
    Params += paramElems(N, N.Layers[L], F) * 4;
  if (FSecs > 1)
    R += Params * NSecs * HSecs;
  else if (P.Resident)
    R += Params * P.Cores;
  else
    R += Params;
  P.ReadBytes = R, P.WriteBytes = W;
  return P;
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
  std::string LastWhy;
  auto consider = [&](int NS, int HS, int FS) -> bool {
    std::string W;
    auto P = planGroupWith(N, Spec, Batch, G, NS, HS, FS, O, &W);
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
    consider(NS, 1, 1);
  }
  // Then H.
  int64_t OH = G.Outputs.empty() ? 1 : N.Tensors[G.Outputs.back()].H;
  int MaxH = int(std::min<int64_t>(OH, O.MaxHSecs));
  for (int HS = 2; HS <= MaxH; ++HS) {
    int64_t Step = (OH + HS - 1) / HS;
    if ((HS - 1) * Step >= OH)
      continue;
    if (!consider(int(Batch), HS, 1) && LastWhy.find("h/2") != std::string::npos)
      break;
  }
  // A single convolution that does not fit: a global layer with output
  // channel slices.
  if (!Best && G.Layers.size() == 1 &&
      N.Layers[First].Kind == OpKind::Conv) {
    int64_t F = N.Tensors[N.Layers[First].Output].C;
    for (int FS = 2; FS <= F; FS *= 2)
      for (int HS = 1; HS <= MaxH; ++HS) {
        int64_t Step = (OH + HS - 1) / HS;
        if (HS > 1 && (HS - 1) * Step >= OH)
          continue;
        consider(int(Batch), HS, FS);
      }
  }
  if (!Best && Why)
    *Why = LastWhy;
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
                GP[I][J] ? fmt::format("nsecs {} hsecs {} fsecs {} cycles "
                                       "{:.0f} peak {}",
                                       GP[I][J]->NSecs, GP[I][J]->HSecs,
                                       GP[I][J]->FSecs, GP[I][J]->Cycles,
                                       GP[I][J]->PeakBytes)
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
                      (P.Resident ? " (resident)" : ""));
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
