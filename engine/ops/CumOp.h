#pragma once
// CumOp (pytensor/tensor/extra_ops.py): cumulative sum (mode add, pt.cumsum) or
// product (mode mul, pt.cumprod) along one axis, or over the flattened array
// (axis=None, giving a vector), in the input's dtype as PyTensor's C code
// (PyArray_CumSum with the input's type: integers wrap, bool adds as `or`).
// Printed CumOp{0, add}, CumOp{None, mul}, CumOp{-1, add}.
#include "ir/Op.h"

#include <optional>

namespace tl {

enum class CumMode { Add, Mul };

class CumOpOp final : public Op {
public:
    CumOpOp(std::optional<int> axis, CumMode mode);
    const std::optional<int>& axis() const { return m_axis; }
    CumMode mode() const { return m_mode; }

    std::string name() const override;
    /// axis=None: a vector of the input's size; otherwise the input's type. The axis
    /// must exist (-ndim <= axis < ndim).
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    /// {"axis": 0, "mode": "add"} ({"axis": null}: flattened).
    nlohmann::json params() const override;

private:
    std::optional<int> m_axis;
    CumMode m_mode;
};

OpPtr makeCumOp(std::optional<int> axis, CumMode mode);

} // namespace tl
