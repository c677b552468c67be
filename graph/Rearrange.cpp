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

Error bad(const Rearrange &r, const std::string &msg) {
  return createStringError(inconvertibleErrorCode(),
                           fmt::format("{}: {}", rearrangeName(r.type()), msg));
}

/// Upper bound on the elements one rearrangement may produce (guards
/// against absurd parameters allocating gigabytes).
constexpr int64_t MaxElements = int64_t(1) << 28;

int64_t volume(ArrayRef<int64_t> s) {
  int64_t n = 1;
  for (int64_t d : s)
    n *= d;
  return n;
}

std::vector<int64_t> strides(ArrayRef<int64_t> s) {
  std::vector<int64_t> st(s.size(), 1);
  for (int i = int(s.size()) - 2; i >= 0; --i)
    st[i] = st[i + 1] * s[i + 1];
  return st;
}

bool isIntegral(double v) {
  return std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15;
}

/// Reads params[\p i] as an integer.
Expected<int64_t> intParam(const Rearrange &r, int i, const char *what) {
  double v = r.params(i);
  if (std::isfinite(v) && v == std::floor(v) && !isIntegral(v))
    return bad(r, fmt::format("parameter {} ({}) must be an integer below "
                              "1e15 in magnitude, got {}",
                              i, what, v));
  if (!isIntegral(v))
    return bad(r, fmt::format("parameter {} ({}) must be an integer, got {}", i,
                              what, v));
  return int64_t(v);
}

Error checkAxis(const Rearrange &r, int64_t axis, size_t rank,
                const char *what) {
  if (axis < 0 || axis >= int64_t(rank))
    return bad(r, fmt::format("{} {} is out of range for a rank-{} tensor",
                              what, axis, rank));
  return Error::success();
}

/// Parsed, checked parameters and output shape of one rearrangement.
struct Plan {
  std::vector<int64_t> Out;
  std::vector<int64_t> I; // integer parameters, meaning per type
  std::vector<double> F;  // real parameters (AFFINE, PROJECT)
};

Expected<std::vector<int64_t>> intParams(const Rearrange &r) {
  std::vector<int64_t> v;
  for (int i = 0; i < r.params_size(); ++i) {
    Expected<int64_t> p = intParam(r, i, "value");
    if (!p)
      return p.takeError();
    v.push_back(*p);
  }
  return v;
}

Error checkCount(const Rearrange &r, size_t min, size_t max) {
  size_t n = r.params_size();
  if (n >= min && n <= max)
    return Error::success();
  if (min == max)
    return bad(r, fmt::format("expects {} parameters, got {}", min, n));
  return bad(r,
             fmt::format("expects {} to {} parameters, got {}", min, max, n));
}

Expected<Plan> planReshape(const Rearrange &r, ArrayRef<int64_t> in) {
  auto p = intParams(r);
  if (!p)
    return p.takeError();
  if (p->empty())
    return bad(r, "needs the new shape as parameters");
  int infer = -1;
  int64_t known = 1;
  for (size_t i = 0; i < p->size(); ++i) {
    int64_t d = (*p)[i];
    if (d == -1 && infer < 0) {
      infer = int(i);
      continue;
    }
    if (d < 1)
      return bad(r, fmt::format("dimension {} of the new shape is {}", i, d));
    if (known > MaxElements / d)
      return bad(r, "new shape is too large");
    known *= d;
  }
  int64_t n = volume(in);
  if (infer >= 0) {
    if (n % known)
      return bad(r, fmt::format("cannot infer the -1 dimension: {} elements "
                                "are not divisible by {}",
                                n, known));
    (*p)[infer] = n / known;
    known = n;
  }
  if (known != n)
    return bad(r, fmt::format("new shape {} has {} elements but the input {} "
                              "has {}",
                              shapeStr(*p), known, shapeStr(in), n));
  return Plan{*p, {}, {}};
}

