#pragma once
// CAReduce family: Sum, Max and Prod over a list of axes or all of them, printed
// as PyTensor: Sum{axes=None}, Sum{axis=0}, Max{axes=[0, 2]}. Sum and Prod upcast
// bool and small ints to int64 (PyTensor: uint8 -> uint64, not a tensorlens dtype,
// so int64) and accumulate float32 in float64; Max keeps the dtype and propagates NaN.
#include "ir/Op.h"

#include <optional>
#include <vector>

namespace tl {

enum class ReduceKind { Sum, Max, Prod };

class ReduceOp final : public Op {
public:
    /// axes: nullopt = all axes (printed axes=None); entries may be negative until
    /// applied (normalized against the input's ndim), must be distinct.
    ReduceOp(ReduceKind kind, std::optional<std::vector<int>> axes);
    ReduceKind reduceKind() const { return m_kind; }
    const std::optional<std::vector<int>>& axes() const { return m_axes; }
    /// The reduced axes for an ndim-d input, normalized and checked (throws OpTypeError).
    std::vector<int> reducedAxes(int ndim) const;

    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    nlohmann::json params() const override;

private:
    ReduceKind m_kind;
    std::optional<std::vector<int>> m_axes;
};

/// Output dtype of a reduction of `in`.
DType reduceOutputDType(ReduceKind kind, DType in);
OpPtr makeReduce(ReduceKind kind, std::optional<std::vector<int>> axes);

} // namespace tl
