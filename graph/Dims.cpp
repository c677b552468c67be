//===- Dims.cpp - The eight-dimensional Task IR shape --------------------===//
#include "graph/Dims.h"

namespace bangc::graph {

const char *dimName(unsigned D) {
  static const char *Names[NumDims] = {"y", "x", "f", "r", "ky", "kx", "iy",
                                       "ix"};
  return D < NumDims ? Names[D] : "?";
}

Dims::Dims(std::initializer_list<std::pair<Dim, int64_t>> Init) {
  for (auto [D, N] : Init)
    v[D] = N;
}

Dims Dims::fromProto(const taskir::Shape &S) {
  Dims R;
  R.v[DY] = S.has_y() ? S.y() : -1;
  R.v[DX] = S.has_x() ? S.x() : -1;
  R.v[DF] = S.has_f() ? S.f() : -1;
  R.v[DR] = S.has_r() ? S.r() : -1;
  R.v[DKY] = S.has_ky() ? S.ky() : -1;
  R.v[DKX] = S.has_kx() ? S.kx() : -1;
  R.v[DIY] = S.has_iy() ? S.iy() : -1;
  R.v[DIX] = S.has_ix() ? S.ix() : -1;
  return R;
}

void Dims::toProto(taskir::Shape *S) const {
  S->Clear();
  if (has(DY))
    S->set_y(v[DY]);
  if (has(DX))
    S->set_x(v[DX]);
  if (has(DF))
    S->set_f(v[DF]);
  if (has(DR))
    S->set_r(v[DR]);
  if (has(DKY))
    S->set_ky(v[DKY]);
  if (has(DKX))
    S->set_kx(v[DKX]);
  if (has(DIY))
    S->set_iy(v[DIY]);
  if (has(DIX))
    S->set_ix(v[DIX]);
}

unsigned Dims::mask() const {
  unsigned M = 0;
  for (unsigned D = 0; D < NumDims; ++D)
    if (has(D))
      M |= 1u << D;
  return M;
}

std::vector<int64_t> Dims::present() const {
  std::vector<int64_t> P;
  for (unsigned D = 0; D < NumDims; ++D)
    if (has(D))
      P.push_back(v[D]);
  return P;
}

int64_t Dims::volume() const {
  int64_t N = 1;
  for (unsigned D = 0; D < NumDims; ++D)
    if (has(D))
      N *= v[D];
  return N;
}

std::string Dims::str() const {
  std::string S = "[";
  for (unsigned D = 0; D < NumDims; ++D) {
    if (!has(D))
      continue;
    if (S.size() > 1)
      S += ", ";
    S += std::string(dimName(D)) + "=" + std::to_string(v[D]);
  }
  return S + "]";
}

unsigned dimMask(std::initializer_list<Dim> Ds) {
  unsigned M = 0;
  for (Dim D : Ds)
    M |= 1u << D;
  return M;
}

std::string maskStr(unsigned Mask) {
  std::string S = "[";
  for (unsigned D = 0; D < NumDims; ++D) {
    if (!(Mask & (1u << D)))
      continue;
    if (S.size() > 1)
      S += ", ";
    S += dimName(D);
  }
  return S + "]";
}

std::string shapeStr(const std::vector<int64_t> &Shape) {
  std::string S = "[";
  for (size_t I = 0; I < Shape.size(); ++I)
    S += (I ? ", " : "") + std::to_string(Shape[I]);
  return S + "]";
}

} // namespace bangc::graph
