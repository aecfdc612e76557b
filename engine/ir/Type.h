#pragma once
// The type of a graph variable: PyTensor's TensorType (dtype + static shape)
// or ScalarType (the 0-d values of pytensor.scalar, printed as just the dtype).
#include "core/DType.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tl {

/// A static dimension: a size >= 0, or kUnknownDim (printed "?").
inline constexpr int64_t kUnknownDim = -1;
using StaticShape = std::vector<int64_t>;

struct Type {
    enum class Kind : uint8_t { Tensor, Scalar };
    Kind kind = Kind::Tensor;
    DType dtype = DType::Float64;
    StaticShape shape;  // empty for Kind::Scalar

    static Type tensor(DType d, StaticShape s) { return Type{Kind::Tensor, d, std::move(s)}; }
    static Type scalar(DType d) { return Type{Kind::Scalar, d, {}}; }

    bool isScalarType() const { return kind == Kind::Scalar; }
    int ndim() const { return static_cast<int>(shape.size()); }
    /// PyTensor's broadcastable flag: the dimension is statically 1.
    bool broadcastable(int axis) const { return shape[axis] == 1; }
    bool fullyKnown() const;

    /// "Matrix(float64, shape=(?, 7))", or "float64" for a scalar type.
    std::string toString() const;
    /// "(?, 7)" as dprint's shape= and tuple syntax prints it ("(7,)" for one dim).
    static std::string shapeString(const StaticShape& s);

    /// True when a value of `other` is always acceptable where `this` is expected
    /// (same kind and dtype, every known dim of this equals other's).
    bool accepts(const Type& other) const;

    friend bool operator==(const Type&, const Type&) = default;
};

} // namespace tl
