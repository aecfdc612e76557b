#pragma once
// Making an op from what a file says about it: the JSON loader and the dprint
// importer name an op family and its parameters; this turns them into the op.
#include "ir/Op.h"

#include <nlohmann/json_fwd.hpp>

#include <memory>

namespace tl {

/// Builds an op from its JSON kind, params and inner graph (JSON loader, dprint importer).
/// Throws std::invalid_argument with a message naming the bad param.
OpPtr makeOp(OpKind kind, const nlohmann::json& params, std::shared_ptr<const Graph> inner);

} // namespace tl
