#pragma once
// PyTensor's IfElse (pytensor.ifelse.ifelse): inputs (condition, the n_outs values of
// the then-branch, the n_outs values of the else-branch); output k is then-value k when
// the 0-d condition is non-zero, else-value k otherwise. The executor evaluates it
// lazily, as PyTensor's VM does: what only the branch not taken needs is not computed
// (exec/LazyBranches.h). as_view (PyTensor's cond_make_inplace) makes output k a view of
// then-value k (view_map {k: [k + 1]}); the else-branch is always copied, as PyTensor does.
// Printed "if{}", "if{inplace}", "if{name}", "if{name,inplace}".
#include "ir/Op.h"

#include <optional>

namespace tl {

class IfElseOp final : public Op {
public:
    IfElseOp(int nOuts, bool asView, std::optional<std::string> name);
    int nOuts() const { return m_nOuts; }
    bool asView() const { return m_asView; }
    const std::optional<std::string>& branchName() const { return m_name; }

    std::string name() const override;
    /// Each then/else pair has one dtype and rank; a dim is static where both agree.
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    /// Reads only the chosen branch's inputs (the others may be empty: not computed).
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap viewMap() const override;
    nlohmann::json params() const override;

private:
    int m_nOuts;
    bool m_asView;
    std::optional<std::string> m_name;
};

/// IfElse: inputs (condition, then-values..., else-values...).
OpPtr makeIfElse(int nOuts, bool asView = false, std::optional<std::string> name = std::nullopt);

} // namespace tl
