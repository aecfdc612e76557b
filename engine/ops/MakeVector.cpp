#include "ops/MakeVector.h"

#include "ops/ArrayOpUtil.h"

#include <nlohmann/json.hpp>

namespace tl {

std::vector<Type> MakeVectorOp::inferTypes(std::span<const Type* const> in) const {
    for (size_t i = 0; i < in.size(); ++i) {
        if (!in[i]->holdsNumbers() || (!in[i]->isScalarType() && in[i]->ndim() != 0))
            throw OpTypeError(name() + ": input " + std::to_string(i) + " must be 0-d, got " + in[i]->toString());
        if (promote(in[i]->dtype, m_dtype) != m_dtype)
            throw OpTypeError(name() + ": input " + std::to_string(i) + " of type " + in[i]->toString() +
                              " does not upcast to " + std::string(dtypeName(m_dtype)));
    }
    return {Type::tensor(m_dtype, {static_cast<int64_t>(in.size())})};
}

void MakeVectorOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    NDArray r = arrayop::reuseOrEmpty(out[0], m_dtype, {static_cast<int64_t>(in.size())});
    for (size_t i = 0; i < in.size(); ++i) {
        if (in[i].size() != 1)
            throw ExecError(name() + ": input " + std::to_string(i) + " has shape " + shapeToString(in[i].shape()));
        r.view({}, {}, r.offset() + static_cast<int64_t>(i)).assign(in[i].view({}, {}, in[i].offset()));
    }
    out[0] = r;
}

nlohmann::json MakeVectorOp::params() const { return {{"dtype", dtypeName(m_dtype)}}; }

OpPtr makeMakeVector(DType dtype) { return std::make_shared<MakeVectorOp>(dtype); }

OpPtr makeOpMakeVector(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    const auto& d = arrayop::requireParam(params, "dtype", "MakeVector");
    auto dtype = d.is_string() ? parseDType(d.get<std::string>()) : std::nullopt;
    if (!dtype) throw std::invalid_argument("MakeVector params: \"dtype\" must be a dtype name, got " + d.dump());
    return makeMakeVector(*dtype);
}

} // namespace tl
