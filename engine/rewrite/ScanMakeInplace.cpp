// scan_make_inplace (PyTensor's ScanInplaceOptimizer): a loop writes its states
// straight into the outer trace buffers instead of copying them first.
//   Scan{inplace=none}(n, buf) -> Scan{inplace=all}(n, buf)   with d={k: [buf]}
// Only where the destroy handler allows it: the buffer is not a graph input or a
// constant, nothing reads it afterwards, no other state uses the same storage.
#include "ir/Rewriter.h"
#include "ops/ScanOp.h"
#include "analysis/DestroyChecker.h"
#include "rewrite/RewriteBase.h"
#include "rewrite/Rewrites.h"


namespace tl {

namespace {

class ScanMakeInplacePass final : public GraphPass {
public:
    std::string_view name() const override { return "scan_make_inplace"; }
    std::vector<std::string> tags() const override { return {"fast_run", "scan", "inplace"}; }

    bool run(Rewriter& rw, const RewriteOptions& options) override {
        if (rw.graph().countOfKind(OpKind::Scan) == 0) return false;  // nothing to make inplace
        bool changed = false;
        // One incremental checker for the whole pass: each candidate costs the region
        // between its readers and itself, not the whole graph.
        DestroyChecker checker(rw.graph());
        std::vector<NodeId> scanIds;
        for (Node* n : rw.graph().toposort())
            if (n->kind() == OpKind::Scan) scanIds.push_back(n->id());
        for (NodeId id : scanIds) {
            Node* node = rw.graph().findNode(id);
            if (!node) continue;
            const auto& scan = static_cast<const ScanOp&>(node->op());
            const ScanInfo& info = scan.info();
            // Every state the checker allows, then one setOp: a new ScanOp (and its type
            // inference) per Scan, not per state.
            std::vector<int> states = scan.inplaceStates();
            const size_t already = states.size();
            for (int s = 0; s < info.nTracedStates(); ++s) {
                if (scan.isInplace(s)) continue;
                const int bufferInput = info.outerInMitMot() + s;
                if (auto why = checker.tryDestroy(*node, bufferInput)) {
                    rw.notifyMatchFailure(name(), *node, [&] { return "state " + std::to_string(s) + ": " + *why; });
                    continue;
                }
                states.push_back(s);
            }
            if (states.size() == already) continue;
            {
                RewriteScope step(rw, name(), node);
                const std::string before = aliasMapText(scan.destroyMap());
                rw.setOp(node, scan.withInplace(std::move(states)));  // frees `scan`
                rw.attribute(node->id(), "destroy_map", before, aliasMapText(node->op().destroyMap()));
                step.setChanged();
            }
            changed = true;
        }
        return changed;
    }
};

} // namespace

std::unique_ptr<GraphPass> makeScanMakeInplace() { return std::make_unique<ScanMakeInplacePass>(); }

} // namespace tl
