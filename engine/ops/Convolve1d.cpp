#include "ops/Convolve1d.h"

#include "ops/ArrayOpUtil.h"
#include "ops/OpParamsJson.h"

#include <algorithm>

namespace tl {

std::vector<Type> Convolve1dOp::inferTypes(std::span<const Type* const> in) const { return inferTypesWithConstants(in, {}); }

std::vector<Type> Convolve1dOp::inferTypesWithConstants(std::span<const Type* const> in,
                                                        std::span<const NDArray* const> constants) const {
    arrayop::requireArity(in, 3, "Convolve1d");
    for (int i = 0; i < 2; ++i)
        if (in[i]->isScalarType() || in[i]->ndim() != 1)
            throw OpTypeError("Convolution inputs must be vector (ndim=1), input " + std::to_string(i) + " is " +
                              in[i]->toString());
    opparams::requireZeroDim(*in[2], "Convolve1d mode");
    if (in[2]->dtype != DType::Bool) throw OpTypeError("Convolution mode must be a boolean type, got " + in[2]->toString());
    const DType dtype = promote(in[0]->dtype, in[1]->dtype);
    const int64_t n = in[0]->shape[0], k = in[1]->shape[0];
    auto full = constants.size() == 3 ? opparams::constantNumber(constants[2]) : std::nullopt;
    int64_t len = kUnknownDim;
    if (n != kUnknownDim && k != kUnknownDim && full)
        len = *full != 0 ? n + k - 1 : std::max(n, k) - std::min(n, k) + 1;
    return {Type::tensor(dtype, {len})};
}

void Convolve1dOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    if (in[0].ndim() != 1 || in[1].ndim() != 1) throw ExecError("Convolve1d expects 1-d arrays");
    if (in[0].dim(0) == 0) throw ExecError("Convolve1d: the first input cannot be empty");
    if (in[1].dim(0) == 0) throw ExecError("Convolve1d: second input (kernel) cannot be empty");
    const bool full = in[2].item() != 0;
    const DType dtype = promote(in[0].dtype(), in[1].dtype());
    // Convolution commutes: as NumPy, the longer vector is `a`, the shorter `v`.
    NDArray a = in[0].astype(dtype), v = in[1].astype(dtype);
    if (v.dim(0) > a.dim(0)) std::swap(a, v);
    const int64_t n = a.dim(0), k = v.dim(0);
    const int64_t len = full ? n + k - 1 : n - k + 1;
    const int64_t first = full ? 0 : k - 1;  // index of the output's first element in the full result
    NDArray r = arrayop::reuseOrEmpty(out[0], dtype, {len});
    dispatchDType(dtype, [&](auto t) {
        using T = decltype(t);
        using Acc = std::conditional_t<std::is_same_v<T, bool>, bool, T>;
        const T* pa = a.data<T>();
        const T* pv = v.data<T>();
        T* o = r.data<T>();
        for (int64_t i = 0; i < len; ++i) {
            const int64_t f = first + i;  // full[f] = sum_j a[j] * v[f - j]
            const int64_t lo = std::max<int64_t>(0, f - k + 1), hi = std::min(n - 1, f);
            Acc s = Acc(0);
            for (int64_t j = lo; j <= hi; ++j) {
                if constexpr (std::is_same_v<T, bool>) s = s || (pa[j] && pv[f - j]);
                else s += pa[j] * pv[f - j];
            }
            o[i] = static_cast<T>(s);
        }
    });
    out[0] = r;
}

OpPtr makeConvolve1d() {
    static const OpPtr op = std::make_shared<Convolve1dOp>();
    return op;
}

OpPtr makeOpConvolve1d(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {}, "Convolve1d");
    return makeConvolve1d();
}

} // namespace tl
