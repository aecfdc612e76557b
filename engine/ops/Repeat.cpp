#include "ops/Repeat.h"

#include "ops/ArrayOpUtil.h"
#include "ops/OpParamsJson.h"

#include <cstring>
#include <stdexcept>

namespace tl {

std::string RepeatOp::name() const { return "Repeat{axis=" + (m_axis ? std::to_string(*m_axis) : std::string("None")) + "}"; }

std::vector<Type> RepeatOp::inferTypes(std::span<const Type* const> in) const { return inferTypesWithConstants(in, {}); }

std::vector<Type> RepeatOp::inferTypesWithConstants(std::span<const Type* const> in,
                                                    std::span<const NDArray* const> constants) const {
    arrayop::requireArity(in, 2, "Repeat");
    const Type& x = *in[0];
    arrayop::requireTensor(x, "Repeat input");
    const Type& r = *in[1];
    if (!isInteger(r.dtype)) throw OpTypeError("Repeat: repeats.dtype must be an integer, got " + r.toString());
    if (!r.isScalarType() && r.ndim() > 1)
        throw OpTypeError("Repeat: the dimension of repeats should not exceed 1, got " + r.toString());
    if (!m_axis) return {Type::tensor(x.dtype, {kUnknownDim})};
    if (*m_axis >= x.ndim())
        throw OpTypeError("Repeat: axis " + std::to_string(*m_axis) + " is out of bounds for " + x.toString());
    StaticShape shape = x.shape;
    auto c = arrayop::constantInt(constants.size() == 2 ? constants[1] : nullptr);
    const bool once = c && *c == 1 && (r.isScalarType() || r.ndim() == 0);
    if (!once) shape[*m_axis] = kUnknownDim;
    return {Type::tensor(x.dtype, shape)};
}

void RepeatOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray x = in[0].isContiguous() ? in[0] : in[0].copy();
    const NDArray& reps = in[1];
    if (m_axis && *m_axis >= x.ndim())
        throw ExecError("Repeat: axis " + std::to_string(*m_axis) + " is out of bounds for shape " + shapeToString(x.shape()));
    // x as (outer, n, inner) blocks along the axis (the flattened x for axis None).
    int64_t outer = 1, n = x.size(), inner = 1;
    if (m_axis) {
        n = x.dim(*m_axis);
        for (int d = 0; d < *m_axis; ++d) outer *= x.dim(d);
        for (int d = *m_axis + 1; d < x.ndim(); ++d) inner *= x.dim(d);
    }
    const bool perElement = reps.ndim() == 1 && reps.dim(0) != 1;
    if (reps.ndim() > 1) throw ExecError("Repeat: repeats must be 0-d or 1-d, got shape " + shapeToString(reps.shape()));
    if (perElement && reps.dim(0) != n)
        throw ExecError("Repeat: operands could not be broadcast together: " + std::to_string(reps.dim(0)) +
                        " repeats for " + std::to_string(n) + " elements along the axis");
    std::vector<int64_t> count(static_cast<size_t>(n));
    int64_t total = 0;
    for (int64_t i = 0; i < n; ++i) {
        count[i] = static_cast<int64_t>(reps.flatGet(perElement ? i : 0));
        if (count[i] < 0) throw ExecError("Repeat: repeats may not contain negative values");
        total += count[i];
    }
    if (n == 0 && reps.size() == 1 && reps.flatGet(0) < 0) throw ExecError("Repeat: repeats may not contain negative values");
    Shape shape = m_axis ? x.shape() : Shape{total};
    if (m_axis) shape[*m_axis] = total;
    NDArray r = arrayop::reuseOrEmpty(out[0], x.dtype(), shape);
    const size_t es = dtypeSize(x.dtype());
    const char* src = static_cast<const char*>(x.rawData());
    char* dst = static_cast<char*>(r.rawData());
    const size_t block = static_cast<size_t>(inner) * es;
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < n; ++i) {
            const char* from = src + static_cast<size_t>(o * n + i) * block;
            for (int64_t k = 0; k < count[i]; ++k, dst += block) std::memcpy(dst, from, block);
        }
    out[0] = r;
}

nlohmann::json RepeatOp::params() const { return {{"axis", m_axis ? nlohmann::json(*m_axis) : nlohmann::json(nullptr)}}; }

OpPtr makeRepeat(std::optional<int> axis) {
    if (axis && *axis < 0)
        throw std::invalid_argument("Repeat only accepts positive integer axis or None, got " + std::to_string(*axis));
    return std::make_shared<RepeatOp>(axis);
}

OpPtr makeOpRepeat(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {"axis"}, "Repeat");
    auto axis = opparams::optionalIntParam(params, "axis", "Repeat");
    if (axis && (*axis < 0 || *axis > 64)) throw std::invalid_argument("Repeat params: \"axis\" must be None or 0..64");
    OpPtr op = makeRepeat(axis ? std::optional<int>(static_cast<int>(*axis)) : std::nullopt);
    opparams::checkStatedAliasMaps(params, *op);
    return op;
}

} // namespace tl
