#pragma once
// Dot(a, b): matrix and vector products, (m,k)x(k,n) -> (m,n), (m,k)x(k) -> (m),
// (k)x(k,n) -> (n), (k)x(k) -> (). Output dtype: the upcast of the inputs.
#include "ir/Op.h"

namespace tl {

class DotOp final : public Op {
public:
    DotOp() : Op(OpKind::Dot) {}
    std::string name() const override { return "Dot"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
};

OpPtr makeDot();

} // namespace tl
