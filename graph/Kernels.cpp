//===- Kernels.cpp - Reference semantics of compute task blocks ----------===//
#include "graph/Kernels.h"

#include "graph/BlockInfo.h"
#include "graph/BlockKind.h"
#include "graph/Precision.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

using namespace llvm;
using namespace bangc::taskir;

namespace bangc::graph {

namespace {

/// Arithmetic of the integer path: two's complement, wrapping.
struct IntOps {
  using T = int64_t;
  static T load(double V) { return int64_t(V); }
  static T add(T A, T B) { return int64_t(uint64_t(A) + uint64_t(B)); }
  static T mul(T A, T B) { return int64_t(uint64_t(A) * uint64_t(B)); }
  static double store(T V, Precision Out) {
    if (isFloatPrecision(Out))
      return roundToFloatPrecision(double(V), Out);
    return double(saturateInt(V, Out));
  }
};

/// Arithmetic of the real path.
struct RealOps {
  using T = double;
  static T load(double V) { return V; }
  static T add(T A, T B) { return A + B; }
  static T mul(T A, T B) { return A * B; }
  static double store(T V, Precision Out) {
    if (isFloatPrecision(Out))
      return roundToFloatPrecision(V, Out);
    return double(realToInt(V, Out));
  }
};

/// The per-f bias: an SB cluster, CONST_B, or zero.
std::vector<double> biasVector(const TaskBlock &B, const KernelArgs &A,
                               int64_t NF) {
  std::vector<InputRole> Roles = inputRoles(B);
  for (size_t I = 0; I < Roles.size(); ++I)
    if (Roles[I] == InputRole::Bias)
      return A.Clusters[I];
  double C = attrNumber(B, CONST_B).value_or(0.0);
  return std::vector<double>(NF, C);
}

bool useReal(const TaskBlock &B, const KernelArgs &A) {
  return isFloatPrecision(B.precision()) ||
         isFloatPrecision(A.DataPrecision) || attrIsFloat(B, CONST_A) ||
         attrIsFloat(B, CONST_B);
}

template <typename Ops>
std::vector<double> elementwise(const TaskBlock &B, const KernelArgs &A) {
  using T = typename Ops::T;
  Dims D = blockDims(B);
  int64_t NF = D[DF], N = D.volume();
  std::vector<double> Bias = biasVector(B, A, NF);
  std::vector<InputRole> Roles = inputRoles(B);
  std::vector<double> Out(N);
  Precision P = B.precision();
  T ConstA = Ops::load(attrNumber(B, CONST_A).value_or(0.0));
  for (int64_t O = 0; O < N; ++O) {
    int64_t F = O % NF;
    T Acc = Ops::load(Bias[F]);
    switch (kindOf(B)) {
    case BlockKind::CADD: // SO = bias + sum of the inputs (1x1 kernel)
      for (size_t I = 0; I < Roles.size(); ++I)
        if (Roles[I] == InputRole::Data)
          Acc = Ops::add(Acc, Ops::load(A.Clusters[I][O]));
      break;
    case BlockKind::CVVH: // SO = bias + SI * SI2
      Acc = Ops::add(Acc, Ops::mul(Ops::load(A.Clusters[0][O]),
                                   Ops::load(A.Clusters[1][O])));
      break;
    case BlockKind::CAX: // SO = bias + A[f] * SI
      Acc = Ops::add(Acc, Ops::mul(Ops::load(A.Clusters[1][F]),
                                   Ops::load(A.Clusters[0][O])));
      break;
    case BlockKind::CVS: // SO = bias + constant_a * SI
      Acc = Ops::add(Acc, Ops::mul(ConstA, Ops::load(A.Clusters[0][O])));
      break;
    case BlockKind::CAVG:
    case BlockKind::CVM:
    case BlockKind::CC:
    case BlockKind::CC2D:
    case BlockKind::CCMPB:
    case BlockKind::CCMPS:
    case BlockKind::CLUT:
    case BlockKind::CLIF:
#include "graph/StorageKindCases.inc"
      llvm_unreachable("not an elementwise block");
    }
    Out[O] = Ops::store(Acc, P);
  }
  return Out;
}

/// CAVG and CC/CC2D share the window loop of the seed:
///   SO[oy][ox][f] = bias[f] + sum over (r,) ky, kx of
///       SI[oy*sy + ky*dy - pad_up][ox*sx + kx*dx - pad_left][f or r] (* W)
/// Padded positions contribute zero.
template <typename Ops>
std::vector<double> window(const TaskBlock &B, const KernelArgs &A) {
  using T = typename Ops::T;
  Dims D = blockDims(B);
  KernelParams K = kernelParams(B);
  int64_t NY = D[DY], NX = D[DX], NF = D[DF], IY = D[DIY], IX = D[DIX];
  bool Conv = B.type() == CC || B.type() == CC2D;
  int64_t NR = Conv ? D[DR] : 1;
  const std::vector<double> &In = A.Clusters[0];
  const std::vector<double> *W = Conv ? &A.Clusters[1] : nullptr;
  std::vector<double> Bias = biasVector(B, A, NF);
  std::vector<double> Out(NY * NX * NF);
  for (int64_t OY = 0; OY < NY; ++OY)
    for (int64_t OX = 0; OX < NX; ++OX)
      for (int64_t F = 0; F < NF; ++F) {
        T Acc = Ops::load(Bias[F]);
        for (int64_t R = 0; R < NR; ++R)
          for (int64_t KY = 0; KY < K.KY; ++KY) {
            int64_t Y = OY * K.SY + KY * K.DY - K.PadUp;
            if (Y < 0 || Y >= IY)
              continue;
            for (int64_t KX = 0; KX < K.KX; ++KX) {
              int64_t X = OX * K.SX + KX * K.DX - K.PadLeft;
              if (X < 0 || X >= IX)
                continue;
              if (!Conv) {
                Acc = Ops::add(Acc, Ops::load(In[(Y * IX + X) * NF + F]));
                continue;
              }
              // Input [iy][ix][r]; weight [f][r][ky][kx].
              T V = Ops::load(In[(Y * IX + X) * NR + R]);
              T Wt = Ops::load((*W)[((F * NR + R) * K.KY + KY) * K.KX + KX]);
              Acc = Ops::add(Acc, Ops::mul(V, Wt));
            }
          }
        Out[(OY * NX + OX) * NF + F] = Ops::store(Acc, B.precision());
      }
  return Out;
}

/// CVM: SO[f] = bias[f] + sum_r W[f][r] * SI[r] (weight stored [nf][nr]).
template <typename Ops>
std::vector<double> vectorMatrix(const TaskBlock &B, const KernelArgs &A) {
  using T = typename Ops::T;
  Dims D = blockDims(B);
  int64_t NF = D[DF], NR = D[DR];
  std::vector<double> Bias = biasVector(B, A, NF);
  std::vector<double> Out(NF);
  for (int64_t F = 0; F < NF; ++F) {
    T Acc = Ops::load(Bias[F]);
    for (int64_t R = 0; R < NR; ++R)
      Acc = Ops::add(Acc, Ops::mul(Ops::load(A.Clusters[1][F * NR + R]),
                                   Ops::load(A.Clusters[0][R])));
    Out[F] = Ops::store(Acc, B.precision());
  }
  return Out;
}

/// CCMPB / CCMPS: SO = CMP, then max (min) over the window; padded
/// positions are skipped. CMP defaults to the lowest (highest) value of the
/// precision (-inf/+inf for floats).
std::vector<double> compare(const TaskBlock &B, const KernelArgs &A) {
  Dims D = blockDims(B);
  KernelParams K = kernelParams(B);
  bool Big = B.type() == CCMPB;
  Precision P = B.precision();
  double Init;
  if (std::optional<double> C = attrNumber(B, CMP))
    Init = *C;
  else if (isFloatPrecision(P))
    Init = Big ? -std::numeric_limits<double>::infinity()
               : std::numeric_limits<double>::infinity();
  else
    Init = double(Big ? precisionMin(P) : precisionMax(P));
  int64_t NY = D[DY], NX = D[DX], NF = D[DF], IY = D[DIY], IX = D[DIX];
  const std::vector<double> &In = A.Clusters[0];
  std::vector<double> Out(NY * NX * NF);
  for (int64_t OY = 0; OY < NY; ++OY)
    for (int64_t OX = 0; OX < NX; ++OX)
      for (int64_t F = 0; F < NF; ++F) {
        double V = Init;
        for (int64_t KY = 0; KY < K.KY; ++KY) {
          int64_t Y = OY * K.SY + KY - K.PadUp;
          if (Y < 0 || Y >= IY)
            continue;
          for (int64_t KX = 0; KX < K.KX; ++KX) {
            int64_t X = OX * K.SX + KX - K.PadLeft;
            if (X < 0 || X >= IX)
              continue;
            double S = In[(Y * IX + X) * NF + F];
            V = Big ? std::max(V, S) : std::min(V, S);
          }
        }
        Out[(OY * NX + OX) * NF + F] = RealOps::store(V, P);
      }
  return Out;
}

/// CLUT: SO = table[SI - min(input precision)].
Expected<std::vector<double>> lookup(const TaskBlock &B, const KernelArgs &A) {
  assert(A.Table && "CLUT without a table");
  int64_t Lo = precisionMin(A.DataPrecision);
  std::vector<double> Out(A.Clusters[0].size());
  for (size_t I = 0; I < Out.size(); ++I) {
    int64_t Idx = int64_t(A.Clusters[0][I]) - Lo;
    if (Idx < 0 || Idx >= int64_t(A.Table->size()))
      return createStringError(
          inconvertibleErrorCode(),
          fmt::format("{}: input value {} is outside the table",
                      describeBlock(B), A.Clusters[0][I]));
    Out[I] = (*A.Table)[Idx];
  }
  return Out;
}

/// CLIF, per neuron and time step t (docs/taskir.md "CLIF"):
///   V = DECAY * V + I[t] - V_LEAK    (floored for integer inputs)
///   spike = V >= V_TH
///   if spike: V = V_RESET (RESET_MODE 0) or V - V_TH (RESET_MODE 1)
///   SO[t] = spike ? 1 : 0
/// V starts at V_RESET.
std::vector<double> integrateAndFire(const TaskBlock &B, const KernelArgs &A) {
  double Th = attrNumber(B, V_TH).value_or(1.0);
  double Reset = attrNumber(B, V_RESET).value_or(0.0);
  double Leak = attrNumber(B, V_LEAK).value_or(0.0);
  double Decay = attrNumber(B, DECAY).value_or(1.0);
  bool Soft = attrNumber(B, RESET_MODE).value_or(0.0) == 1.0;
  bool IntMode = !isFloatPrecision(A.DataPrecision);
  const std::vector<double> &In = A.Clusters[0];
  std::vector<double> &V = *A.State;
  if (V.size() != In.size())
    V.assign(In.size(), Reset);
  std::vector<double> Out(In.size());
  for (size_t I = 0; I < In.size(); ++I) {
    double X = Decay * V[I] + In[I] - Leak;
    if (IntMode)
      X = std::floor(X);
    bool Spike = X >= Th;
    if (Spike)
      X = Soft ? X - Th : Reset;
    V[I] = X;
    Out[I] = Spike ? 1.0 : 0.0;
  }
  return Out;
}

template <template <typename> class Fn>
std::vector<double> dispatch(const TaskBlock &B, const KernelArgs &A) {
  return useReal(B, A) ? Fn<RealOps>::run(B, A) : Fn<IntOps>::run(B, A);
}
template <typename Ops> struct Elementwise {
  static std::vector<double> run(const TaskBlock &B, const KernelArgs &A) {
    return elementwise<Ops>(B, A);
  }
};
template <typename Ops> struct Window {
  static std::vector<double> run(const TaskBlock &B, const KernelArgs &A) {
    return window<Ops>(B, A);
  }
};
template <typename Ops> struct VectorMatrix {
  static std::vector<double> run(const TaskBlock &B, const KernelArgs &A) {
    return vectorMatrix<Ops>(B, A);
  }
};

} // namespace

Expected<std::vector<double>> runComputeBlock(const TaskBlock &B,
                                              const KernelArgs &A) {
  auto notCompute = [&] {
    return createStringError(inconvertibleErrorCode(),
                             describeBlock(B) + ": not a compute block");
  };
  std::optional<BlockKind> K = blockKind(B.type());
  if (!K)
    return notCompute();
  switch (*K) {
  case BlockKind::CADD:
  case BlockKind::CVVH:
  case BlockKind::CAX:
  case BlockKind::CVS:
    return dispatch<Elementwise>(B, A);
  case BlockKind::CAVG:
  case BlockKind::CC:
  case BlockKind::CC2D:
    return dispatch<Window>(B, A);
  case BlockKind::CVM:
    return dispatch<VectorMatrix>(B, A);
  case BlockKind::CCMPB:
  case BlockKind::CCMPS:
    return compare(B, A);
  case BlockKind::CLUT:
    return lookup(B, A);
  case BlockKind::CLIF:
    return integrateAndFire(B, A);
#include "graph/StorageKindCases.inc"
    return notCompute();
  }
  llvm_unreachable("a kind of BlockKinds.def");
}

} // namespace bangc::graph
