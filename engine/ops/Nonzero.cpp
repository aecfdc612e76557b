#include "ops/Nonzero.h"

#include "ops/ArrayOpUtil.h"
#include "ops/OpParamsJson.h"

namespace tl {

std::vector<Type> NonzeroOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 1, "Nonzero");
    arrayop::requireTensor(*in[0], "Nonzero input");
    if (in[0]->ndim() == 0) throw OpTypeError("Nonzero only supports non-scalar arrays, got " + in[0]->toString());
    return std::vector<Type>(static_cast<size_t>(in[0]->ndim()), Type::tensor(DType::Int64, {kUnknownDim}));
}

void NonzeroOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray a = in[0].isContiguous() ? in[0] : in[0].copy();
    const int nd = a.ndim();
    if (nd == 0) throw ExecError("Nonzero only supports non-scalar arrays");
    std::vector<int64_t> hits;
    dispatchDType(a.dtype(), [&](auto t) {
        using T = decltype(t);
        const T* p = a.data<T>();
        for (int64_t i = 0; i < a.size(); ++i)
            if (p[i] != T(0)) hits.push_back(i);
    });
    const int64_t n = static_cast<int64_t>(hits.size());
    std::vector<int64_t*> dst;
    for (int d = 0; d < nd; ++d) {
        out[d] = arrayop::reuseOrEmpty(out[d], DType::Int64, {n});
        dst.push_back(out[d].data<int64_t>());
    }
    for (int64_t k = 0; k < n; ++k) {
        int64_t flat = hits[k];
        for (int d = nd - 1; d >= 0; --d) {
            dst[d][k] = flat % a.dim(d);
            flat /= a.dim(d);
        }
    }
}

OpPtr makeNonzero() {
    static const OpPtr op = std::make_shared<NonzeroOp>();
    return op;
}

OpPtr makeOpNonzero(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {}, "Nonzero");
    return makeNonzero();
}

} // namespace tl
