//===- RearrangeTest.cpp - Each rearrangement against hand computation ---===//
#include "graph/Builder.h"
#include "graph/Rearrange.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

using namespace bangc::graph;
using namespace bangc::taskir;

namespace {

std::vector<double> iota(size_t n) {
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), 0.0);
  return v;
}

struct Result {
  std::vector<int64_t> Shape;
  std::vector<double> Data;
};

Result apply(std::vector<int64_t> shape, std::vector<double> data,
             RearrangeType t, std::vector<double> params) {
  google::protobuf::RepeatedPtrField<Rearrange> rs;
  *rs.Add() = makeRearrange(t, params);
  llvm::Expected<std::vector<double>> r =
      applyRearranges(rs, shape, std::move(data));
  if (!r) {
    ADD_FAILURE() << llvm::toString(r.takeError());
    return {};
  }
  return {shape, *r};
}

std::string applyError(std::vector<int64_t> shape, RearrangeType t,
                       std::vector<double> params) {
  llvm::Expected<std::vector<int64_t>> r =
      rearrangedShape(makeRearrange(t, params), shape);
  if (r)
    return "";
  return llvm::toString(r.takeError());
}

// A 3x4 matrix with values 0..11 (row-major), as in the seed's figures.
const std::vector<int64_t> M34 = {3, 4};

TEST(Rearrange, Identity) {
  Result r = apply(M34, iota(12), IDENTITY, {});
  EXPECT_EQ(r.Shape, M34);
  EXPECT_EQ(r.Data, iota(12));
}

