#include "ops/Reduce.h"

#include "ops/ArrayOpUtil.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace tl {

namespace {
const char* kindName(ReduceKind k) { return k == ReduceKind::Sum ? "Sum" : k == ReduceKind::Max ? "Max" : "Prod"; }

/// The accumulator of Sum/Prod: float64 for floats, wrapping uint64 for integers
/// (int64 arithmetic overflow would be undefined behaviour; NumPy wraps).
template <typename T> using AccOf = std::conditional_t<std::is_floating_point_v<T>, double, uint64_t>;

template <typename T, typename O>
void reduceArith(ReduceKind kind, const NDArray& x, const Strides& map, NDArray& out) {
    using Acc = AccOf<T>;
    std::vector<Acc> acc(static_cast<size_t>(out.size()), kind == ReduceKind::Sum ? Acc(0) : Acc(1));
    const T* px = x.data<T>();
    arrayop::forEachOffsetPair(x.shape(), x.strides(), 0, map, 0, [&](int64_t a, int64_t o) {
        const Acc v = static_cast<Acc>(px[a]);
        if (kind == ReduceKind::Sum) acc[o] += v;
        else acc[o] *= v;
    });
    O* po = out.data<O>();
    for (size_t i = 0; i < acc.size(); ++i) po[i] = static_cast<O>(acc[i]);
}

template <typename T> void reduceMax(const NDArray& x, const Strides& map, NDArray& out) {
    T* po = out.data<T>();
    std::vector<bool> seen(static_cast<size_t>(out.size()), false);
    const T* px = x.data<T>();
    arrayop::forEachOffsetPair(x.shape(), x.strides(), 0, map, 0, [&](int64_t a, int64_t o) {
        const T v = px[a];
        if (!seen[o]) {
            seen[o] = true;
            po[o] = v;
            return;
        }
        if constexpr (std::is_floating_point_v<T>) {
            // NaN wins, as NumPy's maximum: once the running max is NaN it stays NaN.
            if (std::isnan(po[o])) return;
            if (std::isnan(v) || v > po[o]) po[o] = v;
        } else {
            if (v > po[o]) po[o] = v;
        }
    });
}
} // namespace

DType reduceOutputDType(ReduceKind kind, DType in) {
    if (kind == ReduceKind::Max) return in;
    switch (in) {
    case DType::Bool:
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::UInt8: return DType::Int64;
    default: return in;
    }
}

ReduceOp::ReduceOp(ReduceKind kind, std::optional<std::vector<int>> axes)
    : Op(OpKind::Reduce), m_kind(kind), m_axes(std::move(axes)) {}

std::vector<int> ReduceOp::reducedAxes(int ndim) const {
    std::vector<int> out;
    if (!m_axes) {
        for (int i = 0; i < ndim; ++i) out.push_back(i);
        return out;
    }
    // As NumPy's normalize_axis_tuple: a 0-d input accepts axis 0 / -1.
    const int limit = std::max(1, ndim);
    for (int a : *m_axes) {
        if (a < -limit || a >= limit)
            throw OpTypeError(name() + ": axis " + std::to_string(a) + " is out of bounds for a " + std::to_string(ndim) +
                              "-d input");
        const int n = a < 0 ? a + limit : a;
        if (std::find(out.begin(), out.end(), n) != out.end())
            throw OpTypeError(name() + ": axis " + std::to_string(a) + " is repeated");
        if (n < ndim) out.push_back(n);
    }
    return out;
}

std::string ReduceOp::name() const {
    std::string s = std::string(kindName(m_kind)) + "{";
    if (!m_axes) return s + "axes=None}";
    if (m_axes->size() == 1) return s + "axis=" + std::to_string((*m_axes)[0]) + "}";
    s += "axes=[";
    for (size_t i = 0; i < m_axes->size(); ++i) s += (i ? ", " : "") + std::to_string((*m_axes)[i]);
    return s + "]}";
}

std::vector<Type> ReduceOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 1, name());
    const Type& x = *in[0];
    arrayop::requireTensor(x, name() + " input");
    const std::vector<int> axes = reducedAxes(x.ndim());
    StaticShape out;
    for (int i = 0; i < x.ndim(); ++i)
        if (std::find(axes.begin(), axes.end(), i) == axes.end()) out.push_back(x.shape[i]);
    return {Type::tensor(reduceOutputDType(m_kind, x.dtype), std::move(out))};
}

void ReduceOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& x = in[0];
    std::vector<int> axes;
    try {
        axes = reducedAxes(x.ndim());
    } catch (const OpTypeError& e) {
        throw ExecError(e.what());
    }
    Shape outShape;
    std::vector<bool> reduced(x.ndim(), false);
    for (int a : axes) reduced[a] = true;
    for (int i = 0; i < x.ndim(); ++i)
        if (!reduced[i]) outShape.push_back(x.dim(i));
    if (m_kind == ReduceKind::Max)
        for (int a : axes)
            if (x.dim(a) == 0)
                throw ExecError(name() + ": zero-size input along axis " + std::to_string(a) + " (shape " +
                                shapeToString(x.shape()) + "); maximum has no identity");
    const DType od = reduceOutputDType(m_kind, x.dtype());
    NDArray r = arrayop::reuseOrEmpty(out[0], od, outShape);
    // Input offset -> output offset: contiguous output strides on kept axes, 0 on reduced ones.
    const Strides os = NDArray::contiguousStrides(outShape);
    Strides map(x.ndim(), 0);
    for (int i = 0, k = 0; i < x.ndim(); ++i)
        if (!reduced[i]) map[i] = os[k++];
    const NDArray xv = x.view(x.shape(), x.strides(), x.offset());
    if (m_kind == ReduceKind::Max) {
        dispatchDType(x.dtype(), [&](auto t) { reduceMax<decltype(t)>(xv, map, r); });
    } else {
        dispatchDType(x.dtype(), [&](auto t) {
            using T = decltype(t);
            dispatchDType(od, [&](auto o) { reduceArith<T, decltype(o)>(m_kind, xv, map, r); });
        });
    }
    out[0] = r;
}

nlohmann::json ReduceOp::params() const {
    return {{"op", kindName(m_kind)}, {"axes", m_axes ? nlohmann::json(*m_axes) : nlohmann::json(nullptr)}};
}

OpPtr makeReduce(ReduceKind kind, std::optional<std::vector<int>> axes) {
    return std::make_shared<ReduceOp>(kind, std::move(axes));
}

OpPtr makeOpReduce(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    const auto& op = arrayop::requireParam(params, "op", "Reduce");
    ReduceKind kind;
    if (op == "Sum") kind = ReduceKind::Sum;
    else if (op == "Max") kind = ReduceKind::Max;
    else if (op == "Prod") kind = ReduceKind::Prod;
    else throw std::invalid_argument("Reduce params: \"op\" must be \"Sum\", \"Max\" or \"Prod\", got " + op.dump());
    const auto& axes = arrayop::requireParam(params, "axes", "Reduce");
    if (axes.is_null()) return makeReduce(kind, std::nullopt);
    return makeReduce(kind, arrayop::intListParam(params, "axes", "Reduce"));
}

} // namespace tl