Expected<Plan> planPermute(const Rearrange &r, ArrayRef<int64_t> in) {
  auto p = intParams(r);
  if (!p)
    return p.takeError();
  if (p->size() != in.size())
    return bad(r, fmt::format("permutation has {} entries but the input {} "
                              "has rank {}",
                              p->size(), shapeStr(in), in.size()));
  std::vector<bool> seen(in.size(), false);
  std::vector<int64_t> out;
  for (int64_t a : *p) {
    if (a < 0 || a >= int64_t(in.size()) || seen[a])
      return bad(r, fmt::format("{} is not a permutation of 0..{}",
                                shapeStr(*p), in.size() - 1));
    seen[a] = true;
    out.push_back(in[a]);
  }
  return Plan{out, *p, {}};
}

Expected<Plan> planShift(const Rearrange &r, ArrayRef<int64_t> in) {
  if (Error e = checkCount(r, 2, 3))
    return std::move(e);
  auto p = intParams(r);
  if (!p)
    return p.takeError();
  if (Error e = checkAxis(r, (*p)[0], in.size(), "axis"))
    return std::move(e);
  int64_t mode = p->size() > 2 ? (*p)[2] : 0;
  if (mode != 0 && mode != 1)
    return bad(r, fmt::format("mode must be 0 (cyclic) or 1 (zero-fill), got "
                              "{}",
                              mode));
  return Plan{std::vector<int64_t>(in), {(*p)[0], (*p)[1], mode}, {}};
}

Error checkPlaneAxes(const Rearrange &r, int64_t a, int64_t b, size_t rank) {
  if (rank < 2)
    return bad(r,
               fmt::format("needs a tensor of rank >= 2, got rank {}", rank));
  if (Error e = checkAxis(r, a, rank, "axis"))
    return e;
  if (Error e = checkAxis(r, b, rank, "axis"))
    return e;
  if (a == b)
    return bad(r, fmt::format("the two axes must differ (both {})", a));
  return Error::success();
}

Expected<Plan> planRotate(const Rearrange &r, ArrayRef<int64_t> in) {
  if (r.params_size() != 1 && r.params_size() != 3)
    return bad(r, fmt::format("expects [quarter_turns] or [quarter_turns, "
                              "axis_a, axis_b], got {} parameters",
                              r.params_size()));
  auto p = intParams(r);
  if (!p)
    return p.takeError();
  int64_t a = p->size() == 3 ? (*p)[1] : 0, b = p->size() == 3 ? (*p)[2] : 1;
  if (Error e = checkPlaneAxes(r, a, b, in.size()))
    return std::move(e);
  int64_t q = (((*p)[0] % 4) + 4) % 4;
  std::vector<int64_t> out(in);
  if (q % 2)
    std::swap(out[a], out[b]);
  return Plan{out, {q, a, b}, {}};
}

Expected<Plan> planScale(const Rearrange &r, ArrayRef<int64_t> in) {
  auto p = intParams(r);
  if (!p)
    return p.takeError();
  if (p->empty() || p->size() > in.size())
    return bad(r, fmt::format("expects 1 to {} factors (one per leading axis), "
                              "got {}",
                              in.size(), p->size()));
  std::vector<int64_t> out(in);
  for (size_t i = 0; i < p->size(); ++i) {
    int64_t s = (*p)[i];
    if (s == 0)
      return bad(r, fmt::format("factor for axis {} is 0", i));
    if (s > 0) {
      if (out[i] > MaxElements / s)
        return bad(r, fmt::format("factor {} for axis {} is too large", s, i));
      out[i] *= s;
      continue;
    }
    if (in[i] % -s)
      return bad(r, fmt::format("down-scaling axis {} of size {} by {} needs a "
                                "size divisible by the factor",
                                i, in[i], -s));
    out[i] /= -s;
  }
  return Plan{out, *p, {}};
}

