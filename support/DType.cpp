//===- DType.cpp - Element types shared by tools and runtime -------------===//
//
// Every function here reads support/DTypes.def; none lists the types again.
//
//===----------------------------------------------------------------------===//
#include "support/DType.h"

#include "support/Half.h"

#include "llvm/ADT/StringSwitch.h"

#include <cstdint>
#include <cstring>

using namespace llvm;

namespace bangc {

namespace {

/// An F16 element: its binary16 bits.
struct HalfBits {
  uint16_t Bits;
};

enum class Kind { Float, Signed, Unsigned };

struct DTypeRow {
  StringRef Name;
  Kind K;
  size_t Bytes;
  StringRef CName;
  StringRef Npy;
};

constexpr DTypeRow Rows[] = {
#define BANGC_DTYPE(ENUM, NAME, KIND, BYTES, STORAGE, CTYPE, NPY, ...)         \
  {NAME, Kind::KIND, BYTES, CTYPE, NPY},
#include "support/DTypes.def"
};

#define BANGC_DTYPE(ENUM, NAME, KIND, BYTES, STORAGE, ...)                     \
  static_assert(sizeof(STORAGE) == BYTES, "STORAGE of " NAME " is not BYTES");
#include "support/DTypes.def"

const DTypeRow &row(DType ty) {
  assert(size_t(ty) < std::size(Rows) && "not a DType");
  return Rows[size_t(ty)];
}

template <typename T> T fromDouble(double v) { return T(v); }
template <> HalfBits fromDouble<HalfBits>(double v) {
  return {floatToHalf(float(v))};
}
template <typename T> double toDouble(T v) { return double(v); }
template <> double toDouble<HalfBits>(HalfBits v) {
  return double(halfToFloat(v.Bits));
}

template <typename T> void storeAs(ArrayRef<double> values, void *dst) {
  auto *out = static_cast<char *>(dst);
  for (size_t i = 0; i < values.size(); ++i) {
    T v = fromDouble<T>(values[i]);
    std::memcpy(out + i * sizeof(T), &v, sizeof(T));
  }
}

template <typename T>
void loadAs(const void *src, MutableArrayRef<double> values) {
  const auto *in = static_cast<const char *>(src);
  for (size_t i = 0; i < values.size(); ++i) {
    T v;
    std::memcpy(&v, in + i * sizeof(T), sizeof(T));
    values[i] = toDouble(v);
  }
}

} // namespace

size_t dtypeSize(DType ty) { return row(ty).Bytes; }

StringRef dtypeName(DType ty) { return row(ty).Name; }

StringRef dtypeCName(DType ty) { return row(ty).CName; }

StringRef dtypeNpyDescr(DType ty) { return row(ty).Npy; }

Expected<DType> parseDTypeName(StringRef name) {
  std::optional<DType> ty = StringSwitch<std::optional<DType>>(name)
#define BANGC_DTYPE(ENUM, NAME, KIND, BYTES, STORAGE, CTYPE, NPY, ALIAS1,      \
                    ALIAS2, ...)                                               \
  .Cases(NAME, ALIAS1, ALIAS2, DType::ENUM)
#include "support/DTypes.def"
                                .Default(std::nullopt);
  if (ty)
    return *ty;
  std::string names;
  for (DType t : AllDTypes)
    names += (names.empty() ? "" : " ") + dtypeName(t).str();
  return createStringError(inconvertibleErrorCode(),
                           "unknown element type '%s' (expected one of %s)",
                           name.str().c_str(), names.c_str());
}

bool isFloatDType(DType ty) { return row(ty).K == Kind::Float; }

bool isSignedIntDType(DType ty) { return row(ty).K == Kind::Signed; }

bool isUnsignedIntDType(DType ty) { return row(ty).K == Kind::Unsigned; }

void storeValues(DType ty, ArrayRef<double> values, void *dst) {
  switch (ty) {
#define BANGC_DTYPE(ENUM, NAME, KIND, BYTES, STORAGE, ...)                     \
  case DType::ENUM:                                                            \
    return storeAs<STORAGE>(values, dst);
#include "support/DTypes.def"
  }
  llvm_unreachable("unknown DType");
}

void loadValues(DType ty, const void *src, MutableArrayRef<double> values) {
  switch (ty) {
#define BANGC_DTYPE(ENUM, NAME, KIND, BYTES, STORAGE, ...)                     \
  case DType::ENUM:                                                            \
    return loadAs<STORAGE>(src, values);
#include "support/DTypes.def"
  }
  llvm_unreachable("unknown DType");
}

} // namespace bangc
