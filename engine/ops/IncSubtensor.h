#pragma once
// x[idx] = y (SetSubtensor) and x[idx] += y (IncSubtensor), PyTensor's IncSubtensor:
// inputs (x, y, index values as for Subtensor); y broadcasts to the indexed region.
// Not inplace: the result is a copy of x. Inplace: destroys x (destroyMap {0: [0]})
// and the result is x's own storage, so every view of x sees the write. The inplace
// variant prints the same name (dprint shows it through d={0: [0]}).
#include "ops/Subtensor.h"

namespace tl {

class IncSubtensorOp final : public Op {
public:
    IncSubtensorOp(std::vector<IndexEntry> entries, bool setInsteadOfInc, bool inplace);
    const std::vector<IndexEntry>& entries() const { return m_entries; }
    bool setInsteadOfInc() const { return m_set; }
    bool inplace() const { return m_inplace; }

    /// "SetSubtensor{:stop}", "IncSubtensor{i}".
    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    std::vector<Type> inferTypesWithConstants(std::span<const Type* const> inputs,
                                              std::span<const NDArray* const> constants) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap destroyMap() const override;
    nlohmann::json params() const override;

private:
    std::vector<IndexEntry> m_entries;
    bool m_set;
    bool m_inplace;
};

/// IncSubtensor/SetSubtensor: inputs (x, y, one int scalar per Index entry and per present slice part).
OpPtr makeIncSubtensor(std::vector<IndexEntry> entries, bool setInsteadOfInc, bool inplace);

} // namespace tl
