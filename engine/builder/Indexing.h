#pragma once
// Indexing and shape functions of the builder, as close to PyTensor's as C++ allows:
//   x[-1]            index(x, -1)              or subtensor(x, {-1})
//   x[1:]            slice(x, 1, std::nullopt) or subtensor(x, {Slice{1}})
//   x[i, ::-1]       subtensor(x, {i, Slice{std::nullopt, std::nullopt, -1}})
//   x[:2].set(y)     setSubtensor(slice(x, std::nullopt, 2), y)  or setSubtensor(x, y, {Slice{{}, 2}})
//   x.dimshuffle('x', 0)   dimshuffle(x, {-1, 0})
// Python ints become the constants PyTensor makes: int64 ScalarType constants for
// indices (printed `1 [id N] <int64>`), the smallest int dtype 0-d tensor constants
// for dims and axes (as `pt.as_tensor_variable(7)`: `7 [id M] <Scalar(int8, shape=())>`).
#include "builder/GraphBuilder.h"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tl {

/// A Python int or a graph variable, where PyTensor accepts either (indices, dims, axes).
class IntArg {
public:
    IntArg(int v) : m_v(static_cast<int64_t>(v)) {}
    IntArg(int64_t v) : m_v(v) {}
    IntArg(Var v) : m_v(std::move(v)) {}
    bool isVar() const { return std::holds_alternative<Var>(m_v); }
    int64_t value() const { return std::get<int64_t>(m_v); }
    const Var& var() const { return std::get<Var>(m_v); }

private:
    std::variant<int64_t, Var> m_v;
};

/// A slice start:stop:step; an absent part is Python's None: Slice{} is `:`,
/// Slice{1} is `1:`, Slice{std::nullopt, 2} is `:2`, Slice{std::nullopt, std::nullopt, -1} is `::-1`.
struct Slice {
    Slice(std::optional<IntArg> start = std::nullopt, std::optional<IntArg> stop = std::nullopt,
          std::optional<IntArg> step = std::nullopt)
        : start(std::move(start)), stop(std::move(stop)), step(std::move(step)) {}
    std::optional<IntArg> start, stop, step;
};

/// One entry of x[...]: an integer index (drops the axis) or a slice.
class Idx {
public:
    Idx(int v) : m_index(IntArg(v)) {}
    Idx(int64_t v) : m_index(IntArg(v)) {}
    Idx(Var v) : m_index(IntArg(std::move(v))) {}
    Idx(IntArg v) : m_index(std::move(v)) {}
    Idx(Slice s) : m_slice(std::move(s)) {}
    bool isSlice() const { return m_slice.has_value(); }
    const IntArg& index() const { return *m_index; }
    const Slice& slice() const { return *m_slice; }

private:
    std::optional<IntArg> m_index;
    std::optional<Slice> m_slice;
};

// ---- indexing --------------------------------------------------------------
/// x[idx...]: Subtensor. All-full slices return x itself, as PyTensor.
Var subtensor(Var x, const std::vector<Idx>& idx);
/// x[i]
Var index(Var x, IntArg i);
/// x[start:stop:step]
Var slice(Var x, std::optional<IntArg> start, std::optional<IntArg> stop, std::optional<IntArg> step = std::nullopt);
/// pt.set_subtensor(x[idx], y) / pt.inc_subtensor(x[idx], y).
Var setSubtensor(Var x, Var y, const std::vector<Idx>& idx, bool inplace = false);
Var incSubtensor(Var x, Var y, const std::vector<Idx>& idx, bool inplace = false);
/// The same, given the result of subtensor()/index()/slice() as PyTensor's first argument,
/// or of getItem() with advanced indices (builder/AdvancedIndexing.h: AdvancedIncSubtensor).
/// Throws std::invalid_argument when `sub` is not the output of a Subtensor or advanced indexing.
Var setSubtensor(Var sub, Var y);
Var incSubtensor(Var sub, Var y);

// ---- axes -------------------------------------------------------------------
/// x.dimshuffle(order) with -1 for 'x'.
Var dimshuffle(Var x, std::vector<int> order);
/// pt.expand_dims(x, axis): axes of the result (negative counts from its end).
Var expandDims(Var x, int axis);
Var expandDims(Var x, std::vector<int> axes);
/// pt.squeeze(x, axis): drops length-1 axes (all statically broadcastable ones when axes is empty).
Var squeeze(Var x, std::vector<int> axes = {});
/// Drops one length-1 axis (Squeeze{axis=a}).
Var dropDims(Var x, int axis);
/// x.transpose(axes); default reverses the axes. Returns x for the identity order.
Var transpose(Var x, std::optional<std::vector<int>> axes = std::nullopt);
/// Unbroadcast{axes} on the axes that are statically 1; x itself when there are none.
Var unbroadcast(Var x, std::vector<int> axes);

// ---- shapes -----------------------------------------------------------------
/// pt.specify_shape(x, shape); a std::nullopt dim is PyTensor's None (any length).
Var specifyShape(Var x, const std::vector<std::optional<IntArg>>& shape);
/// PyTensor's NoneConst (a None input: a SpecifyShape dim, a slice part), one per graph.
Var noneConst(GraphBuilder& b);
/// x.shape (Shape) and x.shape[i] as Shape_i{i}.
Var shape(Var x);
Var shapeI(Var x, int i);
/// x.reshape(shape): constant ints become an int64 vector constant; otherwise MakeVector.
Var reshape(Var x, const std::vector<IntArg>& shape);
/// pt.join(axis, *tensors); a single tensor is returned as is.
Var join(IntArg axis, const std::vector<Var>& tensors);

// ---- products and reductions -------------------------------------------------
Var dot(Var a, Var b);
/// Reductions over `axes` (negative count from the end), or all axes when nullopt.
Var sum(Var x, std::optional<std::vector<int>> axes = std::nullopt);
Var max(Var x, std::optional<std::vector<int>> axes = std::nullopt);
Var prod(Var x, std::optional<std::vector<int>> axes = std::nullopt);
/// pt.min: built as PyTensor builds it, -max(-x) (~max(~x) for unsigned ints), so
/// the graphs and their rewrites match. Bool is refused, as PyTensor does.
Var min(Var x, std::optional<std::vector<int>> axes = std::nullopt);
/// pt.mean: sum over `axes`, divided by each reduced dimension cast to float
/// (float32 for a float32 sum, else float64), one true_div per axis as PyTensor.
Var mean(Var x, std::optional<std::vector<int>> axes = std::nullopt);

// ---- allocation and misc ------------------------------------------------------
/// pt.alloc(value, *dims): value broadcast to dims. A double value becomes a float64 constant.
Var alloc(Var value, const std::vector<IntArg>& dims);
/// pt.empty(dims, dtype): AllocEmpty{dtype}.
Var allocEmpty(GraphBuilder& b, DType dtype, const std::vector<IntArg>& dims);
/// Zeros of x's dtype and shape: Alloc(0, dims) with constant dims where x's are static.
Var zerosLike(Var x);
Var deepCopy(Var x);
/// Assert{msg}(x, conds...): x, checked at run time.
Var assertOp(Var x, const std::vector<Var>& conds, std::string msg = "PyTensor Assert failed!");
Var scalarFromTensor(Var x);
Var tensorFromScalar(Var x);
/// MakeVector{dtype}(values...).
Var makeVector(GraphBuilder& b, const std::vector<Var>& values, DType dtype = DType::Int64);

/// A 0-d int tensor constant of the smallest dtype holding v (PyTensor's as_tensor_variable(int)).
Var intConstant(GraphBuilder& b, int64_t v);

} // namespace tl
