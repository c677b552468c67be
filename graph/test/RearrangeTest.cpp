//===- RearrangeTest.cpp - Each rearrangement against hand computation ---===//
#include "graph/Builder.h"
#include "graph/Rearrange.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

using namespace bangc::graph;
using namespace bangc::taskir;

namespace {

std::vector<double> iota(size_t N) {
  std::vector<double> V(N);
  std::iota(V.begin(), V.end(), 0.0);
  return V;
}

struct Result {
  std::vector<int64_t> Shape;
  std::vector<double> Data;
};

Result apply(std::vector<int64_t> Shape, std::vector<double> Data,
             RearrangeType T, std::vector<double> Params) {
  google::protobuf::RepeatedPtrField<Rearrange> Rs;
  *Rs.Add() = makeRearrange(T, Params);
  llvm::Expected<std::vector<double>> R =
      applyRearranges(Rs, Shape, std::move(Data));
  if (!R) {
    ADD_FAILURE() << llvm::toString(R.takeError());
    return {};
  }
  return {Shape, *R};
}

std::string applyError(std::vector<int64_t> Shape, RearrangeType T,
                       std::vector<double> Params) {
  llvm::Expected<std::vector<int64_t>> R =
      rearrangedShape(makeRearrange(T, Params), Shape);
  if (R)
    return "";
  return llvm::toString(R.takeError());
}

// A 3x4 matrix with values 0..11 (row-major), as in the seed's figures.
const std::vector<int64_t> M34 = {3, 4};

TEST(Rearrange, Identity) {
  Result R = apply(M34, iota(12), IDENTITY, {});
  EXPECT_EQ(R.Shape, M34);
  EXPECT_EQ(R.Data, iota(12));
}

TEST(Rearrange, ReshapeKeepsReadingOrder) {
  Result R = apply(M34, iota(12), RESHAPE, {4, 3});
  EXPECT_EQ(R.Shape, (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(R.Data, iota(12));
  R = apply(M34, iota(12), RESHAPE, {-1});
  EXPECT_EQ(R.Shape, (std::vector<int64_t>{12}));
  EXPECT_NE(applyError(M34, RESHAPE, {5, 3}).find("has 15 elements"),
            std::string::npos);
}

TEST(Rearrange, PermuteIsTranspose) {
  Result R = apply(M34, iota(12), PERMUTE, {1, 0});
  EXPECT_EQ(R.Shape, (std::vector<int64_t>{4, 3}));
  for (int I = 0; I < 4; ++I)
    for (int J = 0; J < 3; ++J)
      EXPECT_EQ(R.Data[I * 3 + J], J * 4 + I);
  // 3-D: (y, x, f) -> (f, y, x).
  Result R3 = apply({2, 3, 4}, iota(24), PERMUTE, {2, 0, 1});
  EXPECT_EQ(R3.Shape, (std::vector<int64_t>{4, 2, 3}));
  for (int F = 0; F < 4; ++F)
    for (int Y = 0; Y < 2; ++Y)
      for (int X = 0; X < 3; ++X)
        EXPECT_EQ(R3.Data[(F * 2 + Y) * 3 + X], (Y * 3 + X) * 4 + F);
  EXPECT_NE(applyError(M34, PERMUTE, {0, 0}).find("not a permutation"),
            std::string::npos);
}

TEST(Rearrange, ShiftCyclicLeftAsSeedMatrix) {
  // Left cyclic shift by one = right-multiplying by the 0-1 matrix P with
  // P[j+1][j] = 1 and P[0][n-1] = 1 (the seed's construction).
  const int N = 4;
  double P[N][N] = {};
  for (int J = 0; J + 1 < N; ++J)
    P[J + 1][J] = 1;
  P[0][N - 1] = 1;
  std::vector<double> V = iota(12), Want(12, 0);
  for (int I = 0; I < 3; ++I)
    for (int J = 0; J < N; ++J)
      for (int K = 0; K < N; ++K)
        Want[I * N + J] += V[I * N + K] * P[K][J];
  Result R = apply(M34, V, SHIFT, {1, -1, 0});
  EXPECT_EQ(R.Data, Want);
}

TEST(Rearrange, ShiftZeroFill) {
  // Down by one with zero fill: row 0 becomes zeros.
  Result R = apply(M34, iota(12), SHIFT, {0, 1, 1});
  for (int I = 0; I < 3; ++I)
    for (int J = 0; J < 4; ++J)
      EXPECT_EQ(R.Data[I * 4 + J], I == 0 ? 0 : (I - 1) * 4 + J);
  // Right by two, cyclic.
  R = apply(M34, iota(12), SHIFT, {1, 2});
  for (int I = 0; I < 3; ++I)
    for (int J = 0; J < 4; ++J)
      EXPECT_EQ(R.Data[I * 4 + J], I * 4 + (J + 2) % 4);
  EXPECT_NE(applyError(M34, SHIFT, {0, 1, 2}).find("mode must be 0"),
            std::string::npos);
}

TEST(Rearrange, RotateQuarterTurnsCounterclockwise) {
  // [[0 1 2 3] [4 5 6 7] [8 9 10 11]] rotated 90 degrees counterclockwise
  // is [[3 7 11] [2 6 10] [1 5 9] [0 4 8]].
  Result R = apply(M34, iota(12), ROTATE, {1});
  EXPECT_EQ(R.Shape, (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(R.Data, (std::vector<double>{3, 7, 11, 2, 6, 10, 1, 5, 9, 0, 4, 8}));
  R = apply(M34, iota(12), ROTATE, {2});
  EXPECT_EQ(R.Data, (std::vector<double>{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
  R = apply(M34, iota(12), ROTATE, {-1});
  EXPECT_EQ(R.Data, (std::vector<double>{8, 4, 0, 9, 5, 1, 10, 6, 2, 11, 7, 3}));
  // Four quarter turns are the identity.
  R = apply(M34, iota(12), ROTATE, {4});
  EXPECT_EQ(R.Data, iota(12));
  EXPECT_NE(applyError({5}, ROTATE, {1}).find("rank >= 2"), std::string::npos);
}

TEST(Rearrange, ScaleUpAndDown) {
  // Up by (2, 3): x = k u when x % k = 0, else u = floor(x / k).
  Result R = apply({2, 2}, {1, 2, 3, 4}, SCALE, {2, 3});
  EXPECT_EQ(R.Shape, (std::vector<int64_t>{4, 6}));
  for (int X = 0; X < 4; ++X)
    for (int Y = 0; Y < 6; ++Y)
      EXPECT_EQ(R.Data[X * 6 + Y], 1 + (X / 2) * 2 + Y / 3);
  // Down by 2 keeps every second element.
  R = apply({4, 4}, iota(16), SCALE, {-2, -2});
  EXPECT_EQ(R.Data, (std::vector<double>{0, 2, 8, 10}));
  EXPECT_NE(applyError({3, 4}, SCALE, {-2}).find("divisible"),
            std::string::npos);
}

TEST(Rearrange, ShearZeroFill) {
  // Shape m x n -> (m + a n, n + b m); (u, v) -> (u + a v, b u + v).
  Result R = apply({2, 3}, {1, 2, 3, 4, 5, 6}, SHEAR, {0, 1});
  EXPECT_EQ(R.Shape, (std::vector<int64_t>{2, 5}));
  EXPECT_EQ(R.Data, (std::vector<double>{1, 2, 3, 0, 0, 0, 4, 5, 6, 0}));
  R = apply({2, 2}, {1, 2, 3, 4}, SHEAR, {1, 0});
  EXPECT_EQ(R.Shape, (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(R.Data, (std::vector<double>{1, 0, 3, 2, 0, 4, 0, 0}));
  EXPECT_NE(applyError({2, 2}, SHEAR, {1, 1}).find("singular"),
            std::string::npos);
}

TEST(Rearrange, ReflectUpDownAndLeftRight) {
  Result R = apply(M34, iota(12), REFLECT, {0});
  EXPECT_EQ(R.Data, (std::vector<double>{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3}));
  R = apply(M34, iota(12), REFLECT, {1});
  EXPECT_EQ(R.Data, (std::vector<double>{3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8}));
}

TEST(Rearrange, AffineTranslationAndFlip) {
  // x = u + 1, y = v: move down one row, zero fill.
  Result R = apply(M34, iota(12), AFFINE, {1, 0, 1, 0, 1, 0});
  for (int I = 0; I < 3; ++I)
    for (int J = 0; J < 4; ++J)
      EXPECT_EQ(R.Data[I * 4 + J], I == 0 ? 0 : (I - 1) * 4 + J);
  // x = -u + 2, y = v: the up-down reflection of a 3-row matrix.
  R = apply(M34, iota(12), AFFINE, {-1, 0, 2, 0, 1, 0});
  EXPECT_EQ(R.Data, apply(M34, iota(12), REFLECT, {0}).Data);
  // A rotation written with cos/sin plus an explicit output size matches
  // ROTATE: x = -v + 3 (n-1), y = u; output 4 x 3... as rot90.
  double C = std::cos(M_PI / 2), S = std::sin(M_PI / 2);
  R = apply(M34, iota(12), AFFINE, {C, -S, 3, S, C, 0, 4, 3});
  EXPECT_EQ(R.Shape, (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(R.Data, apply(M34, iota(12), ROTATE, {1}).Data);
  EXPECT_NE(applyError(M34, AFFINE, {1, 2, 0, 2, 4, 0}).find("singular"),
            std::string::npos);
}

TEST(Rearrange, ProjectReducesToAffineAndDividesByZ) {
  Result A = apply(M34, iota(12), AFFINE, {1, 0, 1, 0, 1, 1});
  Result P = apply(M34, iota(12), PROJECT, {1, 0, 1, 0, 1, 1, 0, 0, 1});
  EXPECT_EQ(A.Data, P.Data);
  // z = 2 everywhere: x' = (2u)/2 = u -- identity despite the scaling.
  P = apply(M34, iota(12), PROJECT, {2, 0, 0, 0, 2, 0, 0, 0, 2});
  EXPECT_EQ(P.Data, iota(12));
  // Halving: x' = u / 2 (z = 2, x = u): output (i, j) samples (2i, 2j).
  P = apply({4, 4}, iota(16), PROJECT, {1, 0, 0, 0, 1, 0, 0, 0, 2, 2, 2});
  EXPECT_EQ(P.Data, (std::vector<double>{0, 2, 8, 10}));
}

TEST(Rearrange, ShuffleColumnsAndPoints) {
  // Seed's column shuffle: right-multiplying by the permutation matrix
  // [[0 0 1 0] [1 0 0 0] [0 0 0 1] [0 1 0 0]] gives columns (1, 3, 0, 2).
  const double P[4][4] = {{0, 0, 1, 0}, {1, 0, 0, 0}, {0, 0, 0, 1}, {0, 1, 0, 0}};
  std::vector<double> Want(12, 0);
  for (int I = 0; I < 3; ++I)
    for (int J = 0; J < 4; ++J)
      for (int K = 0; K < 4; ++K)
        Want[I * 4 + J] += double(I * 4 + K) * P[K][J];
  Result R = apply(M34, iota(12), SHUFFLE, {1, 1, 3, 0, 2});
  EXPECT_EQ(R.Data, Want);
  // Arbitrary points: swap elements 5 and 11 of the flat tensor.
  std::vector<double> Perm = {-1};
  for (int I = 0; I < 12; ++I)
    Perm.push_back(I == 5 ? 11 : I == 11 ? 5 : I);
  R = apply(M34, iota(12), SHUFFLE, Perm);
  std::vector<double> W2 = iota(12);
  std::swap(W2[5], W2[11]);
  EXPECT_EQ(R.Data, W2);
  EXPECT_NE(applyError(M34, SHUFFLE, {1, 0, 0, 1, 2}).find("permutation"),
            std::string::npos);
}

TEST(Rearrange, ChainsApplyInOrder) {
  google::protobuf::RepeatedPtrField<Rearrange> Rs;
  *Rs.Add() = makeRearrange(PERMUTE, {1, 0});
  *Rs.Add() = makeRearrange(RESHAPE, {12});
  std::vector<int64_t> Shape = M34;
  llvm::Expected<std::vector<double>> R = applyRearranges(Rs, Shape, iota(12));
  ASSERT_TRUE(bool(R));
  EXPECT_EQ(Shape, (std::vector<int64_t>{12}));
  EXPECT_EQ((*R)[1], 4);
}

TEST(Rearrange, BadParametersAreErrors) {
  EXPECT_NE(applyError(M34, SHIFT, {0.5, 1}).find("must be an integer"),
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
