#pragma once
// Small helpers shared by the shape/indexing op families (DimShuffle, Subtensor,
// Alloc, Reduce, ...): reading integer inputs, JSON params, strided loops.
#include "core/NDArray.h"
#include "core/StridedWalk.h"
#include "ir/Type.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tl::arrayop {

/// True for an integer (not bool) dtype.
bool isIntDType(DType d);
/// A 0-d integer value: ScalarType int or 0-d TensorType int (indices, dims, axes).
bool isIntScalarLike(const Type& t);
/// Throws OpTypeError "<what> must be a 0-d integer, got <type>" unless isIntScalarLike.
void requireIntScalar(const Type& t, const std::string& what);
/// Throws OpTypeError unless there are exactly / at least n inputs.
void requireArity(std::span<const Type* const> types, size_t n, const std::string& opName);
void requireMinArity(std::span<const Type* const> types, size_t n, const std::string& opName);
/// Throws OpTypeError unless t is a TensorType.
void requireTensor(const Type& t, const std::string& what);

/// The integer held by a constant input (null when the input is not constant).
std::optional<int64_t> constantInt(const NDArray* value);
/// The integer value of a 0-d integer array at run time.
int64_t readInt(const NDArray& a, const std::string& what);

/// Smallest signed int dtype holding v, as PyTensor's `as_tensor_variable(int)` picks.
DType smallestIntDType(int64_t v);

/// `params[key]` or std::invalid_argument naming the op and the key.
const nlohmann::json& requireParam(const nlohmann::json& params, const char* key, const std::string& opName);
/// A list of ints under `key`; std::invalid_argument naming op, key and entry otherwise.
std::vector<int> intListParam(const nlohmann::json& params, const char* key, const std::string& opName);

/// `out` if it already holds a C-contiguous array of this dtype and shape that no
/// other array shares (PyTensor's storage reuse); otherwise a new uninitialised array.
NDArray reuseOrEmpty(NDArray& out, DType dtype, const Shape& shape);

/// A read-only view of `a` broadcast to `shape` (NumPy rules, strides 0 on new and
/// size-1 dims); throws ExecError starting with `where` when the shapes do not broadcast.
NDArray broadcastView(const NDArray& a, const Shape& shape, const std::string& where);

using ::tl::forEachOffsetPair;  // core/StridedWalk.h

/// "(2, ?, 7)": a static shape as dprint prints it.
std::string staticShapeString(const StaticShape& s);

} // namespace tl::arrayop
