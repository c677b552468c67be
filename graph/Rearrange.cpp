//===- Rearrange.cpp - Edge data rearrangements --------------------------===//
#include "graph/Rearrange.h"

#include "graph/Dims.h"
#include "graph/Precision.h"

#include "llvm/ADT/STLExtras.h"

#include <fmt/format.h>

#include <cmath>
#include <numeric>

using namespace llvm;
using namespace bangc::taskir;

namespace bangc::graph {

namespace {

Error bad(const Rearrange &R, const std::string &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           fmt::format("{}: {}", rearrangeName(R.type()), Msg));
}

/// Upper bound on the elements one rearrangement may produce (guards
/// against absurd parameters allocating gigabytes).
constexpr int64_t MaxElements = int64_t(1) << 28;

int64_t volume(ArrayRef<int64_t> S) {
  int64_t N = 1;
  for (int64_t D : S)
    N *= D;
  return N;
}

std::vector<int64_t> strides(ArrayRef<int64_t> S) {
  std::vector<int64_t> St(S.size(), 1);
  for (int I = int(S.size()) - 2; I >= 0; --I)
    St[I] = St[I + 1] * S[I + 1];
  return St;
}

bool isIntegral(double V) {
  return std::isfinite(V) && V == std::floor(V) && std::fabs(V) < 1e15;
}

/// Reads params[I] as an integer.
Expected<int64_t> intParam(const Rearrange &R, int I, const char *What) {
  double V = R.params(I);
  if (!isIntegral(V))
    return bad(R, fmt::format("parameter {} ({}) must be an integer, got {}", I,
                              What, V));
  return int64_t(V);
}

Error checkAxis(const Rearrange &R, int64_t Axis, size_t Rank,
                const char *What) {
  if (Axis < 0 || Axis >= int64_t(Rank))
    return bad(R, fmt::format("{} {} is out of range for a rank-{} tensor",
                              What, Axis, Rank));
  return Error::success();
}

/// Parsed, checked parameters and output shape of one rearrangement.
struct Plan {
  std::vector<int64_t> Out;
  std::vector<int64_t> I; // integer parameters, meaning per type
  std::vector<double> F;  // real parameters (AFFINE, PROJECT)
};

Expected<std::vector<int64_t>> intParams(const Rearrange &R) {
  std::vector<int64_t> V;
  for (int I = 0; I < R.params_size(); ++I) {
    Expected<int64_t> P = intParam(R, I, "value");
    if (!P)
      return P.takeError();
    V.push_back(*P);
  }
  return V;
}

Error checkCount(const Rearrange &R, size_t Min, size_t Max) {
  size_t N = R.params_size();
  if (N >= Min && N <= Max)
    return Error::success();
  if (Min == Max)
    return bad(R, fmt::format("expects {} parameters, got {}", Min, N));
  return bad(R, fmt::format("expects {} to {} parameters, got {}", Min, Max, N));
}

Expected<Plan> planReshape(const Rearrange &R, ArrayRef<int64_t> In) {
  auto P = intParams(R);
  if (!P)
    return P.takeError();
  if (P->empty())
    return bad(R, "needs the new shape as parameters");
  int Infer = -1;
  int64_t Known = 1;
  for (size_t I = 0; I < P->size(); ++I) {
    int64_t D = (*P)[I];
    if (D == -1 && Infer < 0) {
      Infer = int(I);
      continue;
    }
    if (D < 1)
      return bad(R, fmt::format("dimension {} of the new shape is {}", I, D));
    if (Known > MaxElements / D)
      return bad(R, "new shape is too large");
    Known *= D;
  }
  int64_t N = volume(In);
  if (Infer >= 0) {
    if (N % Known)
      return bad(R, fmt::format("cannot infer the -1 dimension: {} elements "
                                "are not divisible by {}",
                                N, Known));
    (*P)[Infer] = N / Known;
    Known = N;
  }
  if (Known != N)
    return bad(R, fmt::format("new shape {} has {} elements but the input {} "
                              "has {}",
                              shapeStr(*P), Known, shapeStr(In), N));
  return Plan{*P, {}, {}};
}

Expected<Plan> planPermute(const Rearrange &R, ArrayRef<int64_t> In) {
  auto P = intParams(R);
  if (!P)
    return P.takeError();
  if (P->size() != In.size())
    return bad(R, fmt::format("permutation has {} entries but the input {} "
                              "has rank {}",
                              P->size(), shapeStr(In), In.size()));
  std::vector<bool> Seen(In.size(), false);
  std::vector<int64_t> Out;
  for (int64_t A : *P) {
    if (A < 0 || A >= int64_t(In.size()) || Seen[A])
      return bad(R, fmt::format("{} is not a permutation of 0..{}", shapeStr(*P),
                                In.size() - 1));
    Seen[A] = true;
    Out.push_back(In[A]);
  }
  return Plan{Out, *P, {}};
}

Expected<Plan> planShift(const Rearrange &R, ArrayRef<int64_t> In) {
  if (Error E = checkCount(R, 2, 3))
    return std::move(E);
  auto P = intParams(R);
  if (!P)
    return P.takeError();
  if (Error E = checkAxis(R, (*P)[0], In.size(), "axis"))
    return std::move(E);
  int64_t Mode = P->size() > 2 ? (*P)[2] : 0;
  if (Mode != 0 && Mode != 1)
    return bad(R, fmt::format("mode must be 0 (cyclic) or 1 (zero-fill), got "
                              "{}",
                              Mode));
  return Plan{std::vector<int64_t>(In), {(*P)[0], (*P)[1], Mode}, {}};
}

Error checkPlaneAxes(const Rearrange &R, int64_t A, int64_t B, size_t Rank) {
  if (Rank < 2)
    return bad(R, fmt::format("needs a tensor of rank >= 2, got rank {}", Rank));
  if (Error E = checkAxis(R, A, Rank, "axis"))
    return E;
  if (Error E = checkAxis(R, B, Rank, "axis"))
    return E;
  if (A == B)
    return bad(R, fmt::format("the two axes must differ (both {})", A));
  return Error::success();
}

Expected<Plan> planRotate(const Rearrange &R, ArrayRef<int64_t> In) {
  if (R.params_size() != 1 && R.params_size() != 3)
    return bad(R, fmt::format("expects [quarter_turns] or [quarter_turns, "
                              "axis_a, axis_b], got {} parameters",
                              R.params_size()));
  auto P = intParams(R);
  if (!P)
    return P.takeError();
  int64_t A = P->size() == 3 ? (*P)[1] : 0, B = P->size() == 3 ? (*P)[2] : 1;
  if (Error E = checkPlaneAxes(R, A, B, In.size()))
    return std::move(E);
  int64_t Q = (((*P)[0] % 4) + 4) % 4;
  std::vector<int64_t> Out(In);
  if (Q % 2)
    std::swap(Out[A], Out[B]);
  return Plan{Out, {Q, A, B}, {}};
}

Expected<Plan> planScale(const Rearrange &R, ArrayRef<int64_t> In) {
  auto P = intParams(R);
  if (!P)
    return P.takeError();
  if (P->empty() || P->size() > In.size())
    return bad(R, fmt::format("expects 1 to {} factors (one per leading axis), "
                              "got {}",
                              In.size(), P->size()));
  std::vector<int64_t> Out(In);
  for (size_t I = 0; I < P->size(); ++I) {
    int64_t S = (*P)[I];
    if (S == 0)
      return bad(R, fmt::format("factor for axis {} is 0", I));
    if (S > 0) {
      if (Out[I] > MaxElements / S)
        return bad(R, fmt::format("factor {} for axis {} is too large", S, I));
      Out[I] *= S;
      continue;
    }
    if (In[I] % -S)
      return bad(R, fmt::format("down-scaling axis {} of size {} by {} needs a "
                                "size divisible by the factor",
                                I, In[I], -S));
    Out[I] /= -S;
  }
  return Plan{Out, *P, {}};
}

Expected<Plan> planShear(const Rearrange &R, ArrayRef<int64_t> In) {
  if (R.params_size() != 2 && R.params_size() != 4)
    return bad(R, fmt::format("expects [a, b] or [a, b, axis0, axis1], got {} "
                              "parameters",
                              R.params_size()));
  auto P = intParams(R);
  if (!P)
    return P.takeError();
  int64_t A = (*P)[0], B = (*P)[1];
  int64_t X0 = P->size() == 4 ? (*P)[2] : 0, X1 = P->size() == 4 ? (*P)[3] : 1;
  if (Error E = checkPlaneAxes(R, X0, X1, In.size()))
    return std::move(E);
  if (A < 0 || B < 0)
    return bad(R, fmt::format("zero-fill shear needs a >= 0 and b >= 0, got "
                              "a={} b={}",
                              A, B));
  if (A * B == 1)
    return bad(R, "a = b = 1 makes the shear matrix singular");
  std::vector<int64_t> Out(In);
  Out[X0] = In[X0] + A * In[X1];
  Out[X1] = In[X1] + B * In[X0];
  if (volume(Out) > MaxElements)
    return bad(R, "sheared tensor is too large");
  return Plan{Out, {A, B, X0, X1}, {}};
}

Expected<Plan> planReflect(const Rearrange &R, ArrayRef<int64_t> In) {
  if (Error E = checkCount(R, 0, 1))
    return std::move(E);
  auto P = intParams(R);
  if (!P)
    return P.takeError();
  int64_t Axis = P->empty() ? 0 : (*P)[0];
  if (Error E = checkAxis(R, Axis, In.size(), "axis"))
    return std::move(E);
  return Plan{std::vector<int64_t>(In), {Axis}, {}};
}

Expected<Plan> planMatrix(const Rearrange &R, ArrayRef<int64_t> In,
                          size_t NCoef) {
  if (Error E = checkCount(R, NCoef, NCoef + 2))
    return std::move(E);
  if (R.params_size() == int(NCoef) + 1)
    return bad(R, fmt::format("output size needs both extents (got 1 of 2)"));
  if (In.size() < 2)
    return bad(R, fmt::format("needs a tensor of rank >= 2, got rank {}",
                              In.size()));
  std::vector<double> F(R.params().begin(), R.params().begin() + NCoef);
  for (size_t I = 0; I < NCoef; ++I)
    if (!std::isfinite(F[I]))
      return bad(R, fmt::format("coefficient {} is not finite", I));
  std::vector<int64_t> Out(In);
  if (R.params_size() == int(NCoef) + 2) {
    for (int K = 0; K < 2; ++K) {
      Expected<int64_t> E = intParam(R, NCoef + K, "output extent");
      if (!E)
        return E.takeError();
      if (*E < 1)
        return bad(R, fmt::format("output extent {} must be >= 1", *E));
      Out[K] = *E;
    }
    if (volume(Out) > MaxElements)
      return bad(R, "output is too large");
  }
  // Inverse of the 3x3 matrix [[a11 a12 b1] [a21 a22 b2] [a31 a32 b3]]
  // (AFFINE has the last row 0 0 1).
  double M[3][3] = {{F[0], F[1], F[2]}, {F[3], F[4], F[5]}, {0, 0, 1}};
  if (NCoef == 9)
    for (int J = 0; J < 3; ++J)
      M[2][J] = F[6 + J];
  double Det = M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) -
               M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
               M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
  if (std::fabs(Det) < 1e-12)
    return bad(R, "the transformation matrix is singular");
  std::vector<double> Inv(9);
  for (int I = 0; I < 3; ++I)
    for (int J = 0; J < 3; ++J) {
      // Cofactor of M[J][I] (transposed) over the determinant.
      int R0 = (J + 1) % 3, R1 = (J + 2) % 3, C0 = (I + 1) % 3, C1 = (I + 2) % 3;
      Inv[I * 3 + J] = (M[R0][C0] * M[R1][C1] - M[R0][C1] * M[R1][C0]) / Det;
    }
  return Plan{Out, {}, Inv};
}

