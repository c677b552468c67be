//===- FieldCount.h - How many fields an aggregate has ----------*- C++ -*-===//
//
// The number of fields of an aggregate struct, at compile time: the largest
// N for which T{a1, ..., aN} compiles when each ai converts to anything. The
// tables of CompileOptions' and DeviceSpec's fields (bangsim/*.def) use it
// to fail the build when the struct gains a field its table does not list,
// even one that fits in padding and leaves sizeof unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef BANGSIM_FIELDCOUNT_H
#define BANGSIM_FIELDCOUNT_H

#include <type_traits>
#include <utility>

namespace bangsim {
namespace detail {

/// Converts to any field type (only in unevaluated aggregate initialisation).
struct AnyField {
  template <typename T> operator T() const;
};

template <typename T, typename Void, typename... Args>
struct BraceInitializable : std::false_type {};
template <typename T, typename... Args>
struct BraceInitializable<T, std::void_t<decltype(T{std::declval<Args>()...})>,
                          Args...> : std::true_type {};

} // namespace detail

/// The number of fields of the aggregate T (at most 64).
template <typename T, typename... Args> constexpr int fieldCount() {
  static_assert(std::is_aggregate_v<T>, "fieldCount needs an aggregate");
  if constexpr (sizeof...(Args) > 64)
    return -1;
  else if constexpr (!detail::BraceInitializable<T, void, Args...,
                                                 detail::AnyField>::value)
    return int(sizeof...(Args));
  else
    return fieldCount<T, Args..., detail::AnyField>();
}

} // namespace bangsim

#endif // BANGSIM_FIELDCOUNT_H
