#pragma once
// PyTensor's inline_ofg_node: an OpFromGraph node replaced by a copy of its inner
// graph applied to the node's inputs (the inner graph's constants become constants
// of the graph). Shared by inline_ofg_expansion and inline_optimized_einsum. As in
// PyTensor, the copies are rebuilt nodes: a Reshape gets the static shape its entries
// fold to, and an output that ends up less specific than the node's replaces it
// through SpecifyShape (the pipeline's replace converts it, rw::convertVariable).
#include "ir/Rewriter.h"

namespace tl::rw {

/// Replaces every output of the OpFromGraph `node` by the matching output of its
/// inlined inner graph; the node goes with its last reader.
void inlineGraphOp(Rewriter& rewriter, Node& node);

} // namespace tl::rw
