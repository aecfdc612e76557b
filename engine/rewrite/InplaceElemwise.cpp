// inplace_elemwise: PyTensor's InplaceElemwiseOptimizer. Each output of an
// Elemwise (multi-output Composites included) overwrites one of its inputs of
// the same type when the destroy handler can order every other reader of that
// input before the node; never a constant, a graph input or a graph output.
//   Exp(Add(x, y)) -> Exp{inplace}(Add(x, y)), d={0: [0]}
#include "ops/Elemwise.h"
#include "analysis/DestroyChecker.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

constexpr std::string_view kName = "inplace_elemwise";

// The inputs output `o` may overwrite, exact type matches first (an input with a
// statically unknown dim the output knows is allowed, as Elemwise's own check does).
std::vector<int> candidateInputs(const Node& n, int o, const InplacePattern& taken) {
    const Type& out = n.output(o)->type();
    std::vector<int> exact, loose;
    for (int i = 0; i < n.numInputs(); ++i) {
        bool used = false;
        for (auto [k, j] : taken) used |= j == i;
        const Type& in = n.input(i)->type();
        if (used || in.isScalarType() || in.dtype != out.dtype || in.ndim() != out.ndim()) continue;
        bool ok = true;
        for (int d = 0; d < in.ndim(); ++d) ok &= !(in.shape[d] == 1 && out.shape[d] != 1);
        if (!ok) continue;
        (in == out ? exact : loose).push_back(i);
    }
    exact.insert(exact.end(), loose.begin(), loose.end());
    return exact;
}

class InplaceElemwise final : public GraphPass {
public:
    std::string_view name() const override { return kName; }
    std::vector<std::string> tags() const override { return {"fast_run", "inplace", "inplace_elemwise_optimizer"}; }

    bool run(Rewriter& rewriter, const RewriteOptions& options) override {
        DestroyChecker checker(rewriter.graph());
        bool changed = false;
        for (Node* n : rewriter.graph().toposort()) {
            const auto* e = dynamic_cast<const Elemwise*>(&n->op());
            if (!e || !e->inplacePattern().empty()) continue;
            InplacePattern pattern;
            std::string whyNot;
            for (int o = 0; o < n->numOutputs(); ++o)
                for (int i : candidateInputs(*n, o, pattern)) {
                    auto why = checker.tryDestroy(*n, i);
                    if (!why) {
                        pattern[o] = i;
                        break;
                    }
                    if (rewriter.wantsMatchFailures()) whyNot += (whyNot.empty() ? "" : "; ") + *why;
                }
            if (pattern.empty()) {
                rewriter.notifyMatchFailure(kName, *n, [&] { return whyNot.empty() ? std::string("no input has the output's type") : whyNot; });
                continue;
            }
            OpPtr op = e->withInplace(pattern);
            const std::string before = aliasMapText(n->op().destroyMap()), after = aliasMapText(op->destroyMap());
            {
                RewriteScope step(rewriter, kName, n);
                rewriter.setOp(n, std::move(op));
                rewriter.attribute(n->id(), "destroy_map", before, after, "the output overwrites its input");
                step.setChanged();
            }
            changed = true;
        }
        return changed;
    }
};

} // namespace

std::unique_ptr<GraphPass> makeInplaceElemwise() { return std::make_unique<InplaceElemwise>(); }

} // namespace tl
