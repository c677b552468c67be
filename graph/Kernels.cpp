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
  static T load(double v) { return int64_t(v); }
  static T add(T a, T b) { return int64_t(uint64_t(a) + uint64_t(b)); }
  static T mul(T a, T b) { return int64_t(uint64_t(a) * uint64_t(b)); }
  static double store(T v, Precision out) {
    if (isFloatPrecision(out))
      return roundToFloatPrecision(double(v), out);
    return double(saturateInt(v, out));
  }
};

/// Arithmetic of the real path.
struct RealOps {
  using T = double;
  static T load(double v) { return v; }
  static T add(T a, T b) { return a + b; }
  static T mul(T a, T b) { return a * b; }
  static double store(T v, Precision out) {
    if (isFloatPrecision(out))
      return roundToFloatPrecision(v, out);
    return double(realToInt(v, out));
  }
};

/// The per-f bias: an SB cluster, CONST_B, or zero.
std::vector<double> biasVector(const TaskBlock &b, const KernelArgs &a,
                               int64_t nf) {
  std::vector<InputRole> roles = inputRoles(b);
  for (size_t i = 0; i < roles.size(); ++i)
    if (roles[i] == InputRole::Bias)
      return a.Clusters[i];
  double c = attrNumber(b, CONST_B).value_or(0.0);
  return std::vector<double>(nf, c);
}

bool useReal(const TaskBlock &b, const KernelArgs &a) {
  return isFloatPrecision(b.precision()) || isFloatPrecision(a.DataPrecision) ||
         attrIsFloat(b, CONST_A) || attrIsFloat(b, CONST_B);
}

