#include "ir/SliceValue.h"

namespace tl {

NDArray sliceValue(const SliceBounds& b) {
    NDArray a = NDArray::zeros(DType::Int64, {2, 3});
    int64_t* d = a.data<int64_t>();
    const std::optional<int64_t>* parts[3] = {&b.start, &b.stop, &b.step};
    for (int k = 0; k < 3; ++k) {
        if (!parts[k]->has_value()) continue;
        d[k] = **parts[k];
        d[3 + k] = 1;
    }
    return a.withRole(NDArray::Role::Slice);
}

std::optional<SliceBounds> readSliceValue(const NDArray& a) {
    if (!a.valid() || a.role() != NDArray::Role::Slice || a.dtype() != DType::Int64 || a.ndim() != 2 || a.dim(0) != 2 ||
        a.dim(1) != 3)
        return std::nullopt;
    SliceBounds b;
    std::optional<int64_t>* parts[3] = {&b.start, &b.stop, &b.step};
    for (int64_t k = 0; k < 3; ++k) {
        const int64_t flag[] = {1, k};
        const int64_t given = static_cast<int64_t>(a.get(flag));
        if (given != 0 && given != 1) return std::nullopt;
        if (given) *parts[k] = a.data<int64_t>()[a.strides()[1] * k];
    }
    return b;
}

NDArray noneValue() { return NDArray::empty(DType::Bool, {0}).withRole(NDArray::Role::None); }

bool isNoneValue(const NDArray& a) { return a.valid() && a.role() == NDArray::Role::None; }

bool valueFitsKind(const NDArray& a, const Type& t) {
    if (t.isSliceType()) return readSliceValue(a).has_value();
    if (t.isNoneType()) return isNoneValue(a);
    return true;
}

std::string sliceBoundsText(const SliceBounds& b) {
    auto part = [](const std::optional<int64_t>& v) { return v ? std::to_string(*v) : std::string("None"); };
    return part(b.start) + ", " + part(b.stop) + ", " + part(b.step);
}

} // namespace tl
