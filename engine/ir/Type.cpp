#include "ir/Type.h"

namespace tl {

bool Type::fullyKnown() const {
    for (int64_t d : shape)
        if (d == kUnknownDim) return false;
    return true;
}

std::string Type::shapeString(const StaticShape& s) {
    std::string out = "(";
    for (size_t i = 0; i < s.size(); ++i) {
        if (i) out += ", ";
        out += s[i] == kUnknownDim ? std::string("?") : std::to_string(s[i]);
    }
    if (s.size() == 1) out += ",";
    return out + ")";
}

std::string Type::toString() const {
    if (isScalarType()) return std::string(dtypeName(dtype));
    if (isSliceType()) return "slice";
    if (isNoneType()) return "NoneTypeT";
    static const char* const kNames[] = {"Scalar", "Vector", "Matrix"};
    std::string base = ndim() <= 2 ? kNames[ndim()] : "Tensor" + std::to_string(ndim());
    return base + "(" + std::string(dtypeName(dtype)) + ", shape=" + shapeString(shape) + ")";
}

bool Type::accepts(const Type& other) const {
    if (kind != other.kind || dtype != other.dtype || shape.size() != other.shape.size()) return false;
    for (size_t i = 0; i < shape.size(); ++i)
        if (shape[i] != kUnknownDim && shape[i] != other.shape[i]) return false;
    return true;
}

} // namespace tl
