#pragma once
// Alloc(value, d0, d1, ...): a new array of shape (d0, d1, ...) filled by broadcasting
// value; AllocEmpty{dtype}(d0, d1, ...): a new uninitialised array. Dims are 0-d
// integer inputs; constant dims make the output's static shape.
#include "ir/Op.h"

namespace tl {

class AllocOp final : public Op {
public:
    AllocOp() : Op(OpKind::Alloc) {}
    std::string name() const override { return "Alloc"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    std::vector<Type> inferTypesWithConstants(std::span<const Type* const> inputs,
                                              std::span<const NDArray* const> constants) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
};

class AllocEmptyOp final : public Op {
public:
    explicit AllocEmptyOp(DType dtype) : Op(OpKind::AllocEmpty), m_dtype(dtype) {}
    DType dtype() const { return m_dtype; }
    std::string name() const override { return "AllocEmpty{dtype='" + std::string(dtypeName(m_dtype)) + "'}"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    std::vector<Type> inferTypesWithConstants(std::span<const Type* const> inputs,
                                              std::span<const NDArray* const> constants) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    nlohmann::json params() const override;

private:
    DType m_dtype;
};

/// Alloc: inputs (value, dim0, dim1, ...), dims 0-d integers.
OpPtr makeAlloc();
/// AllocEmpty{dtype}: inputs (dim0, dim1, ...).
OpPtr makeAllocEmpty(DType dtype);

} // namespace tl
