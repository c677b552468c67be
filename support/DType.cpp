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

const DTypeRow &row(DType Ty) {
  assert(size_t(Ty) < std::size(Rows) && "not a DType");
  return Rows[size_t(Ty)];
}

template <typename T> T fromDouble(double V) { return T(V); }
template <> HalfBits fromDouble<HalfBits>(double V) {
  return {floatToHalf(float(V))};
}
template <typename T> double toDouble(T V) { return double(V); }
template <> double toDouble<HalfBits>(HalfBits V) {
  return double(halfToFloat(V.Bits));
}

template <typename T> void storeAs(ArrayRef<double> Values, void *Dst) {
  auto *Out = static_cast<char *>(Dst);
  for (size_t I = 0; I < Values.size(); ++I) {
    T V = fromDouble<T>(Values[I]);
    std::memcpy(Out + I * sizeof(T), &V, sizeof(T));
  }
}

template <typename T>
void loadAs(const void *Src, MutableArrayRef<double> Values) {
  const auto *In = static_cast<const char *>(Src);
  for (size_t I = 0; I < Values.size(); ++I) {
    T V;
    std::memcpy(&V, In + I * sizeof(T), sizeof(T));
    Values[I] = toDouble(V);
  }
}

} // namespace

size_t dtypeSize(DType Ty) { return row(Ty).Bytes; }

StringRef dtypeName(DType Ty) { return row(Ty).Name; }

StringRef dtypeCName(DType Ty) { return row(Ty).CName; }

StringRef dtypeNpyDescr(DType Ty) { return row(Ty).Npy; }

Expected<DType> parseDTypeName(StringRef Name) {
  std::optional<DType> Ty = StringSwitch<std::optional<DType>>(Name)
#define BANGC_DTYPE(ENUM, NAME, KIND, BYTES, STORAGE, CTYPE, NPY, ALIAS1,      \
                    ALIAS2, ...)                                               \
  .Cases(NAME, ALIAS1, ALIAS2, DType::ENUM)
#include "support/DTypes.def"
                                .Default(std::nullopt);
  if (Ty)
    return *Ty;
  std::string Names;
  for (DType T : AllDTypes)
    Names += (Names.empty() ? "" : " ") + dtypeName(T).str();
  return createStringError(inconvertibleErrorCode(),
                           "unknown element type '%s' (expected one of %s)",
                           Name.str().c_str(), Names.c_str());
}

bool isFloatDType(DType Ty) { return row(Ty).K == Kind::Float; }

bool isSignedIntDType(DType Ty) { return row(Ty).K == Kind::Signed; }

bool isUnsignedIntDType(DType Ty) { return row(Ty).K == Kind::Unsigned; }

void storeValues(DType Ty, ArrayRef<double> Values, void *Dst) {
  switch (Ty) {
#define BANGC_DTYPE(ENUM, NAME, KIND, BYTES, STORAGE, ...)                     \
  case DType::ENUM:                                                            \
    return storeAs<STORAGE>(Values, Dst);
#include "support/DTypes.def"
  }
  llvm_unreachable("unknown DType");
}

void loadValues(DType Ty, const void *Src, MutableArrayRef<double> Values) {
  switch (Ty) {
#define BANGC_DTYPE(ENUM, NAME, KIND, BYTES, STORAGE, ...)                     \
  case DType::ENUM:                                                            \
    return loadAs<STORAGE>(Src, Values);
#include "support/DTypes.def"
  }
  llvm_unreachable("unknown DType");
}

} // namespace bangc
