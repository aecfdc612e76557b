#pragma once
// ARange{dtype}(start, stop, step): NumPy's arange as PyTensor's ARange. The three
// inputs are 0-d numbers; the output is a vector of `dtype` whose length is
// max(ceil((stop - start) / step), 0), static when all three are constants (as
// PyTensor's make_node). Printed "ARange{dtype='int64'}".
#include "ir/Op.h"

namespace tl {

class ARangeOp final : public Op {
public:
    explicit ARangeOp(DType dtype) : Op(OpKind::ARange), m_dtype(dtype) {}
    DType dtype() const { return m_dtype; }
    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    std::vector<Type> inferTypesWithConstants(std::span<const Type* const> inputs,
                                              std::span<const NDArray* const> constants) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    nlohmann::json params() const override;

private:
    DType m_dtype;
};

/// ARange of this output dtype: inputs (start, stop, step).
OpPtr makeARange(DType dtype);

/// NumPy's arange length for these bounds; throws std::invalid_argument for a zero
/// or non-finite step, or a length that does not fit.
int64_t arangeLength(double start, double stop, double step);

} // namespace tl
