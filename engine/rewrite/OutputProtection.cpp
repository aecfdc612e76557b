// output_protection: PyTensor's insert_deepcopy. A graph output whose memory is
// a graph input, a constant, or shared with a later output (through views and
// destroyers: aliasRoot) is returned through a DeepCopyOp, so callers never get
// two outputs in one buffer nor an output that overwrites their input.
//   outputs (x[1:], x[1:]) -> (DeepCopyOp(x[1:]), ...) ; output x -> DeepCopyOp(x)
#include "ops/DeepCopy.h"
#include "analysis/DestroyHandler.h"
#include "rewrite/Rewrites.h"

#include <unordered_map>

namespace tl {

namespace {

constexpr std::string_view kName = "output_protection";

std::string rootText(const Variable& root) {
    if (root.isConstant()) return "a constant";
    return root.name().empty() ? "graph input #" + std::to_string(root.id()) : "graph input '" + root.name() + "'";
}

class OutputProtection final : public GraphPass {
public:
    std::string_view name() const override { return kName; }
    std::vector<std::string> tags() const override { return {"fast_run", "output_protection", "insert_deepcopy"}; }

    bool run(Rewriter& rewriter, const RewriteOptions&) override {
        const Graph& g = rewriter.graph();
        const size_t n = g.outputs().size();
        // Two outputs share memory exactly when they have the same alias root.
        std::vector<const Variable*> roots(n);
        std::unordered_map<const Variable*, size_t> lastWithRoot;
        for (size_t i = 0; i < n; ++i) {
            roots[i] = aliasRoot(*g.outputs()[i]);
            lastWithRoot[roots[i]] = i;
        }
        bool changed = false;
        for (size_t i = 0; i < n; ++i) {
            std::string why;
            if (lastWithRoot.at(roots[i]) > i)
                why = "shares memory with output " + std::to_string(lastWithRoot.at(roots[i]));
            else if (!roots[i]->owner())
                why = "is " + rootText(*roots[i]) + (roots[i] == g.outputs()[i] ? "" : " or a view of it");
            if (why.empty()) {
                if (const Node* owner = g.outputs()[i]->owner())
                    rewriter.notifyMatchFailure(kName, *owner, [&] {
                        return "output " + std::to_string(i) +
                               " is its own array: neither an input (or a view of one) nor shared with a later output";
                    });
                continue;
            }
            Variable* out = g.outputs()[i];
            {
                RewriteScope step(rewriter, kName, out->owner());
                Node* copy = rewriter.create(makeDeepCopy(), {out});
                rewriter.setOutput(static_cast<int>(i), copy->output(0));
                rewriter.attribute(copy->id(), "deep_copy", "", "output " + std::to_string(i), "the output " + why);
                step.setChanged();
            }
            changed = true;
        }
        return changed;
    }
};

} // namespace

std::unique_ptr<GraphPass> makeOutputProtection() { return std::make_unique<OutputProtection>(); }

} // namespace tl
