#pragma once
// Nonzero(a): NumPy's nonzero as PyTensor's Nonzero: one int64 vector of indices per
// dimension of a (a.ndim >= 1), in C order of the non-zero elements (NaN counts as
// non-zero). Printed "Nonzero".
#include "ir/Op.h"

namespace tl {

class NonzeroOp final : public Op {
public:
    NonzeroOp() : Op(OpKind::Nonzero) {}
    std::string name() const override { return "Nonzero"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
};

OpPtr makeNonzero();

} // namespace tl
