#pragma once
// SortOp{kind}(x, axis) and ArgSortOp{kind}(x, axis): NumPy's sort and argsort along
// a 0-d integer axis (negative counts from the end; pt.sort(axis=None) flattens first
// and sorts axis 0, so the op never sees None). NaNs sort last, as NumPy. ArgSortOp
// gives int64 indices of x's shape, equal keys in NumPy 1.24's order: 'mergesort' and
// 'stable' keep them in place, 'quicksort' and 'heapsort' list them as NumPy's
// introsort and heapsort leave them (ops/NumpySortOrder.h).
// Printed "SortOp{kind='quicksort'}", "ArgSortOp{kind='quicksort'}".
#include "ir/Op.h"

namespace tl {

/// The kinds PyTensor accepts.
bool isSortKind(const std::string& kind);

class SortOp final : public Op {
public:
    SortOp(OpKind kind, std::string sortKind) : Op(kind), m_sortKind(std::move(sortKind)) {}
    const std::string& sortKind() const { return m_sortKind; }
    bool isArgSort() const { return kind() == OpKind::ArgSort; }
    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    nlohmann::json params() const override;

private:
    std::string m_sortKind;
};

/// SortOp / ArgSortOp: inputs (x, axis). Throws std::invalid_argument for an unknown kind.
OpPtr makeSort(const std::string& kind = "quicksort");
OpPtr makeArgSort(const std::string& kind = "quicksort");

/// NumPy's sort order of two values: a before b (NaN after every number).
template <typename T> bool numpyLess(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        if (a != a) return false;
        if (b != b) return true;
    }
    return a < b;
}

} // namespace tl
