#pragma once
// Bartlett(M): NumPy's bartlett window of M points, as PyTensor's Bartlett: a 0-d
// integer input, a float64 vector of unknown static length (M <= 0 gives an empty
// window). Printed "Bartlett".
#include "ir/Op.h"

namespace tl {

class BartlettOp final : public Op {
public:
    BartlettOp() : Op(OpKind::Bartlett) {}
    std::string name() const override { return "Bartlett"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
};

OpPtr makeBartlett();

} // namespace tl
