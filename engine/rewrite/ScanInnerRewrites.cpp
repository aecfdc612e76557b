// scan_inner_rewrites: the loop body of every Scan goes through
// Pipeline::innerGraph() (merge, canonicalize, ..., specialize, fusion), as PyTensor
// rewrites a Scan's inner function when it compiles it. The rewritten copy replaces the
// body; the loop's outer inputs and outputs stay as they were.
//   Scan{body: Exp(x) - 5, Exp(x) * dx}  ->  Scan{body: Composite{...}(x, dx)}
#include "ir/Fingerprint.h"
#include "ops/Elemwise.h"
#include "ops/IncSubtensor.h"
#include "ops/ScanOp.h"
#include "rewrite/Pipeline.h"
#include "rewrite/Rewrites.h"
#include "analysis/DestroyHandler.h"
#include "analysis/ScanReuseProof.h"

#include <algorithm>

namespace tl {

namespace {

constexpr std::string_view kName = "scan_inner_rewrites";

// The op without its destroy map, or null for an op that has no such form.
OpPtr withoutDestroyMap(const Op& op) {
    if (const auto* e = dynamic_cast<const Elemwise*>(&op)) return e->withInplace({});
    if (const auto* inc = dynamic_cast<const IncSubtensorOp*>(&op))
        return makeIncSubtensor(inc->entries(), inc->setInsteadOfInc(), false);
    if (const auto* scan = dynamic_cast<const ScanOp*>(&op)) return scan->withInplace({});
    return nullptr;
}

// PyTensor compiles a step with inplace ops, some of them overwriting the step's own
// inputs (the taps of a gradient's mit_mot states). tensorlens's step graphs never
// destroy (its pipeline makes only the outer graph inplace, and the executor copies
// where a step graph does), so the step is rewritten as the same ops without their
// destroy maps; when nothing else changes, the loop keeps the step it had.
void dropDestroyers(Graph& body) {
    Rewriter rw(body);
    for (Node* n : body.toposort())
        if (!n->op().destroyMap().empty())
            if (OpPtr plain = withoutDestroyMap(n->op())) rw.setOp(n, std::move(plain));
}

class ScanInnerRewrites final : public GraphPass {
public:
    explicit ScanInnerRewrites(InnerRewriteStage stage) : m_stage(stage) {}
    std::string_view name() const override { return kName; }
    std::vector<std::string> tags() const override { return {"fast_run", "scan", "inner_graph"}; }

    bool run(Rewriter& rewriter, const RewriteOptions& options) override {
        if (rewriter.graph().countOfKind(OpKind::Scan) == 0) return false;  // no walk of a loop-free graph
        PipelineOptions inner;
        if (const auto* outer = dynamic_cast<const PipelineOptions*>(&options)) {
            inner.exclude = outer->exclude;
            inner.include = outer->include;
            inner.checkHonestChange = outer->checkHonestChange;
            inner.validate = outer->validate;  // a body is checked when the graph is (the default)
        }
        inner.bufferMode = options.bufferMode;
        // Early: merged and canonical bodies help the scan rewrites compare steps;
        // specializing or fusing now would hide shared subexpressions that scan merging
        // creates later, and nested loops get their turn late.
        std::vector<std::string> changedPasses;
        inner.onPass = [&](std::string_view, std::string_view pass, bool changed) {
            if (changed) changedPasses.emplace_back(pass);
        };
        const Pipeline pipeline = Pipeline::innerGraph(m_stage == InnerRewriteStage::Late);

        bool changed = false;
        for (Node* n : rewriter.graph().toposort()) {
            const auto* scan = dynamic_cast<const ScanOp*>(&n->op());
            if (!scan) continue;
            std::unique_ptr<Graph> body = scan->inner()->clone();
            dropDestroyers(*body);
            const uint64_t before = fingerprint(*body);
            // What PyTensor lets the step overwrite: its updated mit_mot taps.
            inner.mutableInputs = scanMutableInnerInputs(scan->info());
            changedPasses.clear();
            try {
                pipeline.run(*body, inner);
            } catch (const std::exception& e) {
                throw PipelineError("in the loop body of " + n->label() + ": " + e.what());
            }
            if (changedPasses.empty() || fingerprint(*body) == before) {
                rewriter.notifyMatchFailure(kName, *n, [] {
                    return std::string("the loop body is already what merge, canonicalize and fusion make of it");
                });
                continue;
            }

            // A reuse proof is about the step's structure: re-derive it on the new body.
            std::vector<bool> reuse = scan->reuseProvenSafe();
            std::string dropped;
            if (std::find(reuse.begin(), reuse.end(), true) != reuse.end()) {
                const std::vector<ReuseProof> proofs = proveRowReuse(*body, scan->info(), reuse);
                for (size_t s = 0; s < reuse.size(); ++s)
                    if (reuse[s] && !(s < proofs.size() && proofs[s].safe)) {
                        reuse[s] = false;
                        dropped += (dropped.empty() ? "" : ", ") + std::to_string(s);
                    }
            }
            std::string passes;
            for (const std::string& p : changedPasses) passes += (passes.empty() ? "" : ", ") + p;
            const std::string sizeBefore = std::to_string(scan->inner()->numNodes()) + " nodes";
            const std::string sizeAfter = std::to_string(body->numNodes()) + " nodes";
            OpPtr op = makeScan(scan->info(), std::shared_ptr<const Graph>(std::move(body)), scan->scanName(),
                                scan->inplaceStates(), reuse);
            {
                RewriteScope step(rewriter, kName, n);
                rewriter.setOp(n, std::move(op));
                rewriter.attribute(n->id(), "inner_graph", sizeBefore, sizeAfter, "step rewritten by " + passes);
                if (!dropped.empty())
                    rewriter.attribute(n->id(), "reuse_proven_safe", "states " + dropped, "none",
                                       "the rewritten step no longer proves the row reuse");
                step.setChanged();
            }
            changed = true;
        }
        return changed;
    }

private:
    InnerRewriteStage m_stage;
};

} // namespace

std::unique_ptr<GraphPass> makeScanInnerRewrites(InnerRewriteStage stage) {
    return std::make_unique<ScanInnerRewrites>(stage);
}

} // namespace tl
