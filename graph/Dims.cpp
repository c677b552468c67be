//===- Dims.cpp - The eight-dimensional Task IR shape --------------------===//
#include "graph/Dims.h"

namespace bangc::graph {

const char *dimName(unsigned d) {
  static const char *names[NumDims] = {"y",  "x",  "f",  "r",
                                       "ky", "kx", "iy", "ix"};
  return d < NumDims ? names[d] : "?";
}

Dims::Dims(std::initializer_list<std::pair<Dim, int64_t>> init) {
  for (auto [D, N] : init)
    v[D] = N;
}

Dims Dims::fromProto(const taskir::Shape &s) {
  Dims r;
  r.v[DY] = s.has_y() ? s.y() : -1;
  r.v[DX] = s.has_x() ? s.x() : -1;
  r.v[DF] = s.has_f() ? s.f() : -1;
  r.v[DR] = s.has_r() ? s.r() : -1;
  r.v[DKY] = s.has_ky() ? s.ky() : -1;
  r.v[DKX] = s.has_kx() ? s.kx() : -1;
  r.v[DIY] = s.has_iy() ? s.iy() : -1;
  r.v[DIX] = s.has_ix() ? s.ix() : -1;
  return r;
}

void Dims::toProto(taskir::Shape *s) const {
  s->Clear();
  if (has(DY))
    s->set_y(v[DY]);
  if (has(DX))
    s->set_x(v[DX]);
  if (has(DF))
    s->set_f(v[DF]);
  if (has(DR))
    s->set_r(v[DR]);
  if (has(DKY))
    s->set_ky(v[DKY]);
  if (has(DKX))
    s->set_kx(v[DKX]);
  if (has(DIY))
    s->set_iy(v[DIY]);
  if (has(DIX))
    s->set_ix(v[DIX]);
}

unsigned Dims::mask() const {
  unsigned m = 0;
  for (unsigned d = 0; d < NumDims; ++d)
    if (has(d))
      m |= 1u << d;
  return m;
}

std::vector<int64_t> Dims::present() const {
  std::vector<int64_t> p;
  for (unsigned d = 0; d < NumDims; ++d)
    if (has(d))
      p.push_back(v[d]);
  return p;
}

int64_t Dims::volume() const {
  int64_t n = 1;
  for (unsigned d = 0; d < NumDims; ++d)
    if (has(d))
      n *= v[d];
  return n;
}

std::string Dims::str() const {
  std::string s = "[";
  for (unsigned d = 0; d < NumDims; ++d) {
    if (!has(d))
      continue;
    if (s.size() > 1)
      s += ", ";
    s += std::string(dimName(d)) + "=" + std::to_string(v[d]);
  }
  return s + "]";
}

std::vector<int64_t> boxIndexes(const Dims &full, const Dims &pos,
                                const Dims &size) {
  std::vector<int64_t> f = full.present(), p = pos.present(),
                       s = size.present();
  size_t rank = f.size();
  std::vector<int64_t> stride(rank, 1);
  for (int i = int(rank) - 2; i >= 0; --i)
    stride[i] = stride[i + 1] * f[i + 1];
  std::vector<int64_t> out(size_t(size.volume()));
  std::vector<int64_t> idx(rank, 0);
  for (int64_t &o : out) {
    o = 0;
    for (size_t d = 0; d < rank; ++d)
      o += (p[d] + idx[d]) * stride[d];
    for (int d = int(rank) - 1; d >= 0; --d) {
      if (++idx[d] < s[d])
        break;
      idx[d] = 0;
    }
  }
  return out;
}

unsigned dimMask(std::initializer_list<Dim> ds) {
  unsigned m = 0;
  for (Dim d : ds)
    m |= 1u << d;
  return m;
}

std::string maskStr(unsigned mask) {
  std::string s = "[";
  for (unsigned d = 0; d < NumDims; ++d) {
    if (!(mask & (1u << d)))
      continue;
    if (s.size() > 1)
      s += ", ";
    s += dimName(d);
  }
  return s + "]";
}

std::string shapeStr(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

} // namespace bangc::graph
