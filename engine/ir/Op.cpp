#include "ir/Op.h"

#include "ir/Graph.h"

#include <nlohmann/json.hpp>

#include <functional>

namespace tl {

namespace {
constexpr std::string_view kKindNames[] = {
#define TL_OP_KIND(kind, jsonName) jsonName,
#include "ir/OpKinds.def"
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

void Op::perform(std::span<const NDArray>, std::span<NDArray>) const {
    throw ExecError(name() + " has no kernel of its own: the executor runs it");
}

} // namespace tl
