#include "ops/TensorScalar.h"

#include "ops/ArrayOpUtil.h"

#include <nlohmann/json.hpp>

namespace tl {

namespace {
/// Runtime values of both kinds are 0-d arrays; each conversion makes its own copy.
void copyScalar(const std::string& opName, const NDArray& in, NDArray& out) {
    if (in.ndim() != 0) throw ExecError(opName + ": expected a 0-d value, got shape " + shapeToString(in.shape()));
    NDArray r = arrayop::reuseOrEmpty(out, in.dtype(), {});
    r.assign(in);
    out = r;
}

} // namespace

std::vector<Type> ScalarFromTensorOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 1, name());
    if (!in[0]->isTensorType() || in[0]->ndim() != 0)
        throw OpTypeError("ScalarFromTensor input must be a 0-d tensor, got " + in[0]->toString());
    return {Type::scalar(in[0]->dtype)};
}

void ScalarFromTensorOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    copyScalar(name(), in[0], out[0]);
}

std::vector<Type> TensorFromScalarOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 1, name());
    if (!in[0]->isScalarType()) throw OpTypeError("TensorFromScalar input must be a ScalarType, got " + in[0]->toString());
    return {Type::tensor(in[0]->dtype, {})};
}

void TensorFromScalarOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    copyScalar(name(), in[0], out[0]);
}

OpPtr makeScalarFromTensor() {
    static const OpPtr op = std::make_shared<ScalarFromTensorOp>();
    return op;
}

OpPtr makeTensorFromScalar() {
    static const OpPtr op = std::make_shared<TensorFromScalarOp>();
    return op;
}

OpPtr makeOpScalarFromTensor(const nlohmann::json&, std::shared_ptr<const Graph>) { return makeScalarFromTensor(); }
OpPtr makeOpTensorFromScalar(const nlohmann::json&, std::shared_ptr<const Graph>) { return makeTensorFromScalar(); }

} // namespace tl