Expected<Plan> planShuffle(const Rearrange &R, ArrayRef<int64_t> In) {
  auto P = intParams(R);
  if (!P)
    return P.takeError();
  if (P->empty())
    return bad(R, "expects [axis, p0, p1, ...]");
  int64_t Axis = (*P)[0];
  int64_t N = Axis == -1 ? volume(In) : 0;
  if (Axis != -1) {
    if (Error E = checkAxis(R, Axis, In.size(), "axis"))
      return std::move(E);
    N = In[Axis];
  }
  if (int64_t(P->size()) - 1 != N)
    return bad(R, fmt::format("permutation along axis {} needs {} entries, got "
                              "{}",
                              Axis, N, P->size() - 1));
  std::vector<bool> Seen(N, false);
  for (size_t I = 1; I < P->size(); ++I) {
    int64_t V = (*P)[I];
    if (V < 0 || V >= N || Seen[V])
      return bad(R, fmt::format("entries must be a permutation of 0..{} (entry "
                                "{} is {})",
                                N - 1, I - 1, V));
    Seen[V] = true;
  }
  return Plan{std::vector<int64_t>(In), *P, {}};
}

Expected<Plan> plan(const Rearrange &R, ArrayRef<int64_t> In) {
  for (int64_t D : In)
    if (D < 1)
      return bad(R, fmt::format("input shape {} has an empty dimension",
                                shapeStr(In)));
  switch (R.type()) {
  case IDENTITY:
    if (R.params_size())
      return bad(R, "takes no parameters");
    return Plan{std::vector<int64_t>(In), {}, {}};
  case RESHAPE:
    return planReshape(R, In);
  case PERMUTE:
    return planPermute(R, In);
  case SHIFT:
    return planShift(R, In);
  case ROTATE:
    return planRotate(R, In);
  case SCALE:
    return planScale(R, In);
  case SHEAR:
    return planShear(R, In);
  case REFLECT:
    return planReflect(R, In);
  case AFFINE:
    return planMatrix(R, In, 6);
  case PROJECT:
    return planMatrix(R, In, 9);
  case SHUFFLE:
    return planShuffle(R, In);
  default:
    return bad(R, "unknown or missing rearrangement type");
  }
}

