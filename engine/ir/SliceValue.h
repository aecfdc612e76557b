#pragma once
// The run-time values of the two non-tensor index types (ir/Type.h): what flows
// along a slice-typed or none-typed edge, so the executor, constants and kernels
// keep handling plain NDArrays.
//   slice(1, None, -1)  ->  int64 [[1, 0, -1], [1, 0, 1]]   (bounds, then which are given)
//   None                ->  an empty bool array of shape (0,)
// Both carry their NDArray::Role, so an int64 (2, 3) index array is never read as a slice.
#include "core/NDArray.h"
#include "ir/Type.h"

#include <optional>
#include <string>

namespace tl {

/// A Python slice: each bound given or None.
struct SliceBounds {
    std::optional<int64_t> start, stop, step;
    friend bool operator==(const SliceBounds&, const SliceBounds&) = default;
};

/// The value of a slice: int64 of shape (2, 3), row 0 the bounds (0 where None), row 1
/// 1 where a bound is given and 0 where it is None.
NDArray sliceValue(const SliceBounds& bounds);
/// The bounds `a` holds; nullopt when `a` is no slice value (wrong dtype, shape or flags).
std::optional<SliceBounds> readSliceValue(const NDArray& a);
/// The value of None: an empty bool array of shape (0,).
NDArray noneValue();
bool isNoneValue(const NDArray& a);

/// Whether `a` is a value of a variable of type `t` by kind: a slice value for a
/// slice type, None for a none type (tensor and scalar types: always true here; their
/// dtype and shape are checked by the caller).
bool valueFitsKind(const NDArray& a, const Type& t);

/// "1, 3, None": the bounds as PyTensor's SliceConstant prints them between braces.
std::string sliceBoundsText(const SliceBounds& bounds);

} // namespace tl
