#pragma once
// Dot(a, b): matrix and vector products, (m,k)x(k,n) -> (m,n), (m,k)x(k) -> (m),
// (k)x(k,n) -> (n), (k)x(k) -> (). Output dtype: the upcast of the inputs.
#include "ops/Op.h"

namespace tl {

class DotOp final : public Op {
public:
    DotOp() : Op(OpKind::Dot) {}
    std::string name() const override { return "Dot"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(ExecContext& ctx, std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    /// dot(da, b) + dot(a, db) (PyTensor's Dot.R_op), one term when one tangent is missing.
    std::vector<Variable*> rop(GraphBuilder& b, const Node& node, std::span<Variable* const> tangents) const override;
};

OpPtr makeDot();

} // namespace tl
