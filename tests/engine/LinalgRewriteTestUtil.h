#pragma once
// What the linear-algebra rewrite suites build their cases from: a well-conditioned
// symmetric positive definite matrix made of an input, and counting the nodes that
// compute an op directly or as the core of a Blockwise.
#include "builder/GraphBuilder.h"
#include "builder/Indexing.h"
#include "builder/Linalg.h"
#include "builder/Math.h"
#include "ops/Blockwise.h"

#include <vector>

namespace tl::test {

/// X X^T + n I for an n x n input X named `name`: symmetric positive definite and
/// well conditioned whatever X holds.
inline Var spdInput(GraphBuilder& b, const char* name, int64_t n) {
    Var x = b.input(name, DType::Float64, {n, n});
    std::vector<double> eye(static_cast<size_t>(n * n), 0.0);
    for (int64_t i = 0; i < n; ++i) eye[static_cast<size_t>(i * (n + 1))] = static_cast<double>(n);
    return dot(x, transpose(x)) + b.constant(NDArray::fromVector(DType::Float64, {n, n}, eye));
}

/// Nodes of `g` computing `kind`, directly or as the core of a Blockwise.
inline int countCore(const Graph& g, OpKind kind) {
    int count = 0;
    for (const Node* node : g.nodes())
        count += node->kind() == kind ||
                 (node->kind() == OpKind::Blockwise && static_cast<const BlockwiseOp&>(node->op()).core().kind() == kind);
    return count;
}

} // namespace tl::test
