#pragma once
// A structural hash of a graph: node ids, ops (with params and inner graphs),
// wiring, types and outputs. Used to check that a rewrite's "changed" is honest
// and that trace replay rebuilds the recorded graph.
#include "ir/Graph.h"

#include <cstdint>

namespace tl {

uint64_t fingerprint(const Graph& g);
/// Hash of an op: kind, params and inner graph.
uint64_t fingerprint(const Op& op);

} // namespace tl
