#pragma once
// Building blocks of the local rewrites (shape, useless, canonicalize, specialize):
// reading constants as PyTensor's get_underlying_scalar_constant_value does, and
// building Elemwise nodes through the Rewriter with Elemwise.make_node's rank
// alignment. Type-only twins let match() predict a result without mutating.
#include "ir/Rewriter.h"
#include "ops/ScalarOps.h"
#include "ops/Subtensor.h"

#include <optional>
#include <vector>

namespace tl::rw {

/// The constant behind `v`: v itself, or the constant under a chain of DimShuffles
/// (ExpandDims of a 0-d constant is the same value); null otherwise.
const Variable* constantBehind(const Variable& v);
/// PyTensor's TensorConstant.unique_value: the one value every element of the
/// constant behind `v` holds, as a 0-d array of its dtype; nullopt when `v` is not a
/// constant, is empty, or holds different values. For a one-element constant the
/// array is a view of it (constants never change; no allocation per question).
std::optional<NDArray> uniqueValue(const Variable& v);
/// True when the constant behind `v` holds `value` in every element (compared as double).
bool isConstantEqualTo(const Variable& v, double value);
/// The integer a constant 0-d input holds (indices, dims); nullopt otherwise.
std::optional<int64_t> constantIntOf(const Variable& v);

/// A 0-d array of `dtype` holding `value` (ints exact, no detour through double).
NDArray scalarArray(DType dtype, int64_t value);

/// One idx_list entry of a Subtensor node with its index inputs: `index` for an
/// Index entry, `start`, `stop`, `step` for a slice (null where a part is absent).
struct SubtensorPart {
    IndexEntry entry;
    Variable *index = nullptr, *start = nullptr, *stop = nullptr, *step = nullptr;
};
/// The entries of a Subtensor node, each with the inputs it consumes, in order.
std::vector<SubtensorPart> subtensorParts(const Node& subtensor);

/// `v` with leading broadcastable axes up to `ndim` (v itself when it has them).
Variable* expandLeft(Rewriter& rw, Variable* v, int ndim);
/// Elemwise `code` of `inputs`, lower-rank inputs expanded first.
Variable* makeElemwiseOf(Rewriter& rw, ScalarOpCode code, std::vector<Variable*> inputs,
                         DType castTo = DType::Float64);
/// DimShuffle{order}(v): `order` lists v's axes to keep, -1 for a new length-1 axis.
Variable* dimShuffle(Rewriter& rw, Variable* v, std::vector<int> order);
/// Reshape(v, MakeVector(dims)): `dims` are 0-d int64 values, one of them -1 at most.
/// Its type has the static dims the entries fold to, as PyTensor's make_node gives it.
Variable* reshapeTo(Rewriter& rw, Variable* v, std::vector<Variable*> dims);
/// `v` cast to `dtype` (v itself when it already has it).
Variable* castTo(Rewriter& rw, Variable* v, DType dtype);
/// A 0-d int64 tensor holding the 0-d integer `dim` (a constant, a cast, or a
/// TensorFromScalar of a ScalarType) -- what Shape_i returns.
Variable* asInt64Scalar(Rewriter& rw, Variable* dim);
/// An array of `dtype` holding `value` with the static shape of `like` where known and
/// Shape_i(like, d) elsewhere (PyTensor's alloc_like / broadcast_like); `like` must be a tensor.
Variable* fillLike(Rewriter& rw, const NDArray& value, Variable* like);
/// `value` of `dtype` in `like`'s shape: a 0-d constant for a 0-d `like`, else fillLike.
Variable* fullLike(Rewriter& rw, DType dtype, int64_t value, Variable* like);
/// Alloc(value, the dims of `like`) as fillLike builds them: `value` broadcast to like's shape.
Variable* allocLike(Rewriter& rw, Variable* value, Variable* like);
/// The length of axis `d` of the tensor `v`: an int64 constant where v's static shape
/// knows it, Shape_i(v) elsewhere.
Variable* dimOf(Rewriter& rw, Variable* v, int d);

/// PyTensor's NoneConst (a slice bound or a SpecifyShape dim left open): the graph's
/// own, or a new one when it has none.
Variable* noneConstant(Rewriter& rw);

/// Type-only twin of makeElemwiseOf: the output type, or nullopt when the op rejects the inputs.
std::optional<Type> elemwiseTypeOf(ScalarOpCode code, const std::vector<Type>& inputs,
                                   DType castTo = DType::Float64);
/// `t` with leading 1 dims up to `ndim`.
Type expandedType(const Type& t, int ndim);
/// Replace is allowed when either type accepts the other (Rewriter's rule).
bool compatibleTypes(const Type& a, const Type& b);
/// Same rank and same broadcastable pattern (static 1 dims): what PyTensor compares
/// before replacing with a rebuilt expression.
bool sameBroadcastPattern(const Type& a, const Type& b);

/// True for pt.matmul's op: a Blockwise of Dot with its two inputs.
bool isMatmul(const Node& node);
/// The Elemwise scalar op of a node (nullopt for other ops, Composites and inplace Elemwise).
std::optional<ScalarOpCode> plainElemwiseCode(const Node& node);
/// The node computing `v` when it is a plain Elemwise `code`; null otherwise.
Node* elemwiseOwner(const Variable& v, ScalarOpCode code);

/// For a plain `switch(cond, a, b)` node: 0 when `a` is a constant 0, else 1 when `b`
/// is (the branch the switch sinks keep); nullopt for any other node.
std::optional<int> zeroBranchOfSwitch(const Node& node);
/// `sw`'s switch with its other branch replaced by `other` (the zero branch kept in its
/// place): what the switch sinks build around a product or quotient.
Variable* switchKeepingZeroBranch(Rewriter& rw, const Node& sw, int zeroBranch, Variable* other);
/// switch(cond, value, NaN) cast to `dtype`: a function of its own inverse kept NaN
/// outside the inverse's domain (local_exp_log_nan_switch, local_sqrt_sqr).
Variable* valueOrNaN(Rewriter& rw, Variable* cond, Variable* value, DType dtype);
/// Type-only twin of switchKeepingZeroBranch.
std::optional<Type> switchKeepingZeroBranchType(const Node& sw, int zeroBranch, const Type& other);

/// For `pow(x, c)` whose exponent is a constant holding one value and does not
/// broadcast x (the result has x's shape, cast to the output dtype): that value.
/// Otherwise nullopt, and `why` says which condition failed.
std::optional<double> powExponentKeepingShape(const Node& node, const char*& why);

} // namespace tl::rw
