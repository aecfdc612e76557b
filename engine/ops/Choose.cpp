#include "ops/Choose.h"

#include "ops/ArrayOpUtil.h"
#include "ops/OpParamsJson.h"

#include <algorithm>
#include <stdexcept>

namespace tl {

std::vector<Type> ChooseOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 2, "Choose");
    const Type& a = *in[0];
    const Type& c = *in[1];
    arrayop::requireTensor(a, "Choose index array");
    arrayop::requireTensor(c, "Choose choices");
    if (!isInteger(a.dtype) && a.dtype != DType::Bool)
        throw OpTypeError("choose first argument must have an [u]int* dtype, got " + a.toString());
    if (c.ndim() < 1) throw OpTypeError("Choose: choices must have a leading axis of choices, got " + c.toString());
    const int nd = std::max(a.ndim(), c.ndim() - 1);
    StaticShape out(nd, kUnknownDim);
    for (int d = 0; d < nd; ++d) {
        const int da = d - (nd - a.ndim()), dc = d - (nd - (c.ndim() - 1)) + 1;
        const bool oneA = da < 0 || a.shape[da] == 1, oneC = dc < 1 || c.shape[dc] == 1;
        if (oneA && oneC) out[d] = 1;
    }
    return {Type::tensor(c.dtype, out)};
}

void ChooseOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& a = in[0];
    const NDArray& c = in[1];
    if (c.ndim() < 1) throw ExecError("Choose: choices must have a leading axis");
    const int64_t n = c.dim(0);
    // The broadcast shape of a and one choice.
    const int nd = std::max(a.ndim(), c.ndim() - 1);
    Shape shape(nd, 1);
    for (int d = 0; d < nd; ++d) {
        const int da = d - (nd - a.ndim()), dc = d - (nd - (c.ndim() - 1)) + 1;
        const int64_t sa = da < 0 ? 1 : a.dim(da), sc = dc < 1 ? 1 : c.dim(dc);
        if (sa != sc && sa != 1 && sc != 1)
            throw ExecError("Choose: shape mismatch: objects cannot be broadcast to a single shape (" +
                            shapeToString(a.shape()) + " and choices " + shapeToString(c.shape()) + ")");
        shape[d] = sa == 1 ? sc : sa;
    }
    const NDArray idx = arrayop::broadcastView(a, shape, "Choose").astype(DType::Int64);
    Shape choiceShape(c.shape().begin() + 1, c.shape().end());
    NDArray r = arrayop::reuseOrEmpty(out[0], c.dtype(), shape);
    // Each choice broadcast to the result shape, read through strides.
    std::vector<NDArray> choices;
    for (int64_t i = 0; i < n; ++i) {
        Strides st(c.strides().begin() + 1, c.strides().end());
        NDArray one = c.view(choiceShape, st, c.offset() + i * c.strides()[0]);
        choices.push_back(arrayop::broadcastView(one, shape, "Choose"));
    }
    if (n == 0 && r.size() > 0) throw ExecError("Choose: there are no choices to choose from");
    dispatchDType(c.dtype(), [&](auto t) {
        using T = decltype(t);
        T* o = r.data<T>();
        const int64_t* ix = idx.data<int64_t>();
        std::vector<int64_t> pos(static_cast<size_t>(nd), 0);
        for (int64_t k = 0; k < r.size(); ++k) {
            int64_t i = ix[k];
            if (i < 0 || i >= n) {
                if (m_mode == "raise")
                    throw ExecError("Choose: invalid entry " + std::to_string(i) + " in choice array (there are " +
                                    std::to_string(n) + " choices)");
                if (m_mode == "wrap") i = ((i % n) + n) % n;
                else i = std::clamp<int64_t>(i, 0, n - 1);
            }
            const NDArray& ch = choices[i];
            int64_t off = ch.offset();
            for (int d = 0; d < nd; ++d) off += pos[d] * ch.strides()[d];
            o[k] = static_cast<const T*>(ch.storage()->data())[off];
            for (int d = nd - 1; d >= 0; --d) {
                if (++pos[d] < shape[d]) break;
                pos[d] = 0;
            }
        }
    });
    out[0] = r;
}

OpPtr makeChoose(const std::string& mode) {
    if (mode != "raise" && mode != "wrap" && mode != "clip")
        throw std::invalid_argument("Choose: mode must be 'raise', 'wrap' or 'clip', got '" + mode + "'");
    return std::make_shared<ChooseOp>(mode);
}

OpPtr makeOpChoose(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {"mode"}, "Choose");
    return makeChoose(opparams::stringParam(params, "mode", "Choose", "raise"));
}

nlohmann::json ChooseOp::params() const { return {{"mode", m_mode}}; }

} // namespace tl
