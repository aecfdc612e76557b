#include "ops/CumOp.h"

#include "ops/ArrayOpUtil.h"
#include "ops/ScalarOps.h"

#include <nlohmann/json.hpp>

namespace tl {

CumOpOp::CumOpOp(std::optional<int> axis, CumMode mode) : Op(OpKind::CumOp), m_axis(axis), m_mode(mode) {}

std::string CumOpOp::name() const {
    return "CumOp{" + (m_axis ? std::to_string(*m_axis) : std::string("None")) + ", " +
           (m_mode == CumMode::Add ? "add" : "mul") + "}";
}

std::vector<Type> CumOpOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 1, name());
    const Type& x = *in[0];
    arrayop::requireTensor(x, name() + " input");
    if (!m_axis) {
        int64_t n = 1;
        for (int64_t d : x.shape) n = (n == kUnknownDim || d == kUnknownDim) ? kUnknownDim : n * d;
        return {Type::tensor(x.dtype, {n})};
    }
    if (*m_axis >= x.ndim() || *m_axis < -x.ndim())
        throw OpTypeError(name() + ": axis(=" + std::to_string(*m_axis) + ") out of bounds for a " + std::to_string(x.ndim()) +
                          "-d input");
    return {x};
}

void CumOpOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& x = in[0];
    const NDArray xc = x.isContiguous() ? x : x.astype(x.dtype());
    int64_t outer = 1, len = 1, inner = 1;
    Shape shape = x.shape();
    if (!m_axis) {
        for (int64_t d : x.shape()) len *= d;
        shape = {len};
    } else {
        const int nd = x.ndim();
        const int a = *m_axis < 0 ? *m_axis + nd : *m_axis;
        for (int d = 0; d < nd; ++d) {
            if (d < a) outer *= x.dim(d);
            else if (d == a) len = x.dim(d);
            else inner *= x.dim(d);
        }
    }
    NDArray r = arrayop::reuseOrEmpty(out[0], x.dtype(), shape);
    dispatchDType(x.dtype(), [&](auto t) {
        using T = decltype(t);
        const T* px = xc.data<T>();
        T* py = r.data<T>();
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t j = 0; j < inner; ++j) {
                const int64_t start = o * len * inner + j;
                T acc{};
                for (int64_t i = 0; i < len; ++i) {
                    const T v = px[start + i * inner];
                    acc = i == 0 ? v : m_mode == CumMode::Add ? scalar_fn::add(acc, v) : scalar_fn::mul(acc, v);
                    py[start + i * inner] = acc;
                }
            }
    });
    out[0] = r;
}

nlohmann::json CumOpOp::params() const {
    return {{"axis", m_axis ? nlohmann::json(*m_axis) : nlohmann::json(nullptr)}, {"mode", m_mode == CumMode::Add ? "add" : "mul"}};
}

OpPtr makeCumOp(std::optional<int> axis, CumMode mode) { return std::make_shared<CumOpOp>(axis, mode); }

OpPtr makeOpCumOp(const nlohmann::json& params, std::shared_ptr<const Graph> inner) {
    if (inner) throw std::invalid_argument("CumOp params: CumOp has no inner graph");
    const auto& axis = arrayop::requireParam(params, "axis", "CumOp");
    const auto& mode = arrayop::requireParam(params, "mode", "CumOp");
    if (!mode.is_string() || (mode != "add" && mode != "mul"))
        throw std::invalid_argument("CumOp params: /mode must be \"add\" or \"mul\", got " + mode.dump());
    const CumMode m = mode == "add" ? CumMode::Add : CumMode::Mul;
    if (axis.is_null()) return makeCumOp(std::nullopt, m);
    if (!axis.is_number_integer()) throw std::invalid_argument("CumOp params: /axis must be an integer or null");
    return makeCumOp(axis.get<int>(), m);
}

} // namespace tl
