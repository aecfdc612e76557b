#pragma once
// A Composite inside a Composite's inner graph, as PyTensor's compiled graphs hold
// (Composite{...Composite{sqr(sqr(i0))}...} after fusing loop bodies): the JSON
// loader copies the nested body into the enclosing one, so it loads as one flat
// Composite that computes the same values.
#include "ir/GraphAssembler.h"

#include <vector>

namespace tl {

/// Copies `body` (the nested Composite's scalar graph) into `g` on `inputs`; its
/// outputs become variables with ids `outputIds` (empty: fresh ones) and types `types` (an output that
/// is a body input, a constant or a repeated variable goes through identity).
/// Throws std::invalid_argument when the input count does not match.
std::vector<Variable*> inlineNestedComposite(GraphAssembler& g, const Graph& body, const std::vector<Variable*>& inputs,
                                             const std::vector<Type>& types, const std::vector<VarId>& outputIds);

} // namespace tl
