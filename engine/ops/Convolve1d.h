#pragma once
// Convolve1d(in1, in2, full_mode): NumPy's convolve of two vectors, as PyTensor's
// pytensor.tensor.signal Convolve1d: mode 'full' (length n + k - 1) when the 0-d
// bool full_mode is true, 'valid' (length max(n, k) - min(n, k) + 1) otherwise.
// Output dtype: the upcast of the inputs; static length from known lengths and a
// constant mode. pytensor's convolve1d wraps it in Blockwise for batched inputs.
// Printed "Convolve1d".
#include "ir/Op.h"

namespace tl {

class Convolve1dOp final : public Op {
public:
    Convolve1dOp() : Op(OpKind::Convolve1d) {}
    std::string name() const override { return "Convolve1d"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    std::vector<Type> inferTypesWithConstants(std::span<const Type* const> inputs,
                                              std::span<const NDArray* const> constants) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
};

OpPtr makeConvolve1d();

} // namespace tl
