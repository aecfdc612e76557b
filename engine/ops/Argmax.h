#pragma once
// Argmax (pytensor/tensor/math.py): the index of the largest element over a list
// of axes (sorted, as PyTensor keeps them) or all of them, as int64, printed
// Argmax{axis=(1,)} / Argmax{axis=(0, 2)} / Argmax{axis=None}. Over several axes
// the index counts the reduced elements in C order, as PyTensor's perform does by
// moving them last and flattening them. Ties give the first index and NaN wins,
// as numpy.argmax. pt.argmin is built as PyTensor builds it, Argmax of -x
// (builder/Reductions.h).
#include "ir/Op.h"

#include <optional>
#include <vector>

namespace tl {

class ArgmaxOp final : public Op {
public:
    /// axes: nullopt = all; otherwise normalized non-negative, kept sorted.
    explicit ArgmaxOp(std::optional<std::vector<int>> axes);
    const std::optional<std::vector<int>>& axes() const { return m_axes; }

    std::string name() const override;
    /// One tensor input; the axes must exist in it. Output int64 of the kept dims.
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    /// A zero-size reduction is an error, as numpy.argmax of an empty sequence.
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    /// {"axis": [1]} ({"axis": null}: all axes).
    nlohmann::json params() const override;

private:
    std::optional<std::vector<int>> m_axes;
};

OpPtr makeArgmax(std::optional<std::vector<int>> axes);

} // namespace tl
