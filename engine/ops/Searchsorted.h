#pragma once
// SearchsortedOp{side}(x, v[, sorter]): NumPy's searchsorted: for each element of v
// the insertion index into the sorted vector x (or x ordered by the integer vector
// `sorter`), the first such index for side 'left', the last for 'right'. Values of
// different dtypes compare as NumPy's common type; NaN sorts after every number.
// The output is int64 of v's shape. Printed "SearchsortedOp{side='left'}".
#include "ir/Op.h"

namespace tl {

class SearchsortedOp final : public Op {
public:
    explicit SearchsortedOp(bool right) : Op(OpKind::Searchsorted), m_right(right) {}
    bool right() const { return m_right; }
    std::string name() const override { return std::string("SearchsortedOp{side='") + (m_right ? "right" : "left") + "'}"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    nlohmann::json params() const override;

private:
    bool m_right;
};

/// side "left" or "right"; std::invalid_argument otherwise.
OpPtr makeSearchsorted(const std::string& side = "left");

} // namespace tl
