#include "ops/Softmax.h"

#include "ops/ArrayOpUtil.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace tl {

namespace {

const char* kindName(OpKind k) {
    return k == OpKind::Softmax ? "Softmax" : k == OpKind::LogSoftmax ? "LogSoftmax" : "SoftmaxGrad";
}

// The lines the op works along in a C-contiguous array: `outer` lines of `len`
// elements `inner` apart (the whole array is one line for axis=None).
struct Lines {
    int64_t outer = 1, len = 1, inner = 1;
};

Lines linesOf(const Shape& shape, const std::optional<int>& axis) {
    Lines l;
    if (!axis) {
        for (int64_t d : shape) l.len *= d;
        return l;
    }
    const int nd = static_cast<int>(shape.size());
    const int a = *axis < 0 ? *axis + nd : *axis;
    for (int d = 0; d < nd; ++d) {
        if (d < a) l.outer *= shape[d];
        else if (d == a) l.len = shape[d];
        else l.inner *= shape[d];
    }
    return l;
}

template <typename T> void softmaxLine(const T* x, T* y, int64_t n, int64_t s, bool log) {
    if (n == 0) return;
    T max = x[0];
    for (int64_t i = 1; i < n; ++i) max = x[i * s] > max ? x[i * s] : max;
    double sum = 0.0;
    if (log) {
        for (int64_t i = 0; i < n; ++i) {
            y[i * s] = static_cast<T>(x[i * s] - max);
            sum += std::exp(static_cast<double>(y[i * s]));
        }
        const double ls = std::log(sum);
        for (int64_t i = 0; i < n; ++i) y[i * s] = static_cast<T>(y[i * s] - ls);
        return;
    }
    for (int64_t i = 0; i < n; ++i) {
        y[i * s] = static_cast<T>(std::exp(static_cast<double>(x[i * s] - max)));
        sum += y[i * s];
    }
    const double inv = 1.0 / sum;
    for (int64_t i = 0; i < n; ++i) y[i * s] = static_cast<T>(y[i * s] * inv);
}

template <typename T> void softmaxGradLine(const T* dy, const T* sm, T* dx, int64_t n, int64_t s) {
    double sum = 0.0;
    for (int64_t i = 0; i < n; ++i) {
        dx[i * s] = static_cast<T>(dy[i * s] * sm[i * s]);
        sum += dx[i * s];
    }
    for (int64_t i = 0; i < n; ++i) dx[i * s] = static_cast<T>(dx[i * s] - sum * sm[i * s]);
}

} // namespace

SoftmaxOp::SoftmaxOp(OpKind kind, std::optional<int> axis) : Op(kind), m_axis(axis) {
    if (kind != OpKind::Softmax && kind != OpKind::LogSoftmax && kind != OpKind::SoftmaxGrad)
        throw std::invalid_argument("SoftmaxOp: not a softmax op kind");
}

std::string SoftmaxOp::name() const {
    return std::string(kindName(kind())) + "{axis=" + (m_axis ? std::to_string(*m_axis) : std::string("None")) + "}";
}

std::vector<Type> SoftmaxOp::inferTypes(std::span<const Type* const> in) const {
    const size_t n = kind() == OpKind::SoftmaxGrad ? 2 : 1;
    arrayop::requireArity(in, n, name());
    for (size_t i = 0; i < n; ++i) {
        arrayop::requireTensor(*in[i], name() + " input " + std::to_string(i));
        if (!isFloat(in[i]->dtype))
            throw OpTypeError(name() + ": input " + std::to_string(i) + " has dtype " + std::string(dtypeName(in[i]->dtype)) +
                              "; it takes float32 or float64, as PyTensor's C code (cast it first)");
    }
    const Type& x = *in[n - 1];
    if (m_axis && (*m_axis >= x.ndim() || *m_axis < -x.ndim()))
        throw OpTypeError(name() + " axis(=" + std::to_string(*m_axis) + ") out of bounds for " + std::to_string(x.ndim()) +
                          "D array");
    if (n == 2 && in[0]->ndim() != x.ndim())
        throw OpTypeError(name() + ": dy has " + std::to_string(in[0]->ndim()) + " dims and sm " + std::to_string(x.ndim()));
    return {x};
}

void SoftmaxOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const bool grad = kind() == OpKind::SoftmaxGrad;
    const NDArray& x = in[grad ? 1 : 0];
    if (grad && in[0].shape() != x.shape())
        throw ExecError(name() + ": dy has shape " + shapeToString(in[0].shape()) + " and sm " + shapeToString(x.shape()));
    const Lines l = linesOf(x.shape(), m_axis);
    NDArray r = arrayop::reuseOrEmpty(out[0], x.dtype(), x.shape());
    dispatchDType(x.dtype(), [&](auto t) {
        using T = decltype(t);
        if constexpr (std::is_floating_point_v<T>) {
            const NDArray xc = x.isContiguous() ? x : x.astype(x.dtype());
            const T* px = xc.data<T>();
            T* py = r.data<T>();
            NDArray dyc;
            if (grad) dyc = in[0].isContiguous() && in[0].dtype() == x.dtype() ? in[0] : in[0].astype(x.dtype());
            for (int64_t o = 0; o < l.outer; ++o)
                for (int64_t j = 0; j < l.inner; ++j) {
                    const int64_t start = o * l.len * l.inner + j;
                    if (grad) softmaxGradLine(dyc.data<T>() + start, px + start, py + start, l.len, l.inner);
                    else softmaxLine(px + start, py + start, l.len, l.inner, kind() == OpKind::LogSoftmax);
                }
        } else {
            throw ExecError(name() + ": takes float32 or float64");
        }
    });
    out[0] = r;
}

nlohmann::json SoftmaxOp::params() const { return {{"axis", m_axis ? nlohmann::json(*m_axis) : nlohmann::json(nullptr)}}; }

OpPtr makeSoftmax(std::optional<int> axis) { return std::make_shared<SoftmaxOp>(OpKind::Softmax, axis); }
OpPtr makeLogSoftmax(std::optional<int> axis) { return std::make_shared<SoftmaxOp>(OpKind::LogSoftmax, axis); }
OpPtr makeSoftmaxGrad(std::optional<int> axis) { return std::make_shared<SoftmaxOp>(OpKind::SoftmaxGrad, axis); }

namespace {
OpPtr fromJson(OpKind kind, const nlohmann::json& params, const std::shared_ptr<const Graph>& inner) {
    const std::string what = kindName(kind);
    if (inner) throw std::invalid_argument(what + " params: " + what + " has no inner graph");
    const auto& axis = arrayop::requireParam(params, "axis", what);
    if (axis.is_null()) return std::make_shared<SoftmaxOp>(kind, std::nullopt);
    if (!axis.is_number_integer()) throw std::invalid_argument(what + " params: /axis must be an integer or null");
    return std::make_shared<SoftmaxOp>(kind, axis.get<int>());
}
} // namespace

OpPtr makeOpSoftmax(const nlohmann::json& params, std::shared_ptr<const Graph> inner) { return fromJson(OpKind::Softmax, params, inner); }
OpPtr makeOpLogSoftmax(const nlohmann::json& params, std::shared_ptr<const Graph> inner) {
    return fromJson(OpKind::LogSoftmax, params, inner);
}
OpPtr makeOpSoftmaxGrad(const nlohmann::json& params, std::shared_ptr<const Graph> inner) {
    return fromJson(OpKind::SoftmaxGrad, params, inner);
}

} // namespace tl
