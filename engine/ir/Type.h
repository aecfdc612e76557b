#pragma once
// The type of a graph variable: PyTensor's TensorType (dtype + static shape),
// ScalarType (the 0-d values of pytensor.scalar, printed as just the dtype), and
// the two index types advanced indexing takes besides tensors: SliceType (a
// slice start:stop:step, MakeSlice's output) and NoneTypeT (np.newaxis), whose
// run-time values are described in ir/SliceValue.h.
#include "core/DType.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tl {

/// A static dimension: a size >= 0, or kUnknownDim (printed "?").
inline constexpr int64_t kUnknownDim = -1;
using StaticShape = std::vector<int64_t>;

struct Type {
    enum class Kind : uint8_t { Tensor, Scalar, Slice, None };
    Kind kind = Kind::Tensor;
    DType dtype = DType::Float64;  // Slice: int64, None: bool (the dtypes of their values)
    StaticShape shape;             // empty for every kind but Tensor

    static Type tensor(DType d, StaticShape s) { return Type{Kind::Tensor, d, std::move(s)}; }
    static Type scalar(DType d) { return Type{Kind::Scalar, d, {}}; }
    /// PyTensor's SliceType (printed "slice").
    static Type slice() { return Type{Kind::Slice, DType::Int64, {}}; }
    /// PyTensor's NoneTypeT, the type of NoneConst (printed "NoneTypeT").
    static Type none() { return Type{Kind::None, DType::Bool, {}}; }

    bool isScalarType() const { return kind == Kind::Scalar; }
    bool isTensorType() const { return kind == Kind::Tensor; }
    bool isSliceType() const { return kind == Kind::Slice; }
    bool isNoneType() const { return kind == Kind::None; }
    /// A TensorType or ScalarType: a type with a dtype of its own (not slice or None).
    bool holdsNumbers() const { return kind == Kind::Tensor || kind == Kind::Scalar; }
    int ndim() const { return static_cast<int>(shape.size()); }
    /// PyTensor's broadcastable flag: the dimension is statically 1.
    bool broadcastable(int axis) const { return shape[axis] == 1; }
    bool fullyKnown() const;

    /// "Matrix(float64, shape=(?, 7))", "float64" for a scalar type, "slice", "NoneTypeT".
    std::string toString() const;
    /// "(?, 7)" as dprint's shape= and tuple syntax prints it ("(7,)" for one dim).
    static std::string shapeString(const StaticShape& s);

    /// True when a value of `other` is always acceptable where `this` is expected
    /// (same kind and dtype, every known dim of this equals other's).
    bool accepts(const Type& other) const;

    friend bool operator==(const Type&, const Type&) = default;
};

} // namespace tl
