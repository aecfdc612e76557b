#pragma once
// Repeat{axis}(x, repeats): NumPy's repeat as PyTensor's Repeat. `repeats` is a 0-d
// or 1-d integer (one count per element along the axis, or one for all); axis None
// repeats the flattened x. PyTensor's pt.repeat builds this op only for a vector of
// counts; a single count becomes Alloc + Reshape (builder/ArrayOps.h does the same).
// Printed "Repeat{axis=None}", "Repeat{axis=0}".
#include "ir/Op.h"

#include <optional>

namespace tl {

class RepeatOp final : public Op {
public:
    explicit RepeatOp(std::optional<int> axis) : Op(OpKind::Repeat), m_axis(axis) {}
    std::optional<int> axis() const { return m_axis; }
    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    std::vector<Type> inferTypesWithConstants(std::span<const Type* const> inputs,
                                              std::span<const NDArray* const> constants) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    nlohmann::json params() const override;

private:
    std::optional<int> m_axis;
};

/// Repeat along `axis` (>= 0) or the flattened input (nullopt); throws
/// std::invalid_argument for a negative axis, as PyTensor.
OpPtr makeRepeat(std::optional<int> axis);

} // namespace tl
