#include "builder/rop/OpRop.h"

#include <stdexcept>

namespace tl {

std::vector<Variable*> ropOfNode(GraphBuilder& b, const Node& node, std::span<Variable* const> inputTangents) {
    switch (node.op().kind()) {
    case OpKind::Elemwise: return elemwiseRop(b, node, inputTangents);
    case OpKind::Scalar: return scalarNodeRop(b, node, inputTangents);
    case OpKind::Scan: return scanRop(b, node, inputTangents);
    case OpKind::Blockwise:
    case OpKind::BatchedDot:
    case OpKind::MatrixInverse: return linalgRop(b, node, inputTangents);
    default: break;
    }
    if (RopRule rule = arrayRopRule(node.op().kind())) return rule(b, node, inputTangents);
    if (RopRule rule = reductionRopRule(node.op().kind())) return rule(b, node, inputTangents);
    if (RopRule rule = advancedIndexingRopRule(node.op().kind())) return rule(b, node, inputTangents);
    if (RopRule rule = controlFlowRopRule(node.op().kind())) return rule(b, node, inputTangents);
    if (RopRule rule = arrayOpsRopRule(node.op().kind())) return rule(b, node, inputTangents);
    throw std::logic_error("no forward derivative (R_op) for " + node.op().name());
}

} // namespace tl
