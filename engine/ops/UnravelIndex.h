#pragma once
// UnravelIndex{order}(indices, dims): NumPy's unravel_index as PyTensor's op
// (pytensor/tensor/extra_ops.py): the coordinates of each flat index in an array of
// shape `dims`, read in C (row-major) or F (column-major) order. One int64 output
// per entry of dims, each of the indices' shape, so dims must have a static length
// (PyTensor's get_vector_length). An index outside [0, prod(dims)) is refused as
// NumPy refuses it ("index 42 is out of bounds for array with size 42").
// Printed "UnravelIndex{order='C'}".
#include "ir/Op.h"

namespace tl {

class UnravelIndexOp final : public Op {
public:
    explicit UnravelIndexOp(bool fortranOrder) : Op(OpKind::UnravelIndex), m_fortran(fortranOrder) {}
    bool fortranOrder() const { return m_fortran; }
    std::string name() const override { return std::string("UnravelIndex{order='") + (m_fortran ? "F" : "C") + "'}"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    nlohmann::json params() const override;

private:
    bool m_fortran;
};

/// order "C" or "F"; std::invalid_argument otherwise.
OpPtr makeUnravelIndex(const std::string& order = "C");

} // namespace tl
