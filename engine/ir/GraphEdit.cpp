#include "ir/GraphEdit.h"

namespace tl {

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
