#include "ops/PermuteRowElements.h"

#include "ops/ArrayOpUtil.h"
#include "ops/OpParamsJson.h"

namespace tl {

std::string PermuteRowElementsOp::name() const {
    return std::string("PermuteRowElements{inverse=") + opparams::pyBool(m_inverse) + "}";
}

std::vector<Type> PermuteRowElementsOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 2, "PermuteRowElements");
    const Type& x = *in[0];
    const Type& y = *in[1];
    arrayop::requireTensor(x, "PermuteRowElements input");
    arrayop::requireTensor(y, "PermuteRowElements permutation");
    if (!isInteger(y.dtype)) throw OpTypeError("PermuteRowElements: the permutation must be integers, got " + y.toString());
    if (x.ndim() != y.ndim())
        throw OpTypeError("PermuteRowElements: input " + x.toString() + " and permutation " + y.toString() +
                          " must have the same number of dimensions");
    if (x.ndim() == 0) throw OpTypeError("PermuteRowElements: the input must have at least one dimension");
    StaticShape out(x.ndim(), kUnknownDim);
    for (int d = 0; d < x.ndim(); ++d)
        if (x.shape[d] == 1 && y.shape[d] == 1) out[d] = 1;
    return {Type::tensor(x.dtype, out)};
}

void PermuteRowElementsOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& x = in[0];
    const NDArray& y = in[1];
    const int nd = x.ndim();
    if (y.ndim() != nd || nd == 0)
        throw ExecError("PermuteRowElements: shapes " + shapeToString(x.shape()) + " and " + shapeToString(y.shape()) +
                        " do not have the same number of dimensions");
    Shape shape(nd);
    for (int d = 0; d < nd; ++d) {
        const int64_t xs = x.dim(d), ys = y.dim(d);
        if (xs != ys && xs != 1 && ys != 1)
            throw ExecError("PermuteRowElements: dimension mismatch: " + std::to_string(xs) + ", " + std::to_string(ys) +
                            " (axis " + std::to_string(d) + ")");
        shape[d] = xs == 1 ? ys : xs;
    }
    const int64_t len = shape[nd - 1];
    if (x.dim(nd - 1) != len || y.dim(nd - 1) != len)
        throw ExecError("PermuteRowElements: rows of length " + std::to_string(x.dim(nd - 1)) +
                        " cannot be permuted by rows of length " + std::to_string(y.dim(nd - 1)));
    // Broadcast both over the leading dims, then walk rows in C order.
    const NDArray xb = arrayop::broadcastView(x, shape, "PermuteRowElements").copy();
    const NDArray yb = arrayop::broadcastView(y, shape, "PermuteRowElements").astype(DType::Int64);
    NDArray r = arrayop::reuseOrEmpty(out[0], x.dtype(), shape);
    const int64_t rows = len == 0 ? 0 : r.size() / len;
    dispatchDType(x.dtype(), [&](auto t) {
        using T = decltype(t);
        const T* src = xb.data<T>();
        const int64_t* perm = yb.data<int64_t>();
        T* dst = r.data<T>();
        for (int64_t row = 0; row < rows; ++row)
            for (int64_t k = 0; k < len; ++k) {
                int64_t j = perm[row * len + k];
                if (j < -len || j >= len)
                    throw ExecError("PermuteRowElements: index " + std::to_string(j) + " is out of bounds for rows of length " +
                                    std::to_string(len));
                if (j < 0) j += len;
                if (m_inverse) dst[row * len + j] = src[row * len + k];
                else dst[row * len + k] = src[row * len + j];
            }
    });
    out[0] = r;
}

OpPtr makePermuteRowElements(bool inverse) { return std::make_shared<PermuteRowElementsOp>(inverse); }

OpPtr makeOpPermuteRowElements(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {"inverse"}, "PermuteRowElements");
    return makePermuteRowElements(opparams::boolParam(params, "inverse", "PermuteRowElements", false));
}

nlohmann::json PermuteRowElementsOp::params() const { return {{"inverse", m_inverse}}; }

} // namespace tl
