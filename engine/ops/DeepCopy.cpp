#include "ops/DeepCopy.h"

#include "ops/ArrayOpUtil.h"

#include <nlohmann/json.hpp>

namespace tl {

std::vector<Type> DeepCopyOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 1, "DeepCopyOp");
    return {*in[0]};
}

void DeepCopyOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    NDArray r = arrayop::reuseOrEmpty(out[0], in[0].dtype(), in[0].shape());
    r.assign(in[0]);
    out[0] = r;
}

OpPtr makeDeepCopy() {
    static const OpPtr op = std::make_shared<DeepCopyOp>();
    return op;
}

OpPtr makeOpDeepCopy(const nlohmann::json&, std::shared_ptr<const Graph>) { return makeDeepCopy(); }

} // namespace tl
