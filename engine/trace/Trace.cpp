#include "trace/Trace.h"

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

} // namespace tl