template <typename Ops>
std::vector<double> elementwise(const TaskBlock &b, const KernelArgs &a) {
  using T = typename Ops::T;
  Dims d = blockDims(b);
  int64_t nf = d[DF], n = d.volume();
  std::vector<double> bias = biasVector(b, a, nf);
  std::vector<InputRole> roles = inputRoles(b);
  std::vector<double> out(n);
  Precision p = b.precision();
  T constA = Ops::load(attrNumber(b, CONST_A).value_or(0.0));
  for (int64_t o = 0; o < n; ++o) {
    int64_t f = o % nf;
    T acc = Ops::load(bias[f]);
    switch (kindOf(b)) {
    case BlockKind::CADD: // SO = bias + sum of the inputs (1x1 kernel)
      for (size_t i = 0; i < roles.size(); ++i)
        if (roles[i] == InputRole::Data)
          acc = Ops::add(acc, Ops::load(a.Clusters[i][o]));
      break;
    case BlockKind::CVVH: // SO = bias + SI * SI2
      acc = Ops::add(acc, Ops::mul(Ops::load(a.Clusters[0][o]),
                                   Ops::load(a.Clusters[1][o])));
      break;
    case BlockKind::CAX: // SO = bias + A[f] * SI
      acc = Ops::add(acc, Ops::mul(Ops::load(a.Clusters[1][f]),
                                   Ops::load(a.Clusters[0][o])));
      break;
    case BlockKind::CVS: // SO = bias + constant_a * SI
      acc = Ops::add(acc, Ops::mul(constA, Ops::load(a.Clusters[0][o])));
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
    out[o] = Ops::store(acc, p);
  }
  return out;
}

/// CAVG and CC/CC2D share the window loop of the seed:
///   SO[oy][ox][f] = bias[f] + sum over (r,) ky, kx of
///       SI[oy*sy + ky*dy - pad_up][ox*sx + kx*dx - pad_left][f or r] (* W)
/// Padded positions contribute zero.
template <typename Ops>
std::vector<double> window(const TaskBlock &b, const KernelArgs &a) {
  using T = typename Ops::T;
  Dims d = blockDims(b);
  KernelParams k = kernelParams(b);
  int64_t ny = d[DY], nx = d[DX], nf = d[DF], iy = d[DIY], ix = d[DIX];
  bool conv = b.type() == CC || b.type() == CC2D;
  int64_t nr = conv ? d[DR] : 1;
  const std::vector<double> &in = a.Clusters[0];
  const std::vector<double> *w = conv ? &a.Clusters[1] : nullptr;
  std::vector<double> bias = biasVector(b, a, nf);
  std::vector<double> out(ny * nx * nf);
  for (int64_t oy = 0; oy < ny; ++oy)
    for (int64_t ox = 0; ox < nx; ++ox)
      for (int64_t f = 0; f < nf; ++f) {
        T acc = Ops::load(bias[f]);
        for (int64_t r = 0; r < nr; ++r)
          for (int64_t ky = 0; ky < k.KY; ++ky) {
            int64_t y = oy * k.SY + ky * k.DY - k.PadUp;
            if (y < 0 || y >= iy)
              continue;
            for (int64_t kx = 0; kx < k.KX; ++kx) {
              int64_t x = ox * k.SX + kx * k.DX - k.PadLeft;
              if (x < 0 || x >= ix)
                continue;
              if (!conv) {
                acc = Ops::add(acc, Ops::load(in[(y * ix + x) * nf + f]));
                continue;
              }
              // Input [iy][ix][r]; weight [f][r][ky][kx].
              T v = Ops::load(in[(y * ix + x) * nr + r]);
              T wt = Ops::load((*w)[((f * nr + r) * k.KY + ky) * k.KX + kx]);
              acc = Ops::add(acc, Ops::mul(v, wt));
            }
          }
        out[(oy * nx + ox) * nf + f] = Ops::store(acc, b.precision());
      }
  return out;
}

/// CVM: SO[f] = bias[f] + sum_r W[f][r] * SI[r] (weight stored [nf][nr]).
template <typename Ops>
std::vector<double> vectorMatrix(const TaskBlock &b, const KernelArgs &a) {
  using T = typename Ops::T;
  Dims d = blockDims(b);
  int64_t nf = d[DF], nr = d[DR];
  std::vector<double> bias = biasVector(b, a, nf);
  std::vector<double> out(nf);
  for (int64_t f = 0; f < nf; ++f) {
    T acc = Ops::load(bias[f]);
    for (int64_t r = 0; r < nr; ++r)
      acc = Ops::add(acc, Ops::mul(Ops::load(a.Clusters[1][f * nr + r]),
                                   Ops::load(a.Clusters[0][r])));
    out[f] = Ops::store(acc, b.precision());
  }
  return out;
}

/// The seed's max (min) of CCMPB (CCMPS) as IEEE 754-2019 maximum
/// (minimum): a NaN wins and -0 < +0, as BANG's __bang_maxequal and
/// __bang_maxpool (docs/layergroup.md "Precisions"); std::max would drop a
/// NaN that comes second.
double comparePick(bool big, double v, double s) {
  if (std::isnan(v) || std::isnan(s))
    return std::isnan(v) ? v : s;
  if (v == s) // equal zeros of either sign: -0 < +0
    return big == std::signbit(v) ? s : v;
  return big == (s > v) ? s : v;
}

/// CCMPB / CCMPS: SO = CMP, then max (min) over the window; padded
/// positions are skipped. CMP defaults to the lowest (highest) value of the
/// precision (-inf/+inf for floats).
std::vector<double> compare(const TaskBlock &b, const KernelArgs &a) {
  Dims d = blockDims(b);
  KernelParams k = kernelParams(b);
  bool big = b.type() == CCMPB;
  Precision p = b.precision();
  double init;
  if (std::optional<double> c = attrNumber(b, CMP))
    init = *c;
  else if (isFloatPrecision(p))
    init = big ? -std::numeric_limits<double>::infinity()
               : std::numeric_limits<double>::infinity();
  else
    init = double(big ? precisionMin(p) : precisionMax(p));
  int64_t ny = d[DY], nx = d[DX], nf = d[DF], iy = d[DIY], ix = d[DIX];
  const std::vector<double> &in = a.Clusters[0];
  std::vector<double> out(ny * nx * nf);
  for (int64_t oy = 0; oy < ny; ++oy)
    for (int64_t ox = 0; ox < nx; ++ox)
      for (int64_t f = 0; f < nf; ++f) {
        double v = init;
        for (int64_t ky = 0; ky < k.KY; ++ky) {
          int64_t y = oy * k.SY + ky - k.PadUp;
          if (y < 0 || y >= iy)
            continue;
          for (int64_t kx = 0; kx < k.KX; ++kx) {
            int64_t x = ox * k.SX + kx - k.PadLeft;
            if (x < 0 || x >= ix)
              continue;
            double s = in[(y * ix + x) * nf + f];
            v = comparePick(big, v, s);
          }
        }
        out[(oy * nx + ox) * nf + f] = RealOps::store(v, p);
      }
  return out;
}

/// CLUT: SO = table[SI - min(input precision)].
Expected<std::vector<double>> lookup(const TaskBlock &b, const KernelArgs &a) {
  assert(a.Table && "CLUT without a table");
  int64_t lo = precisionMin(a.DataPrecision);
  std::vector<double> out(a.Clusters[0].size());
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t idx = int64_t(a.Clusters[0][i]) - lo;
    if (idx < 0 || idx >= int64_t(a.Table->size()))
      return createStringError(
          inconvertibleErrorCode(),
          fmt::format("{}: input value {} is outside the table",
                      describeBlock(b), a.Clusters[0][i]));
    out[i] = (*a.Table)[idx];
  }
  return out;
}

