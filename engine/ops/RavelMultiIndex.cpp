#include "ops/RavelMultiIndex.h"

#include "ops/ArrayOpUtil.h"
#include "ops/OpParamsJson.h"

#include <algorithm>
#include <stdexcept>

namespace tl {

namespace {

const char* modeName(IndexBoundMode m) {
    switch (m) {
    case IndexBoundMode::Raise: return "raise";
    case IndexBoundMode::Wrap: return "wrap";
    case IndexBoundMode::Clip: return "clip";
    }
    return "raise";
}

// NumPy's message when the broadcast fails, with the shapes of every index array.
std::string broadcastError(std::span<const NDArray> idx) {
    std::string s = "RavelMultiIndex: operands could not be broadcast together with shapes";
    for (const NDArray& a : idx) s += " " + shapeToString(a.shape());
    return s;
}

Shape broadcastShape(std::span<const NDArray> idx) {
    int nd = 0;
    for (const NDArray& a : idx) nd = std::max(nd, a.ndim());
    Shape out(static_cast<size_t>(nd), 1);
    for (const NDArray& a : idx)
        for (int d = 0; d < a.ndim(); ++d) {
            const int64_t v = a.dim(d);
            int64_t& o = out[static_cast<size_t>(nd - a.ndim() + d)];
            if (v == o || v == 1) continue;
            if (o != 1) throw ExecError(broadcastError(idx));
            o = v;
        }
    return out;
}

} // namespace

std::string RavelMultiIndexOp::name() const {
    std::string mode;
    if (m_modes.size() == 1) {
        mode = opparams::pyStr(modeName(m_modes[0]));
    } else {
        // Python's repr of a tuple of modes, as PyTensor would print one.
        for (size_t i = 0; i < m_modes.size(); ++i) mode += (i ? ", " : "") + opparams::pyStr(modeName(m_modes[i]));
        mode = "(" + mode + ")";
    }
    return "RavelMultiIndex{mode=" + mode + ", order='" + (m_fortran ? "F" : "C") + "'}";
}

std::vector<Type> RavelMultiIndexOp::inferTypes(std::span<const Type* const> in) const {
    if (in.size() < 2)
        throw OpTypeError("RavelMultiIndex takes the index arrays and then dims, got " + std::to_string(in.size()) +
                          " input(s)");
    const size_t n = in.size() - 1;
    int nd = 0;
    for (size_t i = 0; i < n; ++i) {
        const Type& t = *in[i];
        arrayop::requireTensor(t, "RavelMultiIndex index array " + std::to_string(i));
        // PyTensor's make_node: int_dtypes only (bool is not an index here).
        if (!isInteger(t.dtype))
            throw OpTypeError("RavelMultiIndex: '" + std::string(dtypeName(t.dtype)) +
                              "' object cannot be interpreted as an index (index array " + std::to_string(i) + ")");
        nd = std::max(nd, t.ndim());
    }
    const Type& dims = *in[n];
    arrayop::requireTensor(dims, "RavelMultiIndex dims");
    if (!isInteger(dims.dtype))
        throw OpTypeError("RavelMultiIndex: '" + std::string(dtypeName(dims.dtype)) +
                          "' object cannot be interpreted as an index (dims)");
    if (dims.ndim() != 1) throw OpTypeError("RavelMultiIndex: dims must be a 1D array, got " + dims.toString());
    if (m_modes.size() > 1 && m_modes.size() != n)
        throw OpTypeError("RavelMultiIndex: list of clipmodes has wrong length (" + std::to_string(m_modes.size()) +
                          " instead of " + std::to_string(n) + ")");
    // The rank is the broadcast rank of the index arrays, where PyTensor takes the first
    // array's (wrong when a later one has more dims). No static dims, as PyTensor.
    return {Type::tensor(DType::Int64, StaticShape(static_cast<size_t>(nd), kUnknownDim))};
}

void RavelMultiIndexOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const size_t n = in.size() - 1;
    const NDArray& dimsIn = in[n];
    if (dimsIn.ndim() != 1)
        throw ExecError("RavelMultiIndex: dims must be a 1D array, got shape " + shapeToString(dimsIn.shape()));
    const NDArray dimsArr = dimsIn.astype(DType::Int64);
    const std::vector<int64_t> dims(dimsArr.data<int64_t>(), dimsArr.data<int64_t>() + dimsArr.size());
    const size_t nd = dims.size();
    // NumPy's checks, in NumPy's order.
    if (m_modes.size() > 1 && m_modes.size() != nd)
        throw ExecError("RavelMultiIndex: list of clipmodes has wrong length (" + std::to_string(m_modes.size()) +
                        " instead of " + std::to_string(nd) + ")");
    std::vector<int64_t> strides(nd);
    int64_t s = 1;
    for (size_t k = 0; k < nd; ++k) {
        const size_t i = m_fortran ? k : nd - 1 - k;
        strides[i] = s;
        if (__builtin_mul_overflow(s, dims[i], &s))
            throw ExecError("RavelMultiIndex: invalid dims: array size defined by dims is larger than the maximum "
                            "possible size (dims " + shapeToString(dims) + ")");
    }
    if (n != nd)
        throw ExecError("RavelMultiIndex: parameter multi_index must be a sequence of length " + std::to_string(nd) +
                        " (dims " + shapeToString(dims) + "), got " + std::to_string(n) + " index arrays");
    const std::span<const NDArray> idxIn = in.first(n);
    const Shape shape = broadcastShape(idxIn);
    NDArray r = arrayop::reuseOrEmpty(out[0], DType::Int64, shape);
    const int64_t count = r.size();
    if (count != 0)
        for (int64_t d : dims) {
            if (d == 0)
                throw ExecError("RavelMultiIndex: cannot unravel if shape has zero entries (is empty): dims " +
                                shapeToString(dims));
            // NumPy raises for these in mode 'raise' and computes meaningless indices in the others.
            if (d < 0) throw ExecError("RavelMultiIndex: negative dimensions are not allowed: dims " + shapeToString(dims));
        }
    std::vector<NDArray> idx;
    for (const NDArray& a : idxIn) idx.push_back(arrayop::broadcastView(a, shape, "RavelMultiIndex").astype(DType::Int64));
    std::vector<const int64_t*> coords;
    for (const NDArray& a : idx) coords.push_back(a.data<int64_t>());
    int64_t* o = r.data<int64_t>();
    // Element by element, as NumPy, so the entry named in an error is the first bad one.
    for (int64_t k = 0; k < count; ++k) {
        int64_t raveled = 0;
        for (size_t i = 0; i < nd; ++i) {
            const int64_t m = dims[i];
            int64_t j = coords[i][k];
            if (j < 0 || j >= m) {
                const IndexBoundMode mode = m_modes.size() == 1 ? m_modes[0] : m_modes[i];
                if (mode == IndexBoundMode::Raise)
                    throw ExecError("RavelMultiIndex: invalid entry in coordinates array: index " + std::to_string(j) +
                                    " is out of bounds for dimension " + std::to_string(i) + " with size " +
                                    std::to_string(m));
                if (mode == IndexBoundMode::Wrap) {
                    j %= m;  // in (-m, m): no overflow, also for INT64_MIN
                    if (j < 0) j += m;
                } else {
                    j = j < 0 ? 0 : m - 1;
                }
            }
            raveled += j * strides[i];
        }
        o[k] = raveled;
    }
    out[0] = r;
}