Expected<Plan> planShear(const Rearrange &r, ArrayRef<int64_t> in) {
  if (r.params_size() != 2 && r.params_size() != 4)
    return bad(r, fmt::format("expects [a, b] or [a, b, axis0, axis1], got {} "
                              "parameters",
                              r.params_size()));
  auto p = intParams(r);
  if (!p)
    return p.takeError();
  int64_t a = (*p)[0], b = (*p)[1];
  int64_t x0 = p->size() == 4 ? (*p)[2] : 0, x1 = p->size() == 4 ? (*p)[3] : 1;
  if (Error e = checkPlaneAxes(r, x0, x1, in.size()))
    return std::move(e);
  if (a < 0 || b < 0)
    return bad(r, fmt::format("zero-fill shear needs a >= 0 and b >= 0, got "
                              "a={} b={}",
                              a, b));
  if (a * b == 1)
    return bad(r, "a = b = 1 makes the shear matrix singular");
  std::vector<int64_t> out(in);
  out[x0] = in[x0] + a * in[x1];
  out[x1] = in[x1] + b * in[x0];
  if (volume(out) > MaxElements)
    return bad(r, "sheared tensor is too large");
  return Plan{out, {a, b, x0, x1}, {}};
}

Expected<Plan> planReflect(const Rearrange &r, ArrayRef<int64_t> in) {
  if (Error e = checkCount(r, 0, 1))
    return std::move(e);
  auto p = intParams(r);
  if (!p)
    return p.takeError();
  int64_t axis = p->empty() ? 0 : (*p)[0];
  if (Error e = checkAxis(r, axis, in.size(), "axis"))
    return std::move(e);
  return Plan{std::vector<int64_t>(in), {axis}, {}};
}

Expected<Plan> planMatrix(const Rearrange &r, ArrayRef<int64_t> in,
                          size_t nCoef) {
  if (Error e = checkCount(r, nCoef, nCoef + 2))
    return std::move(e);
  if (r.params_size() == int(nCoef) + 1)
    return bad(r, fmt::format("output size needs both extents (got 1 of 2)"));
  if (in.size() < 2)
    return bad(
        r, fmt::format("needs a tensor of rank >= 2, got rank {}", in.size()));
  std::vector<double> f(r.params().begin(), r.params().begin() + nCoef);
  for (size_t i = 0; i < nCoef; ++i)
    if (!std::isfinite(f[i]))
      return bad(r, fmt::format("coefficient {} is not finite", i));
  std::vector<int64_t> out(in);
  if (r.params_size() == int(nCoef) + 2) {
    for (int k = 0; k < 2; ++k) {
      Expected<int64_t> e = intParam(r, nCoef + k, "output extent");
      if (!e)
        return e.takeError();
      if (*e < 1)
        return bad(r, fmt::format("output extent {} must be >= 1", *e));
      out[k] = *e;
    }
    if (volume(out) > MaxElements)
      return bad(r, "output is too large");
  }
  // Inverse of the 3x3 matrix [[a11 a12 b1] [a21 a22 b2] [a31 a32 b3]]
  // (AFFINE has the last row 0 0 1).
  double m[3][3] = {{f[0], f[1], f[2]}, {f[3], f[4], f[5]}, {0, 0, 1}};
  if (nCoef == 9)
    for (int j = 0; j < 3; ++j)
      m[2][j] = f[6 + j];
  double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
               m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
               m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  if (std::fabs(det) < 1e-12)
    return bad(r, "the transformation matrix is singular");
  std::vector<double> inv(9);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      // Cofactor of M[J][I] (transposed) over the determinant.
      int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3,
          c1 = (i + 2) % 3;
      inv[i * 3 + j] = (m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]) / det;
    }
  return Plan{out, {}, inv};
}

Expected<Plan> planShuffle(const Rearrange &r, ArrayRef<int64_t> in) {
  auto p = intParams(r);
  if (!p)
    return p.takeError();
  if (p->empty())
    return bad(r, "expects [axis, p0, p1, ...]");
  int64_t axis = (*p)[0];
  int64_t n = axis == -1 ? volume(in) : 0;
  if (axis != -1) {
    if (Error e = checkAxis(r, axis, in.size(), "axis"))
      return std::move(e);
    n = in[axis];
  }
  if (int64_t(p->size()) - 1 != n)
    return bad(r, fmt::format("permutation along axis {} needs {} entries, got "
                              "{}",
                              axis, n, p->size() - 1));
  std::vector<bool> seen(n, false);
  for (size_t i = 1; i < p->size(); ++i) {
    int64_t v = (*p)[i];
    if (v < 0 || v >= n || seen[v])
      return bad(r, fmt::format("entries must be a permutation of 0..{} (entry "
                                "{} is {})",
                                n - 1, i - 1, v));
    seen[v] = true;
  }
  return Plan{std::vector<int64_t>(in), *p, {}};
}

