#include "ops/Bartlett.h"

#include "ops/ArrayOpUtil.h"
#include "ops/OpParamsJson.h"

namespace tl {

std::vector<Type> BartlettOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 1, "Bartlett");
    arrayop::requireIntScalar(*in[0], "Bartlett's window length");
    return {Type::tensor(DType::Float64, {kUnknownDim})};
}

void BartlettOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const int64_t m = arrayop::readInt(in[0], "Bartlett's window length");
    const int64_t n = m < 1 ? 0 : m;
    NDArray r = arrayop::reuseOrEmpty(out[0], DType::Float64, {n});
    double* o = r.data<double>();
    if (n == 1) o[0] = 1.0;
    // NumPy: k = 1 - M, 3 - M, ..., M - 1; w = 1 - |k| / (M - 1).
    for (int64_t i = 0; n > 1 && i < n; ++i) {
        const double k = static_cast<double>(2 * i + 1 - m);
        o[i] = k <= 0 ? 1.0 + k / static_cast<double>(m - 1) : 1.0 - k / static_cast<double>(m - 1);
    }
    out[0] = r;
}

OpPtr makeBartlett() {
    static const OpPtr op = std::make_shared<BartlettOp>();
    return op;
}

OpPtr makeOpBartlett(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {}, "Bartlett");
    return makeBartlett();
}

} // namespace tl
