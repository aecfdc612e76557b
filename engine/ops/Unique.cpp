#include "ops/Unique.h"

#include "ops/ArrayOpUtil.h"
#include "ops/OpParamsJson.h"
#include "ops/Sort.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>

namespace tl {

std::string UniqueOp::name() const {
    using opparams::pyBool;
    return std::string("Unique{return_index=") + pyBool(m_opt.returnIndex) + ", return_inverse=" +
           pyBool(m_opt.returnInverse) + ", return_counts=" + pyBool(m_opt.returnCounts) +
           ", axis=" + (m_opt.axis ? std::to_string(*m_opt.axis) : std::string("None")) + "}";
}

std::vector<Type> UniqueOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 1, "Unique");
    const Type& x = *in[0];
    arrayop::requireTensor(x, "Unique input");
    StaticShape shape{kUnknownDim};
    if (m_opt.axis) {
        if (*m_opt.axis >= x.ndim())
            throw OpTypeError("Unique: axis " + std::to_string(*m_opt.axis) + " out of range for input " + x.toString());
        shape = x.shape;
        shape[*m_opt.axis] = kUnknownDim;
    }
    std::vector<Type> out{Type::tensor(x.dtype, shape)};
    const int extra = int(m_opt.returnIndex) + int(m_opt.returnInverse) + int(m_opt.returnCounts);
    for (int i = 0; i < extra; ++i) out.push_back(Type::tensor(DType::Int64, {kUnknownDim}));
    return out;
}

namespace {
// The NumPy order of slices a and b (each `len` elements at stride 1): lexicographic.
template <typename T> int compareSlices(const T* a, const T* b, int64_t len) {
    for (int64_t i = 0; i < len; ++i) {
        if (numpyLess(a[i], b[i])) return -1;
        if (numpyLess(b[i], a[i])) return 1;
    }
    return 0;
}

template <typename T> bool sameValue(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
        if (a != a && b != b) return true;  // equal_nan
    return a == b;
}
} // namespace

void UniqueOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& x0 = in[0];
    if (m_opt.axis && *m_opt.axis >= x0.ndim())
        throw ExecError("Unique: axis " + std::to_string(*m_opt.axis) + " out of range for shape " + shapeToString(x0.shape()));
    // Items to unique: n slices of `len` elements each, laid out contiguously (the axis
    // moved first for axis != None; single elements of the flattened x otherwise).
    NDArray items;
    int64_t n = x0.size(), len = 1;
    Shape sliceShape;
    if (m_opt.axis) {
        const int ax = *m_opt.axis;
        Shape shape{x0.dim(ax)};
        Strides strides{x0.strides()[ax]};
        for (int d = 0; d < x0.ndim(); ++d)
            if (d != ax) {
                shape.push_back(x0.dim(d));
                strides.push_back(x0.strides()[d]);
                sliceShape.push_back(x0.dim(d));
            }
        items = x0.view(shape, strides, x0.offset()).copy();
        n = x0.dim(ax);
        len = n == 0 ? 0 : items.size() / n;
    } else {
        items = x0.copy();
    }
    std::vector<int64_t> order(static_cast<size_t>(n)), groupOf(static_cast<size_t>(n));
    std::vector<int64_t> firsts, counts;
    dispatchDType(items.dtype(), [&](auto t) {
        using T = decltype(t);
        const T* p = items.data<T>();
        std::iota(order.begin(), order.end(), int64_t(0));
        // Stable, so the first element of each group is its first occurrence.
        std::stable_sort(order.begin(), order.end(),
                         [&](int64_t a, int64_t b) { return compareSlices(p + a * len, p + b * len, len) < 0; });
        for (int64_t k = 0; k < n; ++k) {
            const int64_t i = order[k];
            bool same = k > 0;
            for (int64_t e = 0; same && e < len; ++e) same = sameValue(p[i * len + e], p[order[k - 1] * len + e]);
            if (!same) {
                firsts.push_back(i);
                counts.push_back(0);
            }
            counts.back() += 1;
            groupOf[i] = static_cast<int64_t>(firsts.size()) - 1;
        }
    });
    const int64_t u = static_cast<int64_t>(firsts.size());
    // The unique values, with the axis moved back into place.
    Shape uniqShape{u};
    uniqShape.insert(uniqShape.end(), sliceShape.begin(), sliceShape.end());
    NDArray uniq = NDArray::empty(items.dtype(), uniqShape);
    const size_t bytes = static_cast<size_t>(len) * dtypeSize(items.dtype());
    for (int64_t g = 0; g < u; ++g)
        std::memcpy(static_cast<char*>(uniq.rawData()) + g * bytes, static_cast<const char*>(items.rawData()) + firsts[g] * bytes,
                    bytes);
    if (m_opt.axis && *m_opt.axis != 0) {
        Shape shape;
        Strides strides;
        int rest = 1;
        for (int d = 0; d < x0.ndim(); ++d) {
            const int src = d == *m_opt.axis ? 0 : rest++;
            shape.push_back(uniq.dim(src));
            strides.push_back(uniq.strides()[src]);
        }
        uniq = uniq.view(shape, strides, 0).copy();
    }
    int k = 0;
    out[k++] = uniq;
    auto vec = [](const std::vector<int64_t>& v) {
        NDArray a = NDArray::empty(DType::Int64, {static_cast<int64_t>(v.size())});
        std::copy(v.begin(), v.end(), a.data<int64_t>());
        return a;
    };
    if (m_opt.returnIndex) out[k++] = vec(firsts);
    if (m_opt.returnInverse) out[k++] = vec(groupOf);
    if (m_opt.returnCounts) out[k++] = vec(counts);
}

nlohmann::json UniqueOp::params() const {
    return {{"return_index", m_opt.returnIndex},
            {"return_inverse", m_opt.returnInverse},
            {"return_counts", m_opt.returnCounts},
            {"axis", m_opt.axis ? nlohmann::json(*m_opt.axis) : nlohmann::json(nullptr)}};
}

OpPtr makeUnique(UniqueOptions options) {
    if (options.axis && *options.axis < 0) throw std::invalid_argument("Unique: axis cannot be negative");
    return std::make_shared<UniqueOp>(options);
}

OpPtr makeOpUnique(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    const std::string op = "Unique";
    opparams::allowOnly(params, {"return_index", "return_inverse", "return_counts", "axis"}, op);
    UniqueOptions o;
    o.returnIndex = opparams::boolParam(params, "return_index", op, false);
    o.returnInverse = opparams::boolParam(params, "return_inverse", op, false);
    o.returnCounts = opparams::boolParam(params, "return_counts", op, false);
    auto axis = opparams::optionalIntParam(params, "axis", op);
    if (axis && (*axis < 0 || *axis > 64)) throw std::invalid_argument("Unique params: \"axis\" must be None or 0..64");
    if (axis) o.axis = static_cast<int>(*axis);
    return makeUnique(o);
}

} // namespace tl