/// Calls F(outIndex, multiIndex) for every output element in C order.
template <typename Fn> void forEachIndex(ArrayRef<int64_t> Shape, Fn F) {
  int64_t N = volume(Shape);
  std::vector<int64_t> Idx(Shape.size(), 0);
  for (int64_t Flat = 0; Flat < N; ++Flat) {
    F(Flat, Idx);
    for (int D = int(Shape.size()) - 1; D >= 0; --D) {
      if (++Idx[D] < Shape[D])
        break;
      Idx[D] = 0;
    }
  }
}

int64_t flatten(ArrayRef<int64_t> Idx, ArrayRef<int64_t> St) {
  int64_t F = 0;
  for (size_t I = 0; I < Idx.size(); ++I)
    F += Idx[I] * St[I];
  return F;
}

std::vector<int64_t> gather(const Rearrange &R, const Plan &P,
                            ArrayRef<int64_t> In) {
  std::vector<int64_t> Map(volume(P.Out), -1);
  std::vector<int64_t> St = strides(In);
  std::vector<int64_t> Src(In.size());
  switch (R.type()) {
  case IDENTITY:
  case RESHAPE:
    std::iota(Map.begin(), Map.end(), 0);
    break;
  case PERMUTE:
    forEachIndex(P.Out, [&](int64_t O, const std::vector<int64_t> &Idx) {
      for (size_t I = 0; I < Idx.size(); ++I)
        Src[P.I[I]] = Idx[I];
      Map[O] = flatten(Src, St);
    });
    break;
  case SHIFT: {
    int64_t Axis = P.I[0], K = P.I[1], N = In[Axis];
    bool Cyclic = P.I[2] == 0;
    forEachIndex(P.Out, [&](int64_t O, const std::vector<int64_t> &Idx) {
      Src = Idx;
      int64_t S = Idx[Axis] - K;
      if (Cyclic)
        S = ((S % N) + N) % N;
      else if (S < 0 || S >= N)
        return;
      Src[Axis] = S;
      Map[O] = flatten(Src, St);
    });
    break;
  }
  case ROTATE: {
    int64_t Q = P.I[0], A = P.I[1], B = P.I[2];
    int64_t NA = In[A], NB = In[B];
    forEachIndex(P.Out, [&](int64_t O, const std::vector<int64_t> &Idx) {
      Src = Idx;
      int64_t I = Idx[A], J = Idx[B];
      if (Q == 1) { // numpy.rot90 k=1: out[i][j] = in[j][nb-1-i]
        Src[A] = J;
        Src[B] = NB - 1 - I;
      } else if (Q == 2) {
        Src[A] = NA - 1 - I;
        Src[B] = NB - 1 - J;
      } else if (Q == 3) { // out[i][j] = in[na-1-j][i]
        Src[A] = NA - 1 - J;
        Src[B] = I;
      }
      Map[O] = flatten(Src, St);
    });
    break;
  }
  case SCALE:
    forEachIndex(P.Out, [&](int64_t O, const std::vector<int64_t> &Idx) {
      Src = Idx;
      for (size_t I = 0; I < P.I.size(); ++I) {
        int64_t S = P.I[I];
        Src[I] = S > 0 ? Idx[I] / S : Idx[I] * -S;
      }
      Map[O] = flatten(Src, St);
    });
    break;
  case SHEAR: {
    int64_t A = P.I[0], B = P.I[1], X0 = P.I[2], X1 = P.I[3];
    std::vector<int64_t> OutSt = strides(P.Out);
    // Forward scatter: (u, v) -> (u + a v, b u + v) is injective here.
    forEachIndex(In, [&](int64_t I, const std::vector<int64_t> &Idx) {
      std::vector<int64_t> Dst = Idx;
      Dst[X0] = Idx[X0] + A * Idx[X1];
      Dst[X1] = B * Idx[X0] + Idx[X1];
      Map[flatten(Dst, OutSt)] = I;
    });
    break;
  }
  case REFLECT: {
    int64_t Axis = P.I[0];
    forEachIndex(P.Out, [&](int64_t O, const std::vector<int64_t> &Idx) {
      Src = Idx;
      Src[Axis] = In[Axis] - 1 - Idx[Axis];
      Map[O] = flatten(Src, St);
    });
    break;
  }
  case AFFINE:
  case PROJECT: {
    const std::vector<double> &M = P.F;
    forEachIndex(P.Out, [&](int64_t O, const std::vector<int64_t> &Idx) {
      double X = double(Idx[0]), Y = double(Idx[1]);
      double U = M[0] * X + M[1] * Y + M[2];
      double V = M[3] * X + M[4] * Y + M[5];
      double W = M[6] * X + M[7] * Y + M[8];
      if (std::fabs(W) < 1e-12)
        return;
      // Nearest source element, ties toward +infinity.
      double SU = std::floor(U / W + 0.5), SV = std::floor(V / W + 0.5);
      if (SU < 0 || SV < 0 || SU >= double(In[0]) || SV >= double(In[1]))
        return;
      Src = Idx;
      Src[0] = int64_t(SU);
      Src[1] = int64_t(SV);
      Map[O] = flatten(Src, St);
    });
    break;
  }
  case SHUFFLE: {
    int64_t Axis = P.I[0];
    if (Axis == -1) {
      for (size_t O = 0; O < Map.size(); ++O)
        Map[O] = P.I[O + 1];
      break;
    }
    forEachIndex(P.Out, [&](int64_t O, const std::vector<int64_t> &Idx) {
      Src = Idx;
      Src[Axis] = P.I[Idx[Axis] + 1];
      Map[O] = flatten(Src, St);
    });
    break;
  }
  default:
    llvm_unreachable("plan() rejects unknown types");
  }
  return Map;
}

} // namespace

