#include "ops/OpFactory.h"

#include <nlohmann/json.hpp>

namespace tl {

// Each op family defines its factory in its own file (ops/<Family>.cpp).
#define TL_OP_KIND(kind, jsonName) OpPtr makeOp##kind(const nlohmann::json& params, std::shared_ptr<const Graph> inner);
#include "ir/OpKinds.def"
#undef TL_OP_KIND

OpPtr makeOp(OpKind kind, const nlohmann::json& params, std::shared_ptr<const Graph> inner) {
    using Factory = OpPtr (*)(const nlohmann::json&, std::shared_ptr<const Graph>);
    static constexpr Factory kFactories[] = {
#define TL_OP_KIND(kind, jsonName) &makeOp##kind,
#include "ir/OpKinds.def"
#undef TL_OP_KIND
    };
    return kFactories[static_cast<int>(kind)](params, std::move(inner));
}

} // namespace tl