TEST(Rearrange, ReshapeKeepsReadingOrder) {
  Result r = apply(M34, iota(12), RESHAPE, {4, 3});
  EXPECT_EQ(r.Shape, (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(r.Data, iota(12));
  r = apply(M34, iota(12), RESHAPE, {-1});
  EXPECT_EQ(r.Shape, (std::vector<int64_t>{12}));
  EXPECT_NE(applyError(M34, RESHAPE, {5, 3}).find("has 15 elements"),
            std::string::npos);
}

TEST(Rearrange, PermuteIsTranspose) {
  Result r = apply(M34, iota(12), PERMUTE, {1, 0});
  EXPECT_EQ(r.Shape, (std::vector<int64_t>{4, 3}));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_EQ(r.Data[i * 3 + j], j * 4 + i);
  // 3-D: (y, x, f) -> (f, y, x).
  Result r3 = apply({2, 3, 4}, iota(24), PERMUTE, {2, 0, 1});
  EXPECT_EQ(r3.Shape, (std::vector<int64_t>{4, 2, 3}));
  for (int f = 0; f < 4; ++f)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 3; ++x)
        EXPECT_EQ(r3.Data[(f * 2 + y) * 3 + x], (y * 3 + x) * 4 + f);
  EXPECT_NE(applyError(M34, PERMUTE, {0, 0}).find("not a permutation"),
            std::string::npos);
}

TEST(Rearrange, ShiftCyclicLeftAsSeedMatrix) {
  // Left cyclic shift by one = right-multiplying by the 0-1 matrix P with
  // P[j+1][j] = 1 and P[0][n-1] = 1 (the seed's construction).
  const int n = 4;
  double p[n][n] = {};
  for (int j = 0; j + 1 < n; ++j)
    p[j + 1][j] = 1;
  p[0][n - 1] = 1;
  std::vector<double> v = iota(12), want(12, 0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        want[i * n + j] += v[i * n + k] * p[k][j];
  Result r = apply(M34, v, SHIFT, {1, -1, 0});
  EXPECT_EQ(r.Data, want);
}

TEST(Rearrange, ShiftZeroFill) {
  // Down by one with zero fill: row 0 becomes zeros.
  Result r = apply(M34, iota(12), SHIFT, {0, 1, 1});
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      EXPECT_EQ(r.Data[i * 4 + j], i == 0 ? 0 : (i - 1) * 4 + j);
  // Right by two, cyclic.
  r = apply(M34, iota(12), SHIFT, {1, 2});
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      EXPECT_EQ(r.Data[i * 4 + j], i * 4 + (j + 2) % 4);
  EXPECT_NE(applyError(M34, SHIFT, {0, 1, 2}).find("mode must be 0"),
            std::string::npos);
}

TEST(Rearrange, RotateQuarterTurnsCounterclockwise) {
  // [[0 1 2 3] [4 5 6 7] [8 9 10 11]] rotated 90 degrees counterclockwise
  // is [[3 7 11] [2 6 10] [1 5 9] [0 4 8]].
  Result r = apply(M34, iota(12), ROTATE, {1});
  EXPECT_EQ(r.Shape, (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(r.Data,
            (std::vector<double>{3, 7, 11, 2, 6, 10, 1, 5, 9, 0, 4, 8}));
  r = apply(M34, iota(12), ROTATE, {2});
  EXPECT_EQ(r.Data,
            (std::vector<double>{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
  r = apply(M34, iota(12), ROTATE, {-1});
  EXPECT_EQ(r.Data,
            (std::vector<double>{8, 4, 0, 9, 5, 1, 10, 6, 2, 11, 7, 3}));
  // Four quarter turns are the identity.
  r = apply(M34, iota(12), ROTATE, {4});
  EXPECT_EQ(r.Data, iota(12));
  EXPECT_NE(applyError({5}, ROTATE, {1}).find("rank >= 2"), std::string::npos);
}

TEST(Rearrange, ScaleUpAndDown) {
  // Up by (2, 3): x = k u when x % k = 0, else u = floor(x / k).
  Result r = apply({2, 2}, {1, 2, 3, 4}, SCALE, {2, 3});
  EXPECT_EQ(r.Shape, (std::vector<int64_t>{4, 6}));
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 6; ++y)
      EXPECT_EQ(r.Data[x * 6 + y], 1 + (x / 2) * 2 + y / 3);
  // Down by 2 keeps every second element.
  r = apply({4, 4}, iota(16), SCALE, {-2, -2});
  EXPECT_EQ(r.Data, (std::vector<double>{0, 2, 8, 10}));
  EXPECT_NE(applyError({3, 4}, SCALE, {-2}).find("divisible"),
            std::string::npos);
}

TEST(Rearrange, ShearZeroFill) {
  // Shape m x n -> (m + a n, n + b m); (u, v) -> (u + a v, b u + v).
  Result r = apply({2, 3}, {1, 2, 3, 4, 5, 6}, SHEAR, {0, 1});
  EXPECT_EQ(r.Shape, (std::vector<int64_t>{2, 5}));
  EXPECT_EQ(r.Data, (std::vector<double>{1, 2, 3, 0, 0, 0, 4, 5, 6, 0}));
  r = apply({2, 2}, {1, 2, 3, 4}, SHEAR, {1, 0});
  EXPECT_EQ(r.Shape, (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(r.Data, (std::vector<double>{1, 0, 3, 2, 0, 4, 0, 0}));
  EXPECT_NE(applyError({2, 2}, SHEAR, {1, 1}).find("singular"),
            std::string::npos);
}

TEST(Rearrange, ReflectUpDownAndLeftRight) {
  Result r = apply(M34, iota(12), REFLECT, {0});
  EXPECT_EQ(r.Data,
            (std::vector<double>{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3}));
  r = apply(M34, iota(12), REFLECT, {1});
  EXPECT_EQ(r.Data,
            (std::vector<double>{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8}));
}

TEST(Rearrange, AffineTranslationAndFlip) {
  // x = u + 1, y = v: move down one row, zero fill.
  Result r = apply(M34, iota(12), AFFINE, {1, 0, 1, 0, 1, 0});
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      EXPECT_EQ(r.Data[i * 4 + j], i == 0 ? 0 : (i - 1) * 4 + j);
  // x = -u + 2, y = v: the up-down reflection of a 3-row matrix.
  r = apply(M34, iota(12), AFFINE, {-1, 0, 2, 0, 1, 0});
  EXPECT_EQ(r.Data, apply(M34, iota(12), REFLECT, {0}).Data);
  // A rotation written with cos/sin plus an explicit output size matches
  // ROTATE: x = -v + 3 (n-1), y = u; output 4 x 3... as rot90.
  double c = std::cos(M_PI / 2), s = std::sin(M_PI / 2);
  r = apply(M34, iota(12), AFFINE, {c, -s, 3, s, c, 0, 4, 3});
  EXPECT_EQ(r.Shape, (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(r.Data, apply(M34, iota(12), ROTATE, {1}).Data);
  EXPECT_NE(applyError(M34, AFFINE, {1, 2, 0, 2, 4, 0}).find("singular"),
            std::string::npos);
}

TEST(Rearrange, ProjectReducesToAffineAndDividesByZ) {
  Result a = apply(M34, iota(12), AFFINE, {1, 0, 1, 0, 1, 1});
  Result p = apply(M34, iota(12), PROJECT, {1, 0, 1, 0, 1, 1, 0, 0, 1});
  EXPECT_EQ(a.Data, p.Data);
  // z = 2 everywhere: x' = (2u)/2 = u -- identity despite the scaling.
  p = apply(M34, iota(12), PROJECT, {2, 0, 0, 0, 2, 0, 0, 0, 2});
  EXPECT_EQ(p.Data, iota(12));
  // Halving: x' = u / 2 (z = 2, x = u): output (i, j) samples (2i, 2j).
  p = apply({4, 4}, iota(16), PROJECT, {1, 0, 0, 0, 1, 0, 0, 0, 2, 2, 2});
  EXPECT_EQ(p.Data, (std::vector<double>{0, 2, 8, 10}));
}

TEST(Rearrange, ShuffleColumnsAndPoints) {
  // Seed's column shuffle: right-multiplying by the permutation matrix
  // [[0 0 1 0] [1 0 0 0] [0 0 0 1] [0 1 0 0]] gives columns (1, 3, 0, 2).
  const double p[4][4] = {
      {0, 0, 1, 0}, {1, 0, 0, 0}, {0, 0, 0, 1}, {0, 1, 0, 0}};
  std::vector<double> want(12, 0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k)
        want[i * 4 + j] += double(i * 4 + k) * p[k][j];
  Result r = apply(M34, iota(12), SHUFFLE, {1, 1, 3, 0, 2});
  EXPECT_EQ(r.Data, want);
  // Arbitrary points: swap elements 5 and 11 of the flat tensor.
  std::vector<double> perm = {-1};
  for (int i = 0; i < 12; ++i)
    perm.push_back(i == 5 ? 11 : i == 11 ? 5 : i);
  r = apply(M34, iota(12), SHUFFLE, perm);
  std::vector<double> w2 = iota(12);
  std::swap(w2[5], w2[11]);
  EXPECT_EQ(r.Data, w2);
  EXPECT_NE(applyError(M34, SHUFFLE, {1, 0, 0, 1, 2}).find("permutation"),
            std::string::npos);
}

TEST(Rearrange, ChainsApplyInOrder) {
  google::protobuf::RepeatedPtrField<Rearrange> rs;
  *rs.Add() = makeRearrange(PERMUTE, {1, 0});
  *rs.Add() = makeRearrange(RESHAPE, {12});
  std::vector<int64_t> shape = M34;
  llvm::Expected<std::vector<double>> r = applyRearranges(rs, shape, iota(12));
  ASSERT_TRUE(bool(r));
  EXPECT_EQ(shape, (std::vector<int64_t>{12}));
  EXPECT_EQ((*r)[1], 4);
}

TEST(Rearrange, BadParametersAreErrors) {
  EXPECT_NE(applyError(M34, SHIFT, {0.5, 1}).find("must be an integer"),
            std::string::npos);
  // An integer too large for an exact int64 conversion says so.
  EXPECT_NE(applyError(M34, SHIFT, {0x1p62, 1}).find("below 1e15"),
            std::string::npos);
  EXPECT_NE(applyError(M34, REFLECT, {2}).find("out of range"),
            std::string::npos);
  EXPECT_NE(applyError(M34, IDENTITY, {1}).find("takes no parameters"),
            std::string::npos);
  EXPECT_NE(applyError(M34, SCALE, {1e12}).find("too large"),
            std::string::npos);
  EXPECT_NE(applyError(M34, REARRANGE_UNSPECIFIED, {}).find("unknown"),
            std::string::npos);
}

} // namespace
