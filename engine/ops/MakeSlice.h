#pragma once
// MakeSlice(start, stop, step): PyTensor's slice builder for symbolic bounds among
// advanced indices (x[1:n, idx] builds AdvancedSubtensor(x, MakeSlice(1, n, NoneConst),
// idx)). Each input is an integer scalar (ScalarType or 0-d tensor) or None; the
// output is a slice (ir/SliceValue.h). Printed "MakeSlice".
#include "ir/Op.h"

namespace tl {

class MakeSliceOp final : public Op {
public:
    MakeSliceOp() : Op(OpKind::MakeSlice) {}
    std::string name() const override { return "MakeSlice"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    /// Throws ExecError for a zero step, as Python's slice indexing does when used.
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
};

/// MakeSlice: inputs (start, stop, step), each an integer scalar or None.
OpPtr makeMakeSlice();

} // namespace tl
