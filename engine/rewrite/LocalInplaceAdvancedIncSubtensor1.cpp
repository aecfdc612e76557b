// local_inplace_AdvancedIncSubtensor1: PyTensor's rewrite of that name (inplace, 70.6).
// AdvancedIncSubtensor1 writes into x itself instead of a copy when the destroy handler
// can order every other reader of x before it. When x is already destroyed by another
// node but is an Alloc of zeros, the Alloc is duplicated and the copy written into, as
// PyTensor does (a fresh zero buffer is cheaper than copying one).
//   AdvancedIncSubtensor1{no_inplace,inc}(Alloc(0.0, 8), g, idx) -> AdvancedIncSubtensor1{inplace,inc}(...), d={0: [0]}
#include "ops/AdvancedIncSubtensor.h"
#include "ops/Alloc.h"
#include "analysis/DestroyChecker.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

constexpr std::string_view kName = "local_inplace_AdvancedIncSubtensor1";

// Another node overwrites x's value (or a view of it): fgraph.has_destroyers([x]).
bool destroyedElsewhere(const Variable& x, const Node& self) {
    for (const Variable* v : viewTree(*viewRoot(x)))
        for (const Client& c : v->clients()) {
            if (c.isGraphOutput() || c.node == &self) continue;
            for (const auto& [o, ins] : c.node->op().destroyMap())
                for (int i : ins)
                    if (i == c.index) return true;
        }
    return false;
}

// Alloc.value_is_scalar_zero: an Alloc whose value is a constant 0 of one element.
bool isAllocOfZeros(const Variable& x) {
    const Node* n = x.owner();
    if (!n || n->op().kind() != OpKind::Alloc) return false;
    const Variable* v = n->input(0);
    return v->isConstant() && v->constantValue().size() == 1 && v->constantValue().item() == 0.0;
}

class LocalInplaceAdvancedIncSubtensor1 final : public GraphPass {
public:
    std::string_view name() const override { return kName; }
    std::vector<std::string> tags() const override { return {"fast_run", "inplace"}; }

    bool run(Rewriter& rewriter, const RewriteOptions&) override {
        if (rewriter.graph().countOfKind(OpKind::AdvancedIncSubtensor1) == 0) return false;  // nothing to make inplace
        bool changed = false;
        auto checker = std::make_unique<DestroyChecker>(rewriter.graph());
        std::vector<NodeId> todo;
        for (Node* n : rewriter.graph().toposort()) {
            if (n->kind() != OpKind::AdvancedIncSubtensor1) continue;
            if (auto* op = dynamic_cast<const AdvancedIncSubtensor1Op*>(&n->op()); op && !op->inplace()) todo.push_back(n->id());
        }
        for (NodeId id : todo) {
            Node* n = rewriter.graph().findNode(id);
            if (!n) continue;
            const auto& op = static_cast<const AdvancedIncSubtensor1Op&>(n->op());
            const bool duplicate = isAllocOfZeros(*n->input(0)) && destroyedElsewhere(*n->input(0), *n);
            if (!duplicate) {
                if (auto why = checker->tryDestroy(*n, 0)) {
                    rewriter.notifyMatchFailure(kName, *n, [&] { return *why; });
                    continue;
                }
            }
            {
                RewriteScope step(rewriter, kName, n);
                if (duplicate) {
                    // A buffer of its own: the Alloc computed once more for this node.
                    const Node* alloc = n->input(0)->owner();
                    Node* copy = rewriter.create(alloc->opPtr(), alloc->inputs().toVector());
                    rewriter.setInput(n, 0, copy->output(0));
                }
                OpPtr inplace = makeAdvancedIncSubtensor1(true, op.setInsteadOfInc());
                const std::string before = aliasMapText(n->op().destroyMap()), after = aliasMapText(inplace->destroyMap());
                rewriter.setOp(n, std::move(inplace));
                rewriter.attribute(n->id(), "destroy_map", before, after,
                                   duplicate ? "writes into a copy of the zero Alloc another node destroys" : "writes into x instead of a copy");
                step.setChanged();
            }
            changed = true;
            // The graph's structure changed: the checker starts again from the new graph.
            if (duplicate) checker = std::make_unique<DestroyChecker>(rewriter.graph());
        }
        return changed;
    }
};

} // namespace

std::unique_ptr<GraphPass> makeLocalInplaceAdvancedIncSubtensor1() { return std::make_unique<LocalInplaceAdvancedIncSubtensor1>(); }

} // namespace tl
