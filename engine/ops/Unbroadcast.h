#pragma once
// Unbroadcast{0}: forgets that the listed axes are statically 1 (PyTensor <= 2.28's
// Unbroadcast, still printed by the seed's listings). A view of its input.
#include "ir/Op.h"

#include <vector>

namespace tl {

class UnbroadcastOp final : public Op {
public:
    /// Axes are sorted, as PyTensor does, so equal ops merge.
    explicit UnbroadcastOp(std::vector<int> axes);
    const std::vector<int>& axes() const { return m_axes; }

    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap viewMap() const override { return {{0, {0}}}; }
    nlohmann::json params() const override;

private:
    std::vector<int> m_axes;
};

OpPtr makeUnbroadcast(std::vector<int> axes);

} // namespace tl
