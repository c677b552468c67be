//===- MemcpyDirection.h - The memcpy directions, for host code -*- C++ -*-===//
//
// Host code's view of bangsim/MemcpyDirections.def: the directions as an
// enum (the same values as the prelude's mluMemcpyDirection_t), their count,
// names and the spaces each one reads and writes. simrt checks and costs
// copies from this; the layer-group runner names the directions whose bytes
// it counts as weights.
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_MEMCPYDIRECTION_H
#define BANGSIM_MEMCPYDIRECTION_H

namespace bangsim {

/// The memory spaces a copy reads and writes (the SRC and DST columns).
enum class MemSpace { Gdram, Nram, Wram, Sram };

/// mluMemcpyDirection_t, one enumerator per row.
enum class MemcpyDirection : int {
#define BANG_MEMCPY_DIRECTION(NAME, VALUE, SRC, DST) NAME = VALUE,
#include "bangsim/MemcpyDirections.def"
#undef BANG_MEMCPY_DIRECTION
};

/// Number of directions: the rows of the table.
inline constexpr int NumDirections = 0
#define BANG_MEMCPY_DIRECTION(NAME, VALUE, SRC, DST) +1
#include "bangsim/MemcpyDirections.def"
#undef BANG_MEMCPY_DIRECTION
    ;

/// One row of the table.
struct DirectionInfo {
  const char *name;
  MemSpace src, dst;
};

/// The rows, indexed by value.
inline constexpr DirectionInfo directionTable[NumDirections] = {
#define BANG_MEMCPY_DIRECTION(NAME, VALUE, SRC, DST)                           \
  {#NAME, MemSpace::SRC, MemSpace::DST},
#include "bangsim/MemcpyDirections.def"
#undef BANG_MEMCPY_DIRECTION
};

namespace detail {
inline constexpr int directionValues[NumDirections] = {
#define BANG_MEMCPY_DIRECTION(NAME, VALUE, SRC, DST) VALUE,
#include "bangsim/MemcpyDirections.def"
#undef BANG_MEMCPY_DIRECTION
};
constexpr bool inValueOrder() {
  for (int i = 0; i < NumDirections; ++i)
    if (directionValues[i] != i)
      return false;
  return true;
}
} // namespace detail
// A value indexes directionTable: the rows are in value order, no gaps.
static_assert(detail::inValueOrder(),
              "MemcpyDirections.def: rows must be in value order from 0");

/// The value of a direction, an index of directionTable and of
/// LaunchStats::bytesByDirection.
inline constexpr int directionValue(MemcpyDirection d) {
  return static_cast<int>(d);
}

/// Whether `dir` is a direction of the table.
inline constexpr bool isDirection(int dir) {
  return dir >= 0 && dir < NumDirections;
}

/// Whether a copy in direction `dir` (a valid one) reads, or writes, GDRAM.
inline constexpr bool readsGdram(int dir) {
  return directionTable[dir].src == MemSpace::Gdram;
}
inline constexpr bool writesGdram(int dir) {
  return directionTable[dir].dst == MemSpace::Gdram;
}

} // namespace bangsim

#endif // BANGSIM_MEMCPYDIRECTION_H
