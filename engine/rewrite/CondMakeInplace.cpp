// cond_make_inplace: PyTensor's rewrite of that name (inplace, 95). An IfElse returns
// its then-values themselves instead of copies (as_view: view_map {k: [k + 1]}; the
// else-branch is still copied). As PyTensor, not for a graph of 500 nodes or more whose
// IfElse has only 0-d outputs. tensorlens also leaves it when some node overwrites the
// then-value or the IfElse's output (or a view of either), where PyTensor's validation
// might still find an order: a view of a destroyed value is never made here.
//   if{}(c, h * 2, h) -> if{inplace}(c, h * 2, h), v={0: [1]}
#include "ops/IfElse.h"
#include "analysis/DestroyChecker.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

constexpr std::string_view kName = "cond_make_inplace";

// Some node destroys a value in the view tree of `v`.
const Node* destroyerIn(const Variable& v) {
    for (const Variable* a : viewTree(v))
        for (const Client& c : a->clients()) {
            if (c.isGraphOutput()) continue;
            for (const auto& [o, ins] : c.node->op().destroyMap())
                for (int i : ins)
                    if (i == c.index) return c.node;
        }
    return nullptr;
}

class CondMakeInplace final : public GraphPass {
public:
    std::string_view name() const override { return kName; }
    std::vector<std::string> tags() const override { return {"fast_run", "inplace"}; }

    bool run(Rewriter& rewriter, const RewriteOptions&) override {
        if (rewriter.graph().countOfKind(OpKind::IfElse) == 0) return false;  // nothing to make inplace
        bool changed = false;
        const bool big = rewriter.graph().numNodes() >= 500;
        for (Node* n : rewriter.graph().toposort()) {
            if (n->kind() != OpKind::IfElse) continue;
            const auto* op = dynamic_cast<const IfElseOp*>(&n->op());
            if (!op || op->asView()) continue;
            bool allScalar = true;
            for (const Variable* o : n->outputs()) allScalar = allScalar && o->type().ndim() == 0;
            if (big && allScalar) {
                rewriter.notifyMatchFailure(kName, *n, [] { return std::string("a graph of 500 nodes or more and only 0-d outputs"); });
                continue;
            }
            std::string blocked;
            for (int k = 0; k < op->nOuts() && blocked.empty(); ++k) {
                if (const Node* d = destroyerIn(*viewRoot(*n->input(1 + k))))
                    blocked = d->label() + " overwrites then-value " + std::to_string(k);
                else if (const Node* d2 = destroyerIn(*n->output(k)))
                    blocked = d2->label() + " overwrites output " + std::to_string(k);
            }
            if (!blocked.empty()) {
                rewriter.notifyMatchFailure(kName, *n, [&] { return blocked; });
                continue;
            }
            OpPtr view = makeIfElse(op->nOuts(), true, op->branchName());
            const std::string before = aliasMapText(n->op().viewMap()), after = aliasMapText(view->viewMap());
            {
                RewriteScope step(rewriter, kName, n);
                rewriter.setOp(n, std::move(view));
                rewriter.attribute(n->id(), "view_map", before, after, "returns the then-values without copying them");
                step.setChanged();
            }
            changed = true;
        }
        return changed;
    }
};

} // namespace

std::unique_ptr<GraphPass> makeCondMakeInplace() { return std::make_unique<CondMakeInplace>(); }

} // namespace tl
