#include "ops/Join.h"

#include "ops/ArrayOpUtil.h"

#include <nlohmann/json.hpp>

namespace tl {

std::vector<Type> JoinOp::inferTypes(std::span<const Type* const> in) const {
    std::vector<const NDArray*> none(in.size(), nullptr);
    return inferTypesWithConstants(in, none);
}

std::vector<Type> JoinOp::inferTypesWithConstants(std::span<const Type* const> in,
                                                  std::span<const NDArray* const> constants) const {
    arrayop::requireMinArity(in, 2, "Join");
    arrayop::requireIntScalar(*in[0], "Join axis");
    const int ndim = in[1]->ndim();
    DType dtype = in[1]->dtype;
    for (size_t i = 1; i < in.size(); ++i) {
        arrayop::requireTensor(*in[i], "Join input " + std::to_string(i));
        if (in[i]->ndim() == 0) throw OpTypeError("Join cannot handle 0-d inputs (input " + std::to_string(i) + ")");
        if (in[i]->ndim() != ndim)
            throw OpTypeError("Join: only tensors with the same number of dimensions can be joined; input " +
                              std::to_string(i) + " is " + in[i]->toString() + ", input 1 is " + in[1]->toString());
        if (i > 1) dtype = promote(dtype, in[i]->dtype);
    }
    if (in.size() == 2) return {Type::tensor(dtype, in[1]->shape)};
    auto axisValue = arrayop::constantInt(constants.empty() ? nullptr : constants[0]);
    if (!axisValue) return {Type::tensor(dtype, StaticShape(ndim, kUnknownDim))};
    int64_t axis = *axisValue;
    if (axis < -ndim || axis >= ndim)
        throw OpTypeError("Join: axis " + std::to_string(axis) + " is out of bounds for " + std::to_string(ndim) + "-d inputs");
    if (axis < 0) axis += ndim;
    StaticShape out(ndim, kUnknownDim);
    for (int d = 0; d < ndim; ++d) {
        if (d == axis) {
            int64_t sum = 0;
            for (size_t i = 1; i < in.size() && sum != kUnknownDim; ++i)
                sum = in[i]->shape[d] == kUnknownDim ? kUnknownDim : sum + in[i]->shape[d];
            out[d] = sum;
            continue;
        }
        for (size_t i = 1; i < in.size(); ++i) {
            const int64_t s = in[i]->shape[d];
            if (s == kUnknownDim) continue;
            if (out[d] != kUnknownDim && out[d] != s)
                throw OpTypeError("Join: all input dimensions other than the axis (" + std::to_string(axis) +
                                  ") must match; along dimension " + std::to_string(d) + " they are " +
                                  std::to_string(out[d]) + " and " + std::to_string(s));
            out[d] = s;
        }
    }
    return {Type::tensor(dtype, std::move(out))};
}

void JoinOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const int ndim = in[1].ndim();
    int64_t axis = arrayop::readInt(in[0], "Join axis");
    if (axis < -ndim || axis >= ndim)
        throw ExecError("Join: axis " + std::to_string(axis) + " is out of bounds for " + std::to_string(ndim) + "-d inputs");
    if (axis < 0) axis += ndim;
    Shape shape = in[1].shape();
    shape[axis] = 0;
    DType dtype = in[1].dtype();
    for (size_t i = 1; i < in.size(); ++i) {
        if (in[i].ndim() != ndim)
            throw ExecError("Join: input " + std::to_string(i) + " has shape " + shapeToString(in[i].shape()) +
                            ", input 1 has " + shapeToString(in[1].shape()));
        for (int d = 0; d < ndim; ++d)
            if (d != axis && in[i].dim(d) != in[1].dim(d))
                throw ExecError("Join: input " + std::to_string(i) + " has shape " + shapeToString(in[i].shape()) +
                                ", which differs from input 1's " + shapeToString(in[1].shape()) + " along dimension " +
                                std::to_string(d) + " (joining along axis " + std::to_string(axis) + ")");
        shape[axis] += in[i].dim(axis);
        if (i > 1) dtype = promote(dtype, in[i].dtype());
    }
    NDArray r = arrayop::reuseOrEmpty(out[0], dtype, shape);
    int64_t at = 0;
    for (size_t i = 1; i < in.size(); ++i) {
        Shape part = shape;
        part[axis] = in[i].dim(axis);
        r.view(part, r.strides(), r.offset() + at * r.strides()[axis]).assign(in[i]);
        at += part[axis];
    }
    out[0] = r;
}

OpPtr makeJoin() {
    static const OpPtr op = std::make_shared<JoinOp>();
    return op;
}

OpPtr makeOpJoin(const nlohmann::json&, std::shared_ptr<const Graph>) { return makeJoin(); }

} // namespace tl
