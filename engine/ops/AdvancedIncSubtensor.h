#pragma once
// Advanced indexing writes (docs/ops.md#advanced-indexing), as PyTensor's ops:
//   AdvancedIncSubtensor1{no_inplace,inc}(x, y, ilist)   x[ilist] += y along axis 0; repeated rows accumulate (np.add.at)
//   AdvancedIncSubtensor1{inplace,set}(x, y, ilist)       x[ilist] = y, written into x itself
//   AdvancedIncSubtensor(x, y, idx...) / AdvancedSetSubtensor(x, y, idx...)   any advanced index
// inc accumulates repeated indices as np.add.at, unless ignore_duplicates (then x[idx] += y:
// each element is written once, from x's value before the write); set lets the last write
// win. y broadcasts to the indexed region and is cast to x's dtype. Not inplace, the
// result is a copy of x; inplace, it destroys x (destroy_map {0: [0]}) and is x's storage.
#include "ir/Op.h"

namespace tl {

class AdvancedIncSubtensor1Op final : public Op {
public:
    AdvancedIncSubtensor1Op(bool inplace, bool setInsteadOfInc);
    bool inplace() const { return m_inplace; }
    bool setInsteadOfInc() const { return m_set; }

    /// "AdvancedIncSubtensor1{no_inplace,inc}", "AdvancedIncSubtensor1{inplace,set}".
    std::string name() const override;
    /// x of rank >= 1, y of rank <= x's, ilist an integer vector; the result has x's type.
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    /// y broadcasts to (len(ilist), *x.shape[1:]) by NumPy's rules. (PyTensor 2.34 also
    /// refuses to stretch a length-1 dim its type does not mark broadcastable; a kernel sees
    /// no types, so tensorlens computes those cases.)
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap destroyMap() const override;
    nlohmann::json params() const override;

private:
    bool m_inplace, m_set;
};

class AdvancedIncSubtensorOp final : public Op {
public:
    AdvancedIncSubtensorOp(bool inplace, bool setInsteadOfInc, bool ignoreDuplicates);
    bool inplace() const { return m_inplace; }
    bool setInsteadOfInc() const { return m_set; }
    bool ignoreDuplicates() const { return m_ignoreDuplicates; }

    /// "AdvancedSetSubtensor" or "AdvancedIncSubtensor" (PyTensor prints no flags; d= shows inplace).
    std::string name() const override { return m_set ? "AdvancedSetSubtensor" : "AdvancedIncSubtensor"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    std::vector<Type> inferTypesWithConstants(std::span<const Type* const> inputs,
                                              std::span<const NDArray* const> constants) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap destroyMap() const override;
    nlohmann::json params() const override;

private:
    bool m_inplace, m_set, m_ignoreDuplicates;
};

/// AdvancedIncSubtensor1: inputs (x, y, ilist).
OpPtr makeAdvancedIncSubtensor1(bool inplace, bool setInsteadOfInc);
/// AdvancedIncSubtensor: inputs (x, y, indices...).
OpPtr makeAdvancedIncSubtensor(bool inplace, bool setInsteadOfInc, bool ignoreDuplicates = false);

} // namespace tl
