#pragma once
// Element types of tensors, one table for the enum, printed names and sizes.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tl {

// X(enum name, printed/JSON name, C++ storage type)
#define TL_DTYPES(X)            \
    X(Bool, "bool", bool)       \
    X(Int8, "int8", int8_t)     \
    X(Int16, "int16", int16_t)  \
    X(Int32, "int32", int32_t)  \
    X(Int64, "int64", int64_t)  \
    X(UInt8, "uint8", uint8_t)  \
    X(UInt16, "uint16", uint16_t) \
    X(UInt32, "uint32", uint32_t) \
    X(UInt64, "uint64", uint64_t) \
    X(Float32, "float32", float) \
    X(Float64, "float64", double)

enum class DType : uint8_t {
#define TL_X(e, n, t) e,
    TL_DTYPES(TL_X)
#undef TL_X
};

inline constexpr int kNumDTypes = 0
#define TL_X(e, n, t) +1
    TL_DTYPES(TL_X)
#undef TL_X
    ;
static_assert(kNumDTypes == 11, "docs/semantics.md#dtypes lists eleven dtypes");

/// PyTensor's name of the dtype ("float64").
std::string_view dtypeName(DType d);
/// Parses a dtype name; nullopt when unknown.
std::optional<DType> parseDType(std::string_view name);
/// Bytes per element.
size_t dtypeSize(DType d);
bool isFloat(DType d);
bool isInteger(DType d);  // signed or unsigned, not bool
bool isSigned(DType d);
bool isUnsigned(DType d);  // uint8 .. uint64
/// NumPy's result type of a binary arithmetic op on two arrays.
DType promote(DType a, DType b);

/// Maps a C++ type to its DType.
template <typename T> struct DTypeOf;
#define TL_X(e, n, t) \
    template <> struct DTypeOf<t> { static constexpr DType value = DType::e; };
TL_DTYPES(TL_X)
#undef TL_X

/// Calls f(T{}) with the C++ type of `d`. Every kernel dispatches through this.
template <typename F> decltype(auto) dispatchDType(DType d, F&& f) {
    switch (d) {
#define TL_X(e, n, t) \
    case DType::e: return f(t{});
        TL_DTYPES(TL_X)
#undef TL_X
    }
    return f(double{});
}

} // namespace tl