/// CLIF, per neuron and time step t (docs/taskir.md "CLIF"):
///   V = DECAY * V + I[t] - V_LEAK    (floored for integer inputs)
///   spike = V >= V_TH
///   if spike: V = V_RESET (RESET_MODE 0) or V - V_TH (RESET_MODE 1)
///   SO[t] = spike ? 1 : 0
/// V starts at V_RESET.
std::vector<double> integrateAndFire(const TaskBlock &b, const KernelArgs &a) {
  double th = attrNumber(b, V_TH).value_or(1.0);
  double reset = attrNumber(b, V_RESET).value_or(0.0);
  double leak = attrNumber(b, V_LEAK).value_or(0.0);
  double decay = attrNumber(b, DECAY).value_or(1.0);
  bool soft = attrNumber(b, RESET_MODE).value_or(0.0) == 1.0;
  bool intMode = !isFloatPrecision(a.DataPrecision);
  const std::vector<double> &in = a.Clusters[0];
  std::vector<double> &v = *a.State;
  if (v.size() != in.size())
    v.assign(in.size(), reset);
  std::vector<double> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    double x = decay * v[i] + in[i] - leak;
    if (intMode)
      x = std::floor(x);
    bool spike = x >= th;
    if (spike)
      x = soft ? x - th : reset;
    v[i] = x;
    out[i] = spike ? 1.0 : 0.0;
  }
  return out;
}

template <template <typename> class Fn>
std::vector<double> dispatch(const TaskBlock &b, const KernelArgs &a) {
  return useReal(b, a) ? Fn<RealOps>::run(b, a) : Fn<IntOps>::run(b, a);
}
template <typename Ops> struct Elementwise {
  static std::vector<double> run(const TaskBlock &b, const KernelArgs &a) {
    return elementwise<Ops>(b, a);
  }
};
template <typename Ops> struct Window {
  static std::vector<double> run(const TaskBlock &b, const KernelArgs &a) {
    return window<Ops>(b, a);
  }
};
template <typename Ops> struct VectorMatrix {
  static std::vector<double> run(const TaskBlock &b, const KernelArgs &a) {
    return vectorMatrix<Ops>(b, a);
  }
};

} // namespace

Expected<std::vector<double>> runComputeBlock(const TaskBlock &b,
                                              const KernelArgs &a) {
  auto notCompute = [&] {
    return createStringError(inconvertibleErrorCode(),
                             describeBlock(b) + ": not a compute block");
  };
  std::optional<BlockKind> k = blockKind(b.type());
  if (!k)
    return notCompute();
  switch (*k) {
  case BlockKind::CADD:
  case BlockKind::CVVH:
  case BlockKind::CAX:
  case BlockKind::CVS:
    return dispatch<Elementwise>(b, a);
  case BlockKind::CAVG:
  case BlockKind::CC:
  case BlockKind::CC2D:
    return dispatch<Window>(b, a);
  case BlockKind::CVM:
    return dispatch<VectorMatrix>(b, a);
  case BlockKind::CCMPB:
  case BlockKind::CCMPS:
    return compare(b, a);
  case BlockKind::CLUT:
    return lookup(b, a);
  case BlockKind::CLIF:
    return integrateAndFire(b, a);
#include "graph/StorageKindCases.inc"
    return notCompute();
  }
  llvm_unreachable("a kind of BlockKinds.def");
}

} // namespace bangc::graph
