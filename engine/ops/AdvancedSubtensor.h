#pragma once
// Advanced indexing reads (docs/ops.md#advanced-indexing), as PyTensor's ops:
//   AdvancedSubtensor1(x, ilist)        x[ilist] for an integer vector: rows of x (np.take on axis 0)
//   AdvancedSubtensor(x, idx...)        x[idx...] with integer arrays, boolean masks, slices, None
// The result is a new array (no view_map), as NumPy's advanced indexing copies.
// Out-of-range indices are an ExecError naming the index, axis and size.
#include "ops/AdvancedIndexing.h"
#include "ir/Op.h"

namespace tl {

class AdvancedSubtensor1Op final : public Op {
public:
    AdvancedSubtensor1Op() : Op(OpKind::AdvancedSubtensor1) {}
    std::string name() const override { return "AdvancedSubtensor1"; }
    /// x of rank >= 1, ilist an integer vector: (len(ilist), *x.shape[1:]).
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
};

class AdvancedSubtensorOp final : public Op {
public:
    AdvancedSubtensorOp() : Op(OpKind::AdvancedSubtensor) {}
    std::string name() const override { return "AdvancedSubtensor"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    /// Static lengths follow constant slices and constant masks (advindex::indexedType).
    std::vector<Type> inferTypesWithConstants(std::span<const Type* const> inputs,
                                              std::span<const NDArray* const> constants) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
};

/// AdvancedSubtensor1: inputs (x, ilist).
OpPtr makeAdvancedSubtensor1();
/// AdvancedSubtensor: inputs (x, indices...).
OpPtr makeAdvancedSubtensor();

/// The index kinds of an advanced-indexing node's index inputs (types after the first `skip` inputs).
std::vector<advindex::IndexKind> indexKindsOf(std::span<const NDArray> values, size_t skip, const std::string& opName);

} // namespace tl
