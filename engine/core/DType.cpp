#include "core/DType.h"

namespace tl {

std::string_view dtypeName(DType d) {
    switch (d) {
#define TL_X(e, n, t) \
    case DType::e: return n;
        TL_DTYPES(TL_X)
#undef TL_X
    }
    return "?";
}

std::optional<DType> parseDType(std::string_view name) {
#define TL_X(e, n, t) \
    if (name == n) return DType::e;
    TL_DTYPES(TL_X)
#undef TL_X
    return std::nullopt;
}

size_t dtypeSize(DType d) {
    return dispatchDType(d, [](auto v) { return sizeof(v); });
}

bool isFloat(DType d) { return d == DType::Float32 || d == DType::Float64; }
bool isInteger(DType d) { return !isFloat(d) && d != DType::Bool; }
bool isSigned(DType d) {
    return d == DType::Int8 || d == DType::Int16 || d == DType::Int32 || d == DType::Int64 || isFloat(d);
}

namespace {
int rank(DType d) {
    switch (d) {
    case DType::Bool: return 0;
    case DType::UInt8: return 1;
    case DType::Int8: return 1;
    case DType::Int16: return 2;
    case DType::Int32: return 3;
    case DType::Int64: return 4;
    case DType::Float32: return 5;
    case DType::Float64: return 6;
    }
    return 6;
}
} // namespace

DType promote(DType a, DType b) {
    if (a == b) return a;
    // NumPy: uint8 with a signed int needs the next wider signed type.
    if ((a == DType::UInt8 && b == DType::Int8) || (a == DType::Int8 && b == DType::UInt8))
        return DType::Int16;
    // NumPy: float32 with int32 or wider promotes to float64 (int16 fits float32 exactly).
    auto floatWithInt = [](DType f, DType i) {
        return f == DType::Float32 && (i == DType::Int32 || i == DType::Int64);
    };
    if (floatWithInt(a, b) || floatWithInt(b, a)) return DType::Float64;
    return rank(a) >= rank(b) ? a : b;
}

} // namespace tl