Expected<Plan> plan(const Rearrange &r, ArrayRef<int64_t> in) {
  for (int64_t d : in)
    if (d < 1)
      return bad(r, fmt::format("input shape {} has an empty dimension",
                                shapeStr(in)));
  switch (r.type()) {
  case IDENTITY:
    if (r.params_size())
      return bad(r, "takes no parameters");
    return Plan{std::vector<int64_t>(in), {}, {}};
  case RESHAPE:
    return planReshape(r, in);
  case PERMUTE:
    return planPermute(r, in);
  case SHIFT:
    return planShift(r, in);
  case ROTATE:
    return planRotate(r, in);
  case SCALE:
    return planScale(r, in);
  case SHEAR:
    return planShear(r, in);
  case REFLECT:
    return planReflect(r, in);
  case AFFINE:
    return planMatrix(r, in, 6);
  case PROJECT:
    return planMatrix(r, in, 9);
  case SHUFFLE:
    return planShuffle(r, in);
  default:
    return bad(r, "unknown or missing rearrangement type");
  }
}

/// Calls F(outIndex, multiIndex) for every output element in C order.
template <typename Fn> void forEachIndex(ArrayRef<int64_t> shape, Fn f) {
  int64_t n = volume(shape);
  std::vector<int64_t> idx(shape.size(), 0);
  for (int64_t flat = 0; flat < n; ++flat) {
    f(flat, idx);
    for (int d = int(shape.size()) - 1; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
}

int64_t flatten(ArrayRef<int64_t> idx, ArrayRef<int64_t> st) {
  int64_t f = 0;
  for (size_t i = 0; i < idx.size(); ++i)
    f += idx[i] * st[i];
  return f;
}

std::vector<int64_t> gather(const Rearrange &r, const Plan &p,
                            ArrayRef<int64_t> in) {
  std::vector<int64_t> map(volume(p.Out), -1);
  std::vector<int64_t> st = strides(in);
  std::vector<int64_t> src(in.size());
  switch (r.type()) {
  case IDENTITY:
  case RESHAPE:
    std::iota(map.begin(), map.end(), 0);
    break;
  case PERMUTE:
    forEachIndex(p.Out, [&](int64_t o, const std::vector<int64_t> &idx) {
      for (size_t i = 0; i < idx.size(); ++i)
        src[p.I[i]] = idx[i];
      map[o] = flatten(src, st);
    });
    break;
  case SHIFT: {
    int64_t axis = p.I[0], k = p.I[1], n = in[axis];
    bool cyclic = p.I[2] == 0;
    forEachIndex(p.Out, [&](int64_t o, const std::vector<int64_t> &idx) {
      src = idx;
      int64_t s = idx[axis] - k;
      if (cyclic)
        s = ((s % n) + n) % n;
      else if (s < 0 || s >= n)
        return;
      src[axis] = s;
      map[o] = flatten(src, st);
    });
    break;
  }
  case ROTATE: {
    int64_t q = p.I[0], a = p.I[1], b = p.I[2];
    int64_t na = in[a], nb = in[b];
    forEachIndex(p.Out, [&](int64_t o, const std::vector<int64_t> &idx) {
      src = idx;
      int64_t i = idx[a], j = idx[b];
      if (q == 1) { // numpy.rot90 k=1: out[i][j] = in[j][nb-1-i]
        src[a] = j;
        src[b] = nb - 1 - i;
      } else if (q == 2) {
        src[a] = na - 1 - i;
        src[b] = nb - 1 - j;
      } else if (q == 3) { // out[i][j] = in[na-1-j][i]
        src[a] = na - 1 - j;
        src[b] = i;
      }
      map[o] = flatten(src, st);
    });
    break;
  }
  case SCALE:
    forEachIndex(p.Out, [&](int64_t o, const std::vector<int64_t> &idx) {
      src = idx;
      for (size_t i = 0; i < p.I.size(); ++i) {
        int64_t s = p.I[i];
        src[i] = s > 0 ? idx[i] / s : idx[i] * -s;
      }
      map[o] = flatten(src, st);
    });
    break;
  case SHEAR: {
    int64_t a = p.I[0], b = p.I[1], x0 = p.I[2], x1 = p.I[3];
    std::vector<int64_t> outSt = strides(p.Out);
    // Forward scatter: (u, v) -> (u + a v, b u + v) is injective here.
    forEachIndex(in, [&](int64_t i, const std::vector<int64_t> &idx) {
      std::vector<int64_t> dst = idx;
      dst[x0] = idx[x0] + a * idx[x1];
      dst[x1] = b * idx[x0] + idx[x1];
      map[flatten(dst, outSt)] = i;
    });
    break;
  }
  case REFLECT: {
    int64_t axis = p.I[0];
    forEachIndex(p.Out, [&](int64_t o, const std::vector<int64_t> &idx) {
      src = idx;
      src[axis] = in[axis] - 1 - idx[axis];
      map[o] = flatten(src, st);
    });
    break;
  }
  case AFFINE:
  case PROJECT: {
    const std::vector<double> &m = p.F;
    forEachIndex(p.Out, [&](int64_t o, const std::vector<int64_t> &idx) {
      double x = double(idx[0]), y = double(idx[1]);
      double u = m[0] * x + m[1] * y + m[2];
      double v = m[3] * x + m[4] * y + m[5];
      double w = m[6] * x + m[7] * y + m[8];
      if (std::fabs(w) < 1e-12)
        return;
      // Nearest source element, ties toward +infinity.
      double su = std::floor(u / w + 0.5), sv = std::floor(v / w + 0.5);
      if (su < 0 || sv < 0 || su >= double(in[0]) || sv >= double(in[1]))
        return;
      src = idx;
      src[0] = int64_t(su);
      src[1] = int64_t(sv);
      map[o] = flatten(src, st);
    });
    break;
  }
  case SHUFFLE: {
    int64_t axis = p.I[0];
    if (axis == -1) {
      for (size_t o = 0; o < map.size(); ++o)
        map[o] = p.I[o + 1];
      break;
    }
    forEachIndex(p.Out, [&](int64_t o, const std::vector<int64_t> &idx) {
      src = idx;
      src[axis] = p.I[idx[axis] + 1];
      map[o] = flatten(src, st);
    });
    break;
  }
  default:
    llvm_unreachable("plan() rejects unknown types");
  }
  return map;
}

} // namespace

Expected<std::vector<int64_t>> rearrangedShape(const Rearrange &r,
                                               ArrayRef<int64_t> in) {
  Expected<Plan> p = plan(r, in);
  if (!p)
    return p.takeError();
  return std::move(p->Out);
}

Expected<std::vector<int64_t>> rearrangeGatherMap(const Rearrange &r,
                                                  ArrayRef<int64_t> in,
                                                  std::vector<int64_t> &out) {
  Expected<Plan> p = plan(r, in);
  if (!p)
    return p.takeError();
  out = p->Out;
  return gather(r, *p, in);
}

Expected<std::vector<double>>
applyRearranges(const google::protobuf::RepeatedPtrField<Rearrange> &rs,
                std::vector<int64_t> &shape, std::vector<double> data) {
  for (const Rearrange &r : rs) {
    std::vector<int64_t> out;
    Expected<std::vector<int64_t>> map = rearrangeGatherMap(r, shape, out);
    if (!map)
      return map.takeError();
    std::vector<double> next(map->size(), 0.0);
    for (size_t i = 0; i < map->size(); ++i)
      if ((*map)[i] >= 0)
        next[i] = data[(*map)[i]];
    data = std::move(next);
    shape = std::move(out);
  }
  return data;
}

} // namespace bangc::graph