OpPtr makeRavelMultiIndex(const std::vector<std::string>& modes, const std::string& order) {
    if (modes.empty()) throw std::invalid_argument("RavelMultiIndex: mode must name at least one clipmode");
    std::vector<IndexBoundMode> parsed;
    for (const std::string& m : modes) {
        if (m == "raise") parsed.push_back(IndexBoundMode::Raise);
        else if (m == "wrap") parsed.push_back(IndexBoundMode::Wrap);
        else if (m == "clip") parsed.push_back(IndexBoundMode::Clip);
        else throw std::invalid_argument("clipmode must be one of 'clip', 'raise', or 'wrap' (got '" + m + "')");
    }
    if (order != "C" && order != "F")
        throw std::invalid_argument("RavelMultiIndex: order must be 'C' or 'F' (got '" + order + "')");
    return std::make_shared<RavelMultiIndexOp>(std::move(parsed), order == "F");
}

OpPtr makeOpRavelMultiIndex(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {"mode", "order"}, "RavelMultiIndex");
    // "mode" is PyTensor's prop: one mode, or (NumPy's form) a list with one per index.
    std::vector<std::string> modes{"raise"};
    if (params.is_object() && params.contains("mode")) {
        const nlohmann::json& m = params["mode"];
        if (m.is_string()) {
            modes = {m.get<std::string>()};
        } else if (m.is_array()) {
            modes.clear();
            for (const nlohmann::json& e : m) {
                if (!e.is_string())
                    throw std::invalid_argument("RavelMultiIndex params: \"mode\" entries must be strings, got " + e.dump());
                modes.push_back(e.get<std::string>());
            }
        } else {
            throw std::invalid_argument("RavelMultiIndex params: \"mode\" must be a string or a list of strings, got " +
                                        m.dump());
        }
    }
    return makeRavelMultiIndex(modes, opparams::stringParam(params, "order", "RavelMultiIndex", "C"));
}

nlohmann::json RavelMultiIndexOp::params() const {
    nlohmann::json mode;
    if (m_modes.size() == 1) mode = modeName(m_modes[0]);
    else
        for (IndexBoundMode m : m_modes) mode.push_back(modeName(m));
    return {{"mode", mode}, {"order", m_fortran ? "F" : "C"}};
}

} // namespace tl
