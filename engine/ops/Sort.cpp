#include "ops/Sort.h"

#include "ops/ArrayOpUtil.h"
#include "ops/NumpySortOrder.h"
#include "ops/OpParamsJson.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace tl {

bool isSortKind(const std::string& k) { return k == "quicksort" || k == "mergesort" || k == "heapsort" || k == "stable"; }

std::string SortOp::name() const {
    return std::string(isArgSort() ? "ArgSortOp" : "SortOp") + "{kind=" + opparams::pyStr(m_sortKind) + "}";
}

std::vector<Type> SortOp::inferTypes(std::span<const Type* const> in) const {
    const std::string op = isArgSort() ? "ArgSortOp" : "SortOp";
    arrayop::requireArity(in, 2, op);
    arrayop::requireTensor(*in[0], op + " input");
    arrayop::requireIntScalar(*in[1], op + " axis");
    return {Type::tensor(isArgSort() ? DType::Int64 : in[0]->dtype, in[0]->shape)};
}

void SortOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const std::string op = isArgSort() ? "ArgSortOp" : "SortOp";
    const NDArray x = in[0].isContiguous() ? in[0] : in[0].copy();
    int64_t axis = arrayop::readInt(in[1], op + " axis");
    if (axis < -x.ndim() || axis >= x.ndim())
        throw ExecError(op + ": axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                        std::to_string(x.ndim()));
    if (axis < 0) axis += x.ndim();
    // Lanes along the axis: element i of lane (o, j) is at (o * n + i) * inner + j.
    int64_t outer = 1, inner = 1;
    const int64_t n = x.dim(static_cast<int>(axis));
    for (int d = 0; d < axis; ++d) outer *= x.dim(d);
    for (int d = static_cast<int>(axis) + 1; d < x.ndim(); ++d) inner *= x.dim(d);
    NDArray r = arrayop::reuseOrEmpty(out[0], isArgSort() ? DType::Int64 : x.dtype(), x.shape());
    dispatchDType(x.dtype(), [&](auto t) {
        using T = decltype(t);
        const T* src = x.data<T>();
        std::vector<int64_t> order(static_cast<size_t>(n));
        std::vector<T> keys(static_cast<size_t>(n));
        const auto less = [&](int64_t a, int64_t b) { return numpyLess(keys[a], keys[b]); };
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t j = 0; j < inner; ++j) {
                const T* lane = src + o * n * inner + j;
                for (int64_t i = 0; i < n; ++i) keys[i] = lane[i * inner];
                std::iota(order.begin(), order.end(), int64_t(0));
                // Values come out the same whichever order equal keys take; NumPy's
                // indices for them depend on the algorithm, which argsort follows.
                if (isArgSort() && m_sortKind == "quicksort") npsort::introsortIndices(order.data(), n, less);
                else if (isArgSort() && m_sortKind == "heapsort") npsort::heapsortIndices(order.data(), n, less);
                else std::stable_sort(order.begin(), order.end(), less);
                const int64_t base = o * n * inner + j;
                if (isArgSort()) {
                    int64_t* dst = r.data<int64_t>() + base;
                    for (int64_t i = 0; i < n; ++i) dst[i * inner] = order[i];
                } else {
                    T* dst = r.data<T>() + base;
                    for (int64_t i = 0; i < n; ++i) dst[i * inner] = lane[order[i] * inner];
                }
            }
    });
    out[0] = r;
}

namespace {
OpPtr makeSortKind(OpKind kind, const std::string& sortKind) {
    if (!isSortKind(sortKind))
        throw std::invalid_argument("kind must be one of quicksort, mergesort, heapsort, stable, got '" + sortKind + "'");
    return std::make_shared<SortOp>(kind, sortKind);
}
} // namespace

OpPtr makeSort(const std::string& kind) { return makeSortKind(OpKind::Sort, kind); }
OpPtr makeArgSort(const std::string& kind) { return makeSortKind(OpKind::ArgSort, kind); }

OpPtr makeOpSort(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {"kind"}, "SortOp");
    return makeSort(opparams::stringParam(params, "kind", "SortOp", "quicksort"));
}

OpPtr makeOpArgSort(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {"kind"}, "ArgSortOp");
    return makeArgSort(opparams::stringParam(params, "kind", "ArgSortOp", "quicksort"));
}

nlohmann::json SortOp::params() const { return {{"kind", m_sortKind}}; }

} // namespace tl
