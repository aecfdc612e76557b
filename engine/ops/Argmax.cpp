#include "ops/Argmax.h"

#include "ops/ArrayOpUtil.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace tl {

ArgmaxOp::ArgmaxOp(std::optional<std::vector<int>> axes) : Op(OpKind::Argmax), m_axes(std::move(axes)) {
    if (m_axes) {
        std::sort(m_axes->begin(), m_axes->end());
        for (size_t i = 0; i < m_axes->size(); ++i) {
            if ((*m_axes)[i] < 0) throw std::invalid_argument("Argmax: axes must be normalized (non-negative)");
            if (i && (*m_axes)[i] == (*m_axes)[i - 1]) throw std::invalid_argument("Argmax: axis " + std::to_string((*m_axes)[i]) + " is repeated");
        }
    }
}

std::string ArgmaxOp::name() const {
    if (!m_axes) return "Argmax{axis=None}";
    // Python's repr of a tuple: (1,) and (0, 2).
    std::string s = "Argmax{axis=(";
    for (size_t i = 0; i < m_axes->size(); ++i) s += (i ? ", " : "") + std::to_string((*m_axes)[i]);
    return s + (m_axes->size() == 1 ? ",)}" : ")}");
}

std::vector<Type> ArgmaxOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 1, name());
    const Type& x = *in[0];
    arrayop::requireTensor(x, name() + " input");
    StaticShape out;
    for (int d = 0; d < x.ndim(); ++d)
        if (m_axes && std::find(m_axes->begin(), m_axes->end(), d) == m_axes->end()) out.push_back(x.shape[d]);
    if (m_axes)
        for (int a : *m_axes)
            if (a >= std::max(1, x.ndim()))
                throw OpTypeError(name() + ": axis " + std::to_string(a) + " is out of bounds for a " +
                                  std::to_string(x.ndim()) + "-d input");
    return {Type::tensor(DType::Int64, std::move(out))};
}

namespace {

template <typename T> bool better(T v, T best) {
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(best)) return false;  // the first NaN stays
        return std::isnan(v) || v > best;
    } else {
        return v > best;
    }
}

} // namespace

void ArgmaxOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& x = in[0];
    const int nd = x.ndim();
    std::vector<bool> reduced(static_cast<size_t>(nd), !m_axes);
    if (m_axes)
        for (int a : *m_axes) {
            if (a >= std::max(1, nd)) throw ExecError(name() + ": axis " + std::to_string(a) + " is out of bounds");
            if (a < nd) reduced[static_cast<size_t>(a)] = true;
        }
    // Kept dims first, then the reduced ones (PyTensor's transpose), as a view.
    Shape kept, red, shape;
    Strides keptS, redS;
    for (int d = 0; d < nd; ++d) {
        if (reduced[d]) {
            red.push_back(x.dim(d));
            redS.push_back(x.strides()[d]);
        } else {
            kept.push_back(x.dim(d));
            keptS.push_back(x.strides()[d]);
        }
    }
    int64_t outSize = 1, redSize = 1;
    for (int64_t d : kept) outSize *= d;
    for (int64_t d : red) redSize *= d;
    if (redSize == 0 && outSize > 0) throw ExecError(name() + ": attempt to get argmax of an empty sequence (shape " + shapeToString(x.shape()) + ")");
    NDArray r = arrayop::reuseOrEmpty(out[0], DType::Int64, kept);
    int64_t* po = r.data<int64_t>();
    dispatchDType(x.dtype(), [&](auto t) {
        using T = decltype(t);
        const T* px = static_cast<const T*>(x.storage()->data());
        std::vector<int64_t> kidx(kept.size(), 0), ridx(red.size(), 0);
        int64_t kbase = x.offset();
        for (int64_t o = 0; o < outSize; ++o) {
            // Walk the reduced elements in C order.
            int64_t best = 0, off = kbase;
            T bestV{};
            std::fill(ridx.begin(), ridx.end(), 0);
            for (int64_t i = 0; i < redSize; ++i) {
                const T v = px[off];
                if (i == 0 || better(v, bestV)) {
                    best = i;
                    bestV = v;
                }
                for (int d = static_cast<int>(red.size()) - 1; d >= 0; --d) {
                    off += redS[d];
                    if (++ridx[d] < red[d]) break;
                    off -= redS[d] * red[d];
                    ridx[d] = 0;
                }
            }
            po[o] = best;
            for (int d = static_cast<int>(kept.size()) - 1; d >= 0; --d) {
                kbase += keptS[d];
                if (++kidx[d] < kept[d]) break;
                kbase -= keptS[d] * kept[d];
                kidx[d] = 0;
            }
        }
    });
    out[0] = r;
}

nlohmann::json ArgmaxOp::params() const { return {{"axis", m_axes ? nlohmann::json(*m_axes) : nlohmann::json(nullptr)}}; }

OpPtr makeArgmax(std::optional<std::vector<int>> axes) { return std::make_shared<ArgmaxOp>(std::move(axes)); }

OpPtr makeOpArgmax(const nlohmann::json& params, std::shared_ptr<const Graph> inner) {
    if (inner) throw std::invalid_argument("Argmax params: Argmax has no inner graph");
    const auto& axis = arrayop::requireParam(params, "axis", "Argmax");
    if (axis.is_null()) return makeArgmax(std::nullopt);
    return makeArgmax(arrayop::intListParam(params, "axis", "Argmax"));
}

} // namespace tl
