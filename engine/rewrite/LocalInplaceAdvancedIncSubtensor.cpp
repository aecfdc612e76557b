// local_inplace_AdvancedIncSubtensor: PyTensor's rewrite of that name (inplace, 70.6).
// AdvancedIncSubtensor / AdvancedSetSubtensor writes into x itself instead of a copy
// when the destroy handler can order every other reader of x before it; never when x
// is a constant, a graph input or a graph output (or a view of one).
//   AdvancedSetSubtensor(x * 2, 0.0, mask) -> the same with d={0: [0]}
#include "ops/AdvancedIncSubtensor.h"
#include "analysis/DestroyChecker.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

constexpr std::string_view kName = "local_inplace_AdvancedIncSubtensor";

class LocalInplaceAdvancedIncSubtensor final : public GraphPass {
public:
    std::string_view name() const override { return kName; }
    std::vector<std::string> tags() const override { return {"fast_run", "inplace"}; }

    bool run(Rewriter& rewriter, const RewriteOptions&) override {
        if (rewriter.graph().countOfKind(OpKind::AdvancedIncSubtensor) == 0) return false;  // nothing to make inplace
        DestroyChecker checker(rewriter.graph());
        bool changed = false;
        for (Node* n : rewriter.graph().toposort()) {
            if (n->kind() != OpKind::AdvancedIncSubtensor) continue;
            const auto* op = dynamic_cast<const AdvancedIncSubtensorOp*>(&n->op());
            if (!op || op->inplace()) continue;
            if (auto why = checker.tryDestroy(*n, 0)) {
                rewriter.notifyMatchFailure(kName, *n, [&] { return *why; });
                continue;
            }
            OpPtr inplace = makeAdvancedIncSubtensor(true, op->setInsteadOfInc(), op->ignoreDuplicates());
            const std::string before = aliasMapText(n->op().destroyMap()), after = aliasMapText(inplace->destroyMap());
            {
                RewriteScope step(rewriter, kName, n);
                rewriter.setOp(n, std::move(inplace));
                rewriter.attribute(n->id(), "destroy_map", before, after, "writes into x instead of a copy");
                step.setChanged();
            }
            changed = true;
        }
        return changed;
    }
};

} // namespace

std::unique_ptr<GraphPass> makeLocalInplaceAdvancedIncSubtensor() { return std::make_unique<LocalInplaceAdvancedIncSubtensor>(); }

} // namespace tl