Expected<std::vector<int64_t>> rearrangedShape(const Rearrange &R,
                                               ArrayRef<int64_t> In) {
  Expected<Plan> P = plan(R, In);
  if (!P)
    return P.takeError();
  return std::move(P->Out);
}

Expected<std::vector<int64_t>> rearrangeGatherMap(const Rearrange &R,
                                                  ArrayRef<int64_t> In,
                                                  std::vector<int64_t> &Out) {
  Expected<Plan> P = plan(R, In);
  if (!P)
    return P.takeError();
  Out = P->Out;
  return gather(R, *P, In);
}

Expected<std::vector<double>> applyRearranges(
    const google::protobuf::RepeatedPtrField<Rearrange> &Rs,
                                              std::vector<int64_t> &Shape,
                                              std::vector<double> Data) {
  for (const Rearrange &R : Rs) {
    std::vector<int64_t> Out;
    Expected<std::vector<int64_t>> Map = rearrangeGatherMap(R, Shape, Out);
    if (!Map)
      return Map.takeError();
    std::vector<double> Next(Map->size(), 0.0);
    for (size_t I = 0; I < Map->size(); ++I)
      if ((*Map)[I] >= 0)
        Next[I] = Data[(*Map)[I]];
    Data = std::move(Next);
    Shape = std::move(Out);
  }
  return Data;
}

} // namespace bangc::graph
