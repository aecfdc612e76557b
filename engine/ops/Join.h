#pragma once
// Join(axis, t0, t1, ...): concatenation along `axis` (a 0-d integer input, usually a
// constant; negative counts from the end). Output dtype: the upcast of the inputs.
#include "ir/Op.h"

namespace tl {

class JoinOp final : public Op {
public:
    JoinOp() : Op(OpKind::Join) {}
    std::string name() const override { return "Join"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    std::vector<Type> inferTypesWithConstants(std::span<const Type* const> inputs,
                                              std::span<const NDArray* const> constants) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
};

OpPtr makeJoin();

} // namespace tl
