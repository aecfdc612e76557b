#pragma once
// SpecifyShape(x, d0, d1, ...): x, with its shape asserted at run time and made
// static where the dims are constants. A view of x. A dim may be NoneConst
// (PyTensor's None: `specify_shape(x, (None, 2))`, and the gradient of a product
// whose factors' shapes are partly unknown): that dim is neither checked nor fixed.
#include "ir/Op.h"

namespace tl {

class SpecifyShapeOp final : public Op {
public:
    SpecifyShapeOp() : Op(OpKind::SpecifyShape) {}

    std::string name() const override { return "SpecifyShape"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    std::vector<Type> inferTypesWithConstants(std::span<const Type* const> inputs,
                                              std::span<const NDArray* const> constants) const override;
    /// Throws ExecError naming every dim that differs.
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap viewMap() const override { return {{0, {0}}}; }
};

OpPtr makeSpecifyShape();

} // namespace tl
