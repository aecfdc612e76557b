#include "ops/Searchsorted.h"

#include "ops/ArrayOpUtil.h"
#include "ops/OpParamsJson.h"
#include "ops/Sort.h"

#include <stdexcept>

namespace tl {

std::vector<Type> SearchsortedOp::inferTypes(std::span<const Type* const> in) const {
    if (in.size() != 2 && in.size() != 3)
        throw OpTypeError("SearchsortedOp takes 2 or 3 inputs (x, v[, sorter]), got " + std::to_string(in.size()));
    const Type& x = *in[0];
    if (x.isScalarType() || x.ndim() != 1) throw OpTypeError("SearchsortedOp: x must be a vector, got " + x.toString());
    arrayop::requireTensor(*in[1], "SearchsortedOp v");
    if (in.size() == 3) {
        const Type& s = *in[2];
        if (s.isScalarType() || s.ndim() != 1 || !isInteger(s.dtype))
            throw OpTypeError("SearchsortedOp: sorter must be an integer vector, got " + s.toString());
    }
    return {Type::tensor(DType::Int64, in[1]->shape)};
}

namespace {
// Values of x and v read in one comparison type: int64 when both are integers (or
// bool), double otherwise, as NumPy's common type of the two.
template <typename C> void search(const NDArray& x, const NDArray& v, const NDArray* sorter, bool right, NDArray& r) {
    constexpr DType cd = DTypeOf<C>::value;
    const NDArray xc = x.astype(cd), vc = v.astype(cd);
    const int64_t n = x.dim(0);
    std::vector<C> xs(xc.data<C>(), xc.data<C>() + n);
    if (sorter) {
        const NDArray order = sorter->astype(DType::Int64);
        for (int64_t i = 0; i < n; ++i) {
            const int64_t at = order.data<int64_t>()[i];
            if (at < 0 || at >= n)
                throw ExecError("SearchsortedOp: sorter index " + std::to_string(at) + " is out of bounds for x of length " +
                                std::to_string(n));
            xs[i] = xc.data<C>()[at];
        }
    }
    int64_t* o = r.data<int64_t>();
    const C* keys = vc.data<C>();
    for (int64_t k = 0; k < vc.size(); ++k) {
        int64_t lo = 0, hi = n;
        while (lo < hi) {
            const int64_t mid = lo + (hi - lo) / 2;
            const bool goRight = right ? !numpyLess(keys[k], xs[mid]) : numpyLess(xs[mid], keys[k]);
            if (goRight) lo = mid + 1;
            else hi = mid;
        }
        o[k] = lo;
    }
}
} // namespace

void SearchsortedOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& x = in[0];
    const NDArray& v = in[1];
    if (x.ndim() != 1) throw ExecError("SearchsortedOp: x must be 1-d, got shape " + shapeToString(x.shape()));
    const NDArray* sorter = in.size() == 3 ? &in[2] : nullptr;
    if (sorter && (sorter->ndim() != 1 || sorter->dim(0) != x.dim(0)))
        throw ExecError("SearchsortedOp: sorter of shape " + shapeToString(sorter->shape()) + " does not fit x of shape " +
                        shapeToString(x.shape()));
    NDArray r = arrayop::reuseOrEmpty(out[0], DType::Int64, v.shape());
    const bool ints = !isFloat(x.dtype()) && !isFloat(v.dtype());
    if (ints) search<int64_t>(x, v, sorter, m_right, r);
    else search<double>(x, v, sorter, m_right, r);
    out[0] = r;
}

OpPtr makeSearchsorted(const std::string& side) {
    if (side != "left" && side != "right") throw std::invalid_argument("'" + side + "' is an invalid value for keyword 'side'");
    return std::make_shared<SearchsortedOp>(side == "right");
}

OpPtr makeOpSearchsorted(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {"side"}, "SearchsortedOp");
    return makeSearchsorted(opparams::stringParam(params, "side", "SearchsortedOp", "left"));
}

nlohmann::json SearchsortedOp::params() const { return {{"side", m_right ? "right" : "left"}}; }

} // namespace tl
