#pragma once
// One primitive graph edit as the Rewriter made it: what a trace stores and
// replays (trace/Trace.h groups edits into steps). Snapshots hold everything a
// replay needs to recreate what an edit created or erased.
#include "ir/Graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tl {

/// Everything needed to recreate a node during replay.
struct NodeSnapshot {
    NodeId id = 0;
    OpPtr op;
    std::vector<VarId> inputs;
    std::vector<VarId> outputIds;
    std::vector<Type> outputTypes;
    std::vector<std::string> outputNames;
};

/// A constant added by a rewrite (or erased: then its name too, to restore it).
struct ConstantSnapshot {
    VarId id = 0;
    Type type;
    NDArray value;
    std::string name;
};

/// One primitive graph edit, in the order the Rewriter made it.
struct GraphEdit {
    enum class Kind : uint8_t { CreateNode, EraseNode, AddConstant, EraseConstant, ReplaceVariable, SetInput, SetOutput, SetOp };
    Kind kind = Kind::CreateNode;
    NodeSnapshot node;           // CreateNode, EraseNode
    ConstantSnapshot constant;   // AddConstant, EraseConstant
    NodeId nodeId = -1;          // SetInput, SetOp
    int index = 0;               // SetInput, SetOutput
    VarId before = -1, after = -1;  // ReplaceVariable, SetInput, SetOutput
    OpPtr opBefore, opAfter;     // SetOp
};

/// The edit kind's name in trace files and messages ("create_node", "replace", ...).
const char* graphEditKindName(GraphEdit::Kind k);

} // namespace tl
