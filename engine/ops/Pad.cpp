#include "ops/Pad.h"

#include "ops/ArrayOpUtil.h"
#include "ops/OpParamsJson.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace tl {

namespace {
bool isStatMode(const std::string& m) { return m == "maximum" || m == "minimum" || m == "mean"; }

/// A (ndim, 2) table from an array broadcast to that shape, as pad's broadcast_to.
template <typename T> std::vector<std::array<T, 2>> pairsOf(const NDArray& a, int ndim, const std::string& what) {
    const NDArray b = arrayop::broadcastView(a, {ndim, 2}, "Pad " + what).astype(DTypeOf<T>::value);
    std::vector<std::array<T, 2>> out(ndim);
    for (int d = 0; d < ndim; ++d) out[d] = {b.data<T>()[2 * d], b.data<T>()[2 * d + 1]};
    return out;
}

/// Index into [0, n) that padded position p (relative to the data start) reads for
/// the periodic modes.
int64_t periodicIndex(const std::string& mode, int64_t p, int64_t n) {
    if (mode == "wrap") return ((p % n) + n) % n;
    if (mode == "reflect") {
        if (n == 1) return 0;
        const int64_t period = 2 * (n - 1);
        int64_t q = ((p % period) + period) % period;
        return q < n ? q : period - q;
    }
    // symmetric: the edge repeated.
    const int64_t period = 2 * n;
    int64_t q = ((p % period) + period) % period;
    return q < n ? q : period - 1 - q;
}
} // namespace

int PadOp::arity() const {
    if (m_mode == "constant" || m_mode == "linear_ramp") return 3;
    if (isStatMode(m_mode)) return m_hasStatLength ? 3 : 2;
    return 2;
}

std::vector<Type> PadOp::inferTypes(std::span<const Type* const> in) const { return inferTypesWithConstants(in, {}); }

std::vector<Type> PadOp::inferTypesWithConstants(std::span<const Type* const> in,
                                                 std::span<const NDArray* const> constants) const {
    arrayop::requireArity(in, static_cast<size_t>(arity()), "Pad{" + m_mode + "}");
    const Type& x = *in[0];
    arrayop::requireTensor(x, "Pad input");
    const Type& w = *in[1];
    if (!isInteger(w.dtype)) throw OpTypeError("Pad: pad_width must be integers, got " + w.toString());
    if (!w.isScalarType() && w.ndim() > 2) throw OpTypeError("Pad: pad_width must broadcast to (ndim, 2), got " + w.toString());
    StaticShape shape(x.ndim(), kUnknownDim);
    const NDArray* widths = constants.size() >= 2 ? constants[1] : nullptr;
    if (widths && widths->valid() && x.ndim() > 0) {
        std::vector<std::array<int64_t, 2>> p;
        try {
            p = pairsOf<int64_t>(*widths, x.ndim(), "pad_width");
        } catch (const std::exception& e) {
            throw OpTypeError(e.what());
        }
        for (int d = 0; d < x.ndim(); ++d) {
            if (p[d][0] < 0 || p[d][1] < 0) throw OpTypeError("Pad: index can't contain negative values");
            if (x.shape[d] != kUnknownDim) shape[d] = x.shape[d] + p[d][0] + p[d][1];
        }
    }
    return {Type::tensor(x.dtype, shape)};
}

void PadOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& x = in[0];
    const int nd = x.ndim();
    const auto widths = pairsOf<int64_t>(in[1], nd, "pad_width");
    Shape shape(nd);
    for (int d = 0; d < nd; ++d) {
        if (widths[d][0] < 0 || widths[d][1] < 0) throw ExecError("Pad: index can't contain negative values");
        shape[d] = x.dim(d) + widths[d][0] + widths[d][1];
        const bool padded = widths[d][0] > 0 || widths[d][1] > 0;
        if (padded && x.dim(d) == 0 && m_mode != "constant" && m_mode != "linear_ramp")
            throw ExecError("Pad: can't extend empty axis " + std::to_string(d) + " using modes other than 'constant'");
    }
    NDArray r = arrayop::reuseOrEmpty(out[0], x.dtype(), shape);
    // The data in the middle.
    int64_t centre = 0;
    for (int d = 0; d < nd; ++d) centre += widths[d][0] * r.strides()[d];
    r.view(x.shape(), r.strides(), centre).assign(x);
    std::vector<std::array<double, 2>> values;
    std::vector<std::array<int64_t, 2>> statLength;
    if (m_mode == "constant" || m_mode == "linear_ramp") values = pairsOf<double>(in[2], nd, "values");
    if (isStatMode(m_mode) && m_hasStatLength) statLength = pairsOf<int64_t>(in[2], nd, "stat_length");
    dispatchDType(x.dtype(), [&](auto t) {
        using T = decltype(t);
        T* o = r.data<T>();
        auto toT = [](double v) {
            if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) return static_cast<T>(std::nearbyint(v));
            else return static_cast<T>(v);
        };
        for (int ax = 0; ax < nd; ++ax) {
            const int64_t before = widths[ax][0], after = widths[ax][1], n = x.dim(ax), len = shape[ax];
            if (before == 0 && after == 0) continue;
            const int64_t stride = r.strides()[ax];
            // Every line along `ax` through the padded array (all positions of the other axes).
            const int64_t lines = r.size() / len;
            std::vector<int64_t> pos(nd, 0);
            for (int64_t line = 0; line < lines; ++line) {
                int64_t base = 0;
                for (int d = 0; d < nd; ++d) base += pos[d] * r.strides()[d];
                T* p = o + base;
                auto at = [&](int64_t i) -> T& { return p[i * stride]; };  // i: index along ax in r
                auto fill = [&](int64_t i, int side) {
                    if (m_mode == "constant") return toT(values[ax][side]);
                    if (m_mode == "edge") return at(side == 0 ? before : before + n - 1);
                    if (m_mode == "linear_ramp") {
                        const double edge = static_cast<double>(at(side == 0 ? before : before + n - 1));
                        const double end = values[ax][side];
                        const int64_t w = side == 0 ? before : after;
                        const int64_t k = side == 0 ? i : len - 1 - i;  // 0 at the outer end
                        // NumPy's linspace(..., dtype) truncates toward zero for integers.
                        return static_cast<T>(end + (edge - end) * static_cast<double>(k) / static_cast<double>(w));
                    }
                    if (isStatMode(m_mode)) {
                        int64_t m = n;
                        if (!statLength.empty()) m = std::clamp<int64_t>(statLength[ax][side], 1, n);
                        const int64_t from = side == 0 ? before : before + n - m;
                        double acc = static_cast<double>(at(from));
                        for (int64_t j = from + 1; j < from + m; ++j) {
                            const double v = static_cast<double>(at(j));
                            if (m_mode == "maximum") acc = std::max(acc, v);
                            else if (m_mode == "minimum") acc = std::min(acc, v);
                            else acc += v;
                        }
                        if (m_mode == "mean") acc /= static_cast<double>(m);
                        return toT(acc);
                    }
                    return at(before + periodicIndex(m_mode, i - before, n));
                };
                for (int64_t i = 0; i < before; ++i) at(i) = fill(i, 0);
                for (int64_t i = before + n; i < len; ++i) at(i) = fill(i, 1);
                for (int d = nd - 1; d >= 0; --d) {
                    if (d == ax) continue;
                    if (++pos[d] < shape[d]) break;
                    pos[d] = 0;
                }
            }
        }
    });
    out[0] = r;
}

nlohmann::json PadOp::params() const {
    nlohmann::json j = {{"pad_mode", m_mode}, {"reflect_type", m_reflectType.empty() ? nlohmann::json(nullptr) : nlohmann::json(m_reflectType)}};
    if (m_hasStatLength) j["has_stat_length"] = true;
    return j;
}

OpPtr makePad(const std::string& mode, const std::string& reflectType, bool hasStatLength) {
    static const char* kModes[] = {"constant", "edge", "wrap", "reflect", "symmetric", "linear_ramp", "maximum", "minimum", "mean"};
    if (std::none_of(std::begin(kModes), std::end(kModes), [&](const char* m) { return mode == m; }))
        throw std::invalid_argument("Pad: invalid mode '" + mode + "'" + (mode == "median" ? " (median padding is not implemented in PyTensor)" : ""));
    const bool reflects = mode == "reflect" || mode == "symmetric";
    if (reflects && !reflectType.empty() && reflectType != "even")
        throw std::invalid_argument("Pad: only even reflection is implemented, got reflect_type '" + reflectType + "'");
    return std::make_shared<PadOp>(mode, reflects ? (reflectType.empty() ? "even" : reflectType) : "",
                                   isStatMode(mode) && hasStatLength);
}

OpPtr makeOpPad(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    // PyTensor's Pad is an OpFromGraph: the exported inner graph is its expansion,
    // which the kernel replaces.
    opparams::allowOnly(params, {"pad_mode", "reflect_type", "has_stat_length"}, "Pad");
    return makePad(opparams::stringParam(params, "pad_mode", "Pad"), opparams::stringParam(params, "reflect_type", "Pad", ""),
                   opparams::boolParam(params, "has_stat_length", "Pad", false));
}

} // namespace tl
