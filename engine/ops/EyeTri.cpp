#include "ops/EyeTri.h"

#include "ops/ArrayOpUtil.h"
#include "ops/OpParamsJson.h"

#include <algorithm>

namespace tl {

namespace {
const char* kindName(OpKind k) { return k == OpKind::Eye ? "Eye" : "Tri"; }
} // namespace

std::string EyeTriOp::name() const {
    return std::string(kindName(kind())) + "{dtype=" + opparams::pyStr(std::string(dtypeName(m_dtype))) + "}";
}

std::vector<Type> EyeTriOp::inferTypes(std::span<const Type* const> in) const { return inferTypesWithConstants(in, {}); }

std::vector<Type> EyeTriOp::inferTypesWithConstants(std::span<const Type* const> in,
                                                    std::span<const NDArray* const> constants) const {
    const std::string op = kindName(kind());
    arrayop::requireArity(in, 3, op);
    arrayop::requireIntScalar(*in[0], op + " rows");
    arrayop::requireIntScalar(*in[1], op + " columns");
    arrayop::requireIntScalar(*in[2], op + " diagonal offset");
    StaticShape shape{kUnknownDim, kUnknownDim};
    if (kind() == OpKind::Eye && constants.size() == 3) {
        for (int i = 0; i < 2; ++i) {
            auto v = arrayop::constantInt(constants[i]);
            if (v && *v < 0) throw OpTypeError(op + ": negative dimensions are not allowed (" + std::to_string(*v) + ")");
            if (v) shape[i] = *v;
        }
    }
    return {Type::tensor(m_dtype, shape)};
}

void EyeTriOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const std::string op = kindName(kind());
    const int64_t n = arrayop::readInt(in[0], op + " rows"), m = arrayop::readInt(in[1], op + " columns");
    const int64_t k = arrayop::readInt(in[2], op + " diagonal offset");
    if (n < 0 || m < 0)
        throw ExecError(op + ": negative dimensions are not allowed (" + std::to_string(n) + ", " + std::to_string(m) + ")");
    NDArray r = arrayop::reuseOrEmpty(out[0], m_dtype, {n, m});
    const bool eye = kind() == OpKind::Eye;
    dispatchDType(m_dtype, [&](auto t) {
        using T = decltype(t);
        T* o = r.data<T>();
        std::fill(o, o + n * m, T(0));
        for (int64_t i = 0; i < n; ++i) {
            if (eye) {
                if (i + k >= 0 && i + k < m) o[i * m + i + k] = T(1);
            } else {
                // Row i has ones in columns 0 .. i + k.
                const int64_t last = std::min(m - 1, i + k);
                for (int64_t j = 0; j <= last; ++j) o[i * m + j] = T(1);
            }
        }
    });
    out[0] = r;
}

nlohmann::json EyeTriOp::params() const { return {{"dtype", dtypeName(m_dtype)}}; }

OpPtr makeEye(DType dtype) { return std::make_shared<EyeTriOp>(OpKind::Eye, dtype); }
OpPtr makeTri(DType dtype) { return std::make_shared<EyeTriOp>(OpKind::Tri, dtype); }

OpPtr makeOpEye(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {"dtype"}, "Eye");
    OpPtr op = makeEye(opparams::dtypeParam(params, "dtype", "Eye"));
    opparams::checkStatedAliasMaps(params, *op);
    return op;
}

OpPtr makeOpTri(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {"dtype"}, "Tri");
    OpPtr op = makeTri(opparams::dtypeParam(params, "dtype", "Tri"));
    opparams::checkStatedAliasMaps(params, *op);
    return op;
}

} // namespace tl
