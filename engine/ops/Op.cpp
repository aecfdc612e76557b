#include "ops/Op.h"

#include "ir/Graph.h"

#include <nlohmann/json.hpp>

#include <functional>

namespace tl {

namespace {
constexpr std::string_view kKindNames[] = {
#define TL_OP_KIND(kind, jsonName) jsonName,
#include "ops/OpKinds.def"
#undef TL_OP_KIND
};
static_assert(std::size(kKindNames) == kNumOpKinds);
} // namespace

std::string_view opKindName(OpKind k) { return kKindNames[static_cast<int>(k)]; }

std::optional<OpKind> parseOpKind(std::string_view name) {
    for (int i = 0; i < kNumOpKinds; ++i)
        if (kKindNames[i] == name) return static_cast<OpKind>(i);
    return std::nullopt;
}

nlohmann::json Op::params() const { return nlohmann::json::object(); }

bool Op::equals(const Op& other) const {
    if (this == &other) return true;
    if (kind() != other.kind() || params() != other.params()) return false;
    auto a = innerGraph(), b = other.innerGraph();
    // Inner graphs compare by identity here; structural comparison lives in the merge rewrite.
    return a == b;
}

size_t Op::hash() const {
    return std::hash<std::string>{}(params().dump()) * 31 + static_cast<size_t>(kind());
}

std::vector<Variable*> Op::rop(GraphBuilder&, const Node&, std::span<Variable* const>) const {
    throw std::logic_error("no forward derivative (R_op) for " + name());
}

// Each op family defines its factory in its own file (ops/<Family>.cpp).
#define TL_OP_KIND(kind, jsonName) OpPtr makeOp##kind(const nlohmann::json& params, std::shared_ptr<const Graph> inner);
#include "ops/OpKinds.def"
#undef TL_OP_KIND

OpPtr makeOp(OpKind kind, const nlohmann::json& params, std::shared_ptr<const Graph> inner) {
    using Factory = OpPtr (*)(const nlohmann::json&, std::shared_ptr<const Graph>);
    static constexpr Factory kFactories[] = {
#define TL_OP_KIND(kind, jsonName) &makeOp##kind,
#include "ops/OpKinds.def"
#undef TL_OP_KIND
    };
    return kFactories[static_cast<int>(kind)](params, std::move(inner));
}

} // namespace tl
