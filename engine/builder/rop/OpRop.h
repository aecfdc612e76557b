#pragma once
// Every op's forward derivative (PyTensor's Op.R_op), looked up by the op's
// family. They live in the builder, not beside the ops, because a derivative is
// a graph built from other ops: ops stay free of graph building.
#include "builder/GraphBuilder.h"

#include <span>
#include <vector>

namespace tl {

/// Tangents of `node`'s outputs given tangents of its inputs (null entries are
/// zero), built in `b`. One Variable* per output (null = zero). Throws
/// std::logic_error naming the op when it has no forward derivative.
std::vector<Variable*> ropOfNode(GraphBuilder& b, const Node& node, std::span<Variable* const> inputTangents);

// The rules by family (builder/rop/*.cpp); ropOfNode picks one.
std::vector<Variable*> elemwiseRop(GraphBuilder& b, const Node& node, std::span<Variable* const> inputTangents);
std::vector<Variable*> scalarNodeRop(GraphBuilder& b, const Node& node, std::span<Variable* const> inputTangents);
std::vector<Variable*> scanRop(GraphBuilder& b, const Node& node, std::span<Variable* const> inputTangents);
/// Products and the inverse: BatchedDot, MatrixInverse, Blockwise of Dot or MatrixInverse (builder/rop/LinalgRop.cpp).
std::vector<Variable*> linalgRop(GraphBuilder& b, const Node& node, std::span<Variable* const> inputTangents);
/// Structural and indexing ops (builder/rop/ArrayRop.cpp); null when the family has no rule there.
using RopRule = std::vector<Variable*> (*)(GraphBuilder&, const Node&, std::span<Variable* const>);
RopRule arrayRopRule(OpKind kind);
/// Reductions, Argmax, the softmax family and CumOp (builder/rop/ReductionRop.cpp).
RopRule reductionRopRule(OpKind kind);
/// Advanced indexing (builder/rop/IndexingRop.cpp) and IfElse / OpFromGraph
/// (builder/rop/ControlFlowRop.cpp); null when the family has no rule there.
RopRule advancedIndexingRopRule(OpKind kind);
RopRule controlFlowRopRule(OpKind kind);
/// Array constructors and selection ops (builder/rop/ArrayOpsRop.cpp); null when none.
RopRule arrayOpsRopRule(OpKind kind);

} // namespace tl
