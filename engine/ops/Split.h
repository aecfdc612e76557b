#pragma once
// Split{n}(x, axis, splits): x cut along `axis` (0-d integer) into n parts of the
// lengths in `splits` (an integer vector of n entries summing to x's length there).
// Every output is a view of x (view_map {i: [0]}), as PyTensor's Split. Static
// lengths follow a constant axis and constant splits, as PyTensor's make_node.
// Printed "Split{3}".
#include "ir/Op.h"

namespace tl {

class SplitOp final : public Op {
public:
    explicit SplitOp(int numSplits) : Op(OpKind::Split), m_numSplits(numSplits) {}
    int numSplits() const { return m_numSplits; }
    std::string name() const override { return "Split{" + std::to_string(m_numSplits) + "}"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    std::vector<Type> inferTypesWithConstants(std::span<const Type* const> inputs,
                                              std::span<const NDArray* const> constants) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap viewMap() const override;
    nlohmann::json params() const override;

private:
    int m_numSplits;
};

/// Split into n parts; throws std::invalid_argument for n < 1.
OpPtr makeSplit(int numSplits);

} // namespace tl
