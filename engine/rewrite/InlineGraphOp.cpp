#include "rewrite/InlineGraphOp.h"

#include "ops/OpFromGraph.h"
#include "ops/Reshape.h"
#include "rewrite/StaticShapeValue.h"

#include <unordered_map>

namespace tl::rw {

void inlineGraphOp(Rewriter& rewriter, Node& node) {
    const auto& op = static_cast<const OpFromGraphOp&>(node.op());
    const Graph& g = *op.inner();
    std::unordered_map<const Variable*, Variable*> map;
    for (size_t i = 0; i < g.inputs().size(); ++i) map[g.inputs()[i]] = node.input(static_cast<int>(i));
    auto lookup = [&](Variable* v) {
        if (auto it = map.find(v); it != map.end()) return it->second;
        return map[v] = rewriter.constant(v->constantValue(), v->type());
    };
    for (Node* n : g.toposort()) {
        std::vector<Variable*> ins;
        for (Variable* in : n->inputs()) ins.push_back(lookup(in));
        // Rebuilt as PyTensor's clone_replace rebuilds it (make_node): a Reshape learns
        // the static sizes its shape entries now fold to (the operands' static shapes).
        Node* copy = n->kind() == OpKind::Reshape
                         ? rw::reshapeWithStaticShape(rewriter, ins[0], ins[1], static_cast<const ReshapeOp&>(n->op()).ndim())->owner()
                         : rewriter.create(n->opPtr(), std::move(ins));
        for (int k = 0; k < n->numOutputs(); ++k) map[n->output(k)] = copy->output(k);
    }
    // Ids first: replacing the last used output prunes the node.
    std::vector<std::pair<VarId, Variable*>> outs;
    for (int k = 0; k < node.numOutputs(); ++k) outs.emplace_back(node.output(k)->id(), lookup(g.outputs()[k]));
    for (auto [id, v] : outs)
        if (Variable* old = rewriter.graph().findVariable(id)) rewriter.replace(old, v);
}

} // namespace tl::rw
