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
bool isUnsigned(DType d) {
    return d == DType::UInt8 || d == DType::UInt16 || d == DType::UInt32 || d == DType::UInt64;
}

namespace {
// The signed integer type of a width, for NumPy's unsigned-with-signed rule.
DType signedOfSize(size_t bytes) {
    switch (bytes) {
    case 1: return DType::Int8;
    case 2: return DType::Int16;
    case 4: return DType::Int32;
    default: return DType::Int64;
    }
}
} // namespace

// NumPy's promotion table, by kind and width: within a kind the wider type; bool
// yields to anything; an unsigned and a signed integer meet in the narrowest signed
// type holding both (int64 is too narrow for uint64, so float64); an integer and a
// float in the narrowest float holding the integer exactly enough as NumPy judges it
// (float32 for up to 16-bit integers, else float64).
DType promote(DType a, DType b) {
    if (a == b || b == DType::Bool) return a;
    if (a == DType::Bool) return b;
    const size_t sa = dtypeSize(a), sb = dtypeSize(b);
    if (isFloat(a) || isFloat(b)) {
        if (isFloat(a) && isFloat(b)) return sa >= sb ? a : b;
        const DType f = isFloat(a) ? a : b;
        const size_t intSize = isFloat(a) ? sb : sa;
        return f == DType::Float32 && intSize >= 4 ? DType::Float64 : f;
    }
    if (isUnsigned(a) == isUnsigned(b)) return sa >= sb ? a : b;
    const DType u = isUnsigned(a) ? a : b, s = isUnsigned(a) ? b : a;
    const size_t su = dtypeSize(u), ss = dtypeSize(s);
    if (ss > su) return s;
    if (su == 8) return DType::Float64;
    return signedOfSize(2 * su);
}

} // namespace tl
