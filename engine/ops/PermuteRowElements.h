#pragma once
// PermuteRowElements{inverse}(x, y): every row (last axis) of x reordered by the
// integer permutation in the matching row of y: out[..., k] = x[..., y[..., k]], or
// with inverse out[..., y[..., k]] = x[..., k]. x and y have the same number of
// dimensions (pt.permute_row_elements pads the smaller with broadcastable dims);
// leading dims of size 1 broadcast. Negative entries count from the end, as NumPy's
// indexing. Printed "PermuteRowElements{inverse=False}".
#include "ir/Op.h"

namespace tl {

class PermuteRowElementsOp final : public Op {
public:
    explicit PermuteRowElementsOp(bool inverse) : Op(OpKind::PermuteRowElements), m_inverse(inverse) {}
    bool inverse() const { return m_inverse; }
    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    nlohmann::json params() const override;

private:
    bool m_inverse;
};

OpPtr makePermuteRowElements(bool inverse);

} // namespace tl
