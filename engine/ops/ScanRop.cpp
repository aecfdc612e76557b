// Scan's forward derivative, as PyTensor's Scan.R_op (being written).
#include "ops/Scan.h"

#include "builder/GraphBuilder.h"
#include "ir/Graph.h"

namespace tl {

std::vector<Variable*> ScanOp::rop(GraphBuilder&, const Node&, std::span<Variable* const>) const {
    throw std::logic_error("Scan R_op is not implemented yet");
}

} // namespace tl
