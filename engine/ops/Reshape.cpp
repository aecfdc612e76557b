#include "ops/Reshape.h"

#include "ops/ArrayOpUtil.h"

#include <nlohmann/json.hpp>

namespace tl {

ReshapeOp::ReshapeOp(int ndim) : Op(OpKind::Reshape), m_ndim(ndim) {
    if (ndim < 0) throw std::invalid_argument("Reshape: ndim must be >= 0, got " + std::to_string(ndim));
}

std::vector<Type> ReshapeOp::inferTypes(std::span<const Type* const> in) const {
    std::vector<const NDArray*> none(in.size(), nullptr);
    return inferTypesWithConstants(in, none);
}

std::vector<Type> ReshapeOp::inferTypesWithConstants(std::span<const Type* const> in,
                                                     std::span<const NDArray* const> constants) const {
    arrayop::requireArity(in, 2, name());
    const Type& x = *in[0];
    const Type& shp = *in[1];
    arrayop::requireTensor(x, name() + " input");
    const NDArray* c = constants.size() > 1 ? constants[1] : nullptr;
    // As PyTensor's Reshape, an empty shape may have any dtype (numpy builds
    // `np.array([])` as float64): it has no entry whose type could matter.
    const bool emptyShape = (c && c->size() == 0) || (!shp.isScalarType() && shp.ndim() == 1 && shp.shape[0] == 0);
    if (shp.isScalarType() || shp.ndim() != 1 || (!arrayop::isIntDType(shp.dtype) && !emptyShape))
        throw OpTypeError(name() + ": the shape must be a 1-d integer tensor, got " + shp.toString());
    if (shp.shape[0] != kUnknownDim && shp.shape[0] != m_ndim)
        throw OpTypeError(name() + ": the shape " + shp.toString() + " has " + std::to_string(shp.shape[0]) +
                          " entries, should be " + std::to_string(m_ndim));
    std::vector<std::optional<int64_t>> entries(m_ndim);
    if (c) {
        if (c->size() != m_ndim)
            throw OpTypeError(name() + ": constant shape has " + std::to_string(c->size()) + " entries");
        for (int i = 0; i < m_ndim; ++i) entries[i] = static_cast<int64_t>(c->flatGet(i));
    }
    StaticShape out = reshapeStaticShape(x, entries, name());
    return {Type::tensor(x.dtype, std::move(out))};
}

void ReshapeOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& x = in[0];
    const NDArray& shp = in[1];
    if (shp.ndim() != 1 || shp.dim(0) != m_ndim)
        throw ExecError(name() + ": shape argument has shape " + shapeToString(shp.shape()) + ", should be (" +
                        std::to_string(m_ndim) + (m_ndim == 1 ? ",)" : ")"));
    Shape target(m_ndim);
    int at = -1;
    int64_t known = 1;
    for (int i = 0; i < m_ndim; ++i) {
        target[i] = static_cast<int64_t>(shp.flatGet(i));
        if (target[i] == -1) {
            if (at >= 0) throw ExecError(name() + ": can only specify one unknown dimension, got shape " + shapeToString(target));
            at = i;
        } else if (target[i] < 0) {
            throw ExecError(name() + ": invalid shape " + shapeToString(target));
        } else {
            known *= target[i];
        }
    }
    const int64_t total = x.size();
    if (at >= 0) {
        if (known == 0 || total % known != 0)
            throw ExecError(name() + ": cannot reshape array of shape " + shapeToString(x.shape()) + " into shape " +
                            shapeToString(target));
        target[at] = total / known;
    } else if (known != total) {
        throw ExecError(name() + ": cannot reshape array of shape " + shapeToString(x.shape()) + " into shape " +
                        shapeToString(target));
    }
    // A contiguous input is viewed (as numpy.reshape); otherwise copied first.
    const NDArray src = x.isContiguous() ? x : x.copy();
    out[0] = src.view(target, NDArray::contiguousStrides(target), src.offset());
}

nlohmann::json ReshapeOp::params() const { return {{"ndim", m_ndim}}; }

StaticShape reshapeStaticShape(const Type& x, const std::vector<std::optional<int64_t>>& entries,
                               const std::string& opName) {
    const int nd = static_cast<int>(entries.size());
    StaticShape out(nd, kUnknownDim);
    int minusOnes = 0;
    for (int i = 0; i < nd; ++i) {
        if (!entries[i]) continue;
        const int64_t v = *entries[i];
        if (v >= 0) out[i] = v;
        else if (v == -1) ++minusOnes;
        else throw OpTypeError(opName + ": invalid shape entry " + std::to_string(v));
    }
    if (minusOnes > 1) throw OpTypeError(opName + ": can only specify one unknown dimension (-1)");
    // With a fully known input, one unknown output dim follows from the size (as PyTensor).
    int unknown = 0, at = -1;
    for (int i = 0; i < nd; ++i)
        if (out[i] == kUnknownDim) ++unknown, at = i;
    if (x.fullyKnown() && unknown <= 1) {
        int64_t total = 1, known = 1;
        for (int64_t d : x.shape) total *= d;
        for (int64_t d : out)
            if (d != kUnknownDim) known *= d;
        const bool fits = unknown == 0 ? known == total : (known != 0 && total % known == 0);
        if (!fits)
            throw OpTypeError(opName + ": input shape " + Type::shapeString(x.shape) + " is incompatible with new shape " +
                              Type::shapeString(out));
        if (unknown == 1) out[at] = total / known;
    }
    return out;
}

OpPtr makeReshape(int ndim) { return std::make_shared<ReshapeOp>(ndim); }

OpPtr makeOpReshape(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    const auto& nd = arrayop::requireParam(params, "ndim", "Reshape");
    if (!nd.is_number_integer()) throw std::invalid_argument("Reshape params: \"ndim\" must be an integer, got " + nd.dump());
    return makeReshape(nd.get<int>());
}

} // namespace tl
