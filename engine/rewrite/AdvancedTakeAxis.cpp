#include "rewrite/AdvancedTakeAxis.h"

#include "ir/SliceValue.h"

namespace tl::rw {

bool isFullSlice(const Variable& v) {
    if (!v.type().isSliceType()) return false;
    if (v.isConstant()) {
        auto b = readSliceValue(v.constantValue());
        return b && *b == SliceBounds{};
    }
    const Node* n = v.owner();
    if (!n || n->op().kind() != OpKind::MakeSlice) return false;
    for (const Variable* in : n->inputs())
        if (!in->type().isNoneType()) return false;
    return true;
}

std::optional<int> takeAxis(std::span<Variable* const> indices, std::string* why, bool anyRank) {
    std::optional<int> axis;
    for (size_t i = 0; i < indices.size(); ++i) {
        const Variable& v = *indices[i];
        if (isFullSlice(v)) continue;
        if (axis) {
            *why = "more than one index that is not a full slice";
            return std::nullopt;
        }
        if (!v.type().isTensorType()) {
            *why = "index " + std::to_string(i) + " is a " + v.type().toString() + ", not an integer array";
            return std::nullopt;
        }
        if (v.type().dtype == DType::Bool) {
            *why = "a boolean mask (PyTensor does not turn masks into AdvancedSubtensor1 either)";
            return std::nullopt;
        }
        if (anyRank ? v.type().ndim() < 1 : v.type().ndim() != 1) {
            *why = anyRank ? "the index is 0-d" : "the index is not a vector";
            return std::nullopt;
        }
        axis = static_cast<int>(i);
    }
    if (!axis) *why = "no integer index";
    return axis;
}

} // namespace tl::rw
