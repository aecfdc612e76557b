// blockwise_inplace: PyTensor's InplaceBlockwiseOptimizer. A Blockwise whose core op
// can overwrite an input (Solve's b, Cholesky's A, ...: inplace_on_inputs) does so
// when the input has the output's batch broadcast pattern and the destroy handler
// can order every other reader of it first; never a constant, a graph input or a
// graph output.
//   Blockwise{Solve{..., overwrite_b=False}}(A, b + 1) -> the same with overwrite_b=True, d={0: [1]}
#include "analysis/DestroyChecker.h"
#include "ops/Blockwise.h"
#include "ops/Linalg.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

constexpr std::string_view kName = "blockwise_inplace";

class BlockwiseInplace final : public GraphPass {
public:
    std::string_view name() const override { return kName; }
    std::vector<std::string> tags() const override { return {"fast_run", "inplace"}; }

    bool run(Rewriter& rewriter, const RewriteOptions&) override {
        if (rewriter.graph().countOfKind(OpKind::Blockwise) == 0) return false;  // nothing to make inplace
        DestroyChecker checker(rewriter.graph());
        bool changed = false;
        for (Node* n : rewriter.graph().toposort()) {
            if (n->kind() != OpKind::Blockwise) continue;
            const auto* bw = dynamic_cast<const BlockwiseOp*>(&n->op());
            if (!bw || !bw->destroyMap().empty()) continue;
            std::vector<const Type*> types;
            for (const Variable* v : n->inputs()) types.push_back(&v->type());
            const int batch = bw->batchNdim(types);
            const StaticShape& out = n->output(0)->type().shape;
            // Inputs that keep the output's batch broadcast pattern (a broadcast input
            // is smaller than the output and cannot hold it) and may be destroyed.
            std::vector<int> allowed;
            std::string whyNot;
            for (int i = 0; i < n->numInputs(); ++i) {
                const Type& t = n->input(i)->type();
                const int pad = batch - (t.ndim() - static_cast<int>(bw->signature().inputs[i].size()));
                bool sameBatch = pad == 0;
                for (int d = 0; sameBatch && d < batch; ++d) sameBatch = (t.shape[d] == 1) == (out[d] == 1);
                if (!sameBatch) continue;
                if (auto why = checker.whyCannotDestroy(*n, i)) {
                    if (rewriter.wantsMatchFailures()) whyNot += (whyNot.empty() ? "" : "; ") + *why;
                    continue;
                }
                allowed.push_back(i);
            }
            OpPtr core = inplaceOnInputs(bw->corePtr(), allowed);
            if (core == bw->corePtr()) {
                rewriter.notifyMatchFailure(kName, *n, [&] {
                    return whyNot.empty() ? std::string("the core op overwrites none of its inputs") : whyNot;
                });
                continue;
            }
            OpPtr op = std::make_shared<BlockwiseOp>(core, bw->signature(), bw->displayName());
            for (const auto& [o, ins] : op->destroyMap())
                for (int i : ins) (void)checker.tryDestroy(*n, i);
            const std::string before = aliasMapText(n->op().destroyMap()), after = aliasMapText(op->destroyMap());
            RewriteScope scope(rewriter, kName, n);
            rewriter.setOp(n, std::move(op));
            rewriter.attribute(n->id(), "destroy_map", before, after, "the core op overwrites its input");
            scope.setChanged();
            changed = true;
        }
        return changed;
    }
};

} // namespace

std::unique_ptr<GraphPass> makeBlockwiseInplace() { return std::make_unique<BlockwiseInplace>(); }

} // namespace tl
