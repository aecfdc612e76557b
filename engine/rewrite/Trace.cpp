#include "rewrite/Trace.h"

namespace tl {

std::vector<NodeId> TraceStep::createdNodes() const {
    std::vector<NodeId> out;
    for (const GraphEdit& e : edits)
        if (e.kind == GraphEdit::Kind::CreateNode) out.push_back(e.node.id);
    return out;
}

std::vector<NodeId> TraceStep::erasedNodes() const {
    std::vector<NodeId> out;
    for (const GraphEdit& e : edits)
        if (e.kind == GraphEdit::Kind::EraseNode) out.push_back(e.node.id);
    return out;
}

std::vector<std::pair<VarId, VarId>> TraceStep::rewiredVariables() const {
    std::vector<std::pair<VarId, VarId>> out;
    for (const GraphEdit& e : edits)
        if (e.kind == GraphEdit::Kind::ReplaceVariable || e.kind == GraphEdit::Kind::SetInput ||
            e.kind == GraphEdit::Kind::SetOutput)
            out.emplace_back(e.before, e.after);
    return out;
}

const char* graphEditKindName(GraphEdit::Kind k) {
    switch (k) {
    case GraphEdit::Kind::CreateNode: return "create_node";
    case GraphEdit::Kind::EraseNode: return "erase_node";
    case GraphEdit::Kind::AddConstant: return "add_constant";
    case GraphEdit::Kind::EraseConstant: return "erase_constant";
    case GraphEdit::Kind::ReplaceVariable: return "replace";
    case GraphEdit::Kind::SetInput: return "set_input";
    case GraphEdit::Kind::SetOutput: return "set_output";
    case GraphEdit::Kind::SetOp: return "set_op";
    }
    return "?";
}

} // namespace tl
