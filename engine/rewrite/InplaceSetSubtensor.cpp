// inplace_setsubtensor: PyTensor's local_inplace_setsubtensor. Set/IncSubtensor
// writes into x itself instead of a copy when the destroy handler can order every
// other reader of x before it; never when x is a constant, a graph input or a
// graph output (or a view of one).
//   SetSubtensor{:stop}(AllocEmpty(2, 7), init, 1) -> the same with d={0: [0]}
#include "ops/IncSubtensor.h"
#include "analysis/DestroyChecker.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

constexpr std::string_view kName = "inplace_setsubtensor";

class InplaceSetSubtensor final : public GraphPass {
public:
    std::string_view name() const override { return kName; }
    std::vector<std::string> tags() const override { return {"fast_run", "inplace", "local_inplace_setsubtensor"}; }

    bool run(Rewriter& rewriter, const RewriteOptions& options) override {
        if (rewriter.graph().countOfKind(OpKind::IncSubtensor) == 0) return false;  // nothing to make inplace
        DestroyChecker checker(rewriter.graph());
        bool changed = false;
        for (Node* n : rewriter.graph().toposort()) {
            if (n->kind() != OpKind::IncSubtensor) continue;
            const auto* inc = dynamic_cast<const IncSubtensorOp*>(&n->op());
            if (!inc || inc->inplace()) continue;
            if (auto why = checker.tryDestroy(*n, 0)) {
                rewriter.notifyMatchFailure(kName, *n, [&] { return *why; });
                continue;
            }
            OpPtr op = makeIncSubtensor(inc->entries(), inc->setInsteadOfInc(), true);
            const std::string before = aliasMapText(n->op().destroyMap()), after = aliasMapText(op->destroyMap());
            {
                RewriteScope step(rewriter, kName, n);
                rewriter.setOp(n, std::move(op));
                rewriter.attribute(n->id(), "destroy_map", before, after, "writes into x instead of a copy");
                step.setChanged();
            }
            changed = true;
        }
        return changed;
    }
};

} // namespace

std::unique_ptr<GraphPass> makeInplaceSetSubtensor() { return std::make_unique<InplaceSetSubtensor>(); }

} // namespace tl
