// scan_make_inplace (PyTensor's ScanInplaceOptimizer): a loop writes its states
// straight into the outer trace buffers instead of copying them first.
//   Scan{inplace=none}(n, buf) -> Scan{inplace=all}(n, buf)   with d={k: [buf]}
// Only where the destroy handler allows it: the buffer is not a graph input or a
// constant, nothing reads it afterwards, no other state uses the same storage.
// First, as PyTensor's attempt_scan_inplace, a state gets a buffer of its own where
// that is cheap: an Alloc or AllocEmpty buffer others read too is allocated again for
// it, and a buffer an earlier state of the loop starts from is copied (DeepCopyOp):
//   Scan(n, zeros, zeros) -> Scan{inplace=[1]}(n, zeros, DeepCopyOp(zeros))
// (the first state keeps a constant buffer, which nothing may overwrite).
#include "ir/Rewriter.h"
#include "ops/DeepCopy.h"
#include "ops/ScanOp.h"
#include "analysis/DestroyChecker.h"
#include "rewrite/RewriteBase.h"
#include "rewrite/Rewrites.h"

#include <unordered_set>


namespace tl {

namespace {

bool isAllocation(const Variable& v) {
    return v.owner() && (v.owner()->kind() == OpKind::Alloc || v.owner()->kind() == OpKind::AllocEmpty);
}

// Gives each traced state that is not overwritten in place yet a buffer of its own
// where one costs no more than the loop's own copy would. One trace step per loop.
bool ownBuffers(Rewriter& rw, std::string_view name, Node* node) {
    const auto& scan = static_cast<const ScanOp&>(node->op());
    const ScanInfo& info = scan.info();
    bool changed = false;
    std::optional<RewriteScope> step;
    // The buffers earlier states now start from (a merged loop has thousands of states:
    // a set, not a scan of the earlier inputs per state).
    std::unordered_set<const Variable*> earlier;
    for (int s = 0; s < info.nTracedStates(); ++s) {
        const int at = info.outerInMitMot() + s;
        Variable* buffer = node->input(at);
        const bool again = !scan.isInplace(s) && isAllocation(*buffer) && buffer->clients().size() > 1;
        const bool copy = !scan.isInplace(s) && !again && earlier.count(buffer);
        if (!again && !copy) {
            earlier.insert(buffer);
            continue;
        }
        if (!step) step.emplace(rw, name, node);  // before the first edit: the step records it
        Variable* own = nullptr;
        if (again) {
            const Node* alloc = buffer->owner();
            own = rw.create(alloc->opPtr(), std::vector<Variable*>(alloc->inputs().begin(), alloc->inputs().end()))->output(0);
        } else {
            own = rw.create(makeDeepCopy(), {buffer})->output(0);
        }
        earlier.insert(own);
        rw.setInput(node, at, own);
        changed = true;
    }
    if (step) step->setChanged();
    return changed;
}

class ScanMakeInplacePass final : public GraphPass {
public:
    std::string_view name() const override { return "scan_make_inplace"; }
    std::vector<std::string> tags() const override { return {"fast_run", "scan", "inplace"}; }

    bool run(Rewriter& rw, const RewriteOptions& options) override {
        if (rw.graph().countOfKind(OpKind::Scan) == 0) return false;  // nothing to make inplace
        bool changed = false;
        std::vector<NodeId> scanIds;
        for (Node* n : rw.graph().toposort())
            if (n->kind() == OpKind::Scan) scanIds.push_back(n->id());
        // The buffers first: the checker wants the graph's structure fixed.
        for (NodeId id : scanIds) changed |= ownBuffers(rw, name(), rw.graph().findNode(id));
        // One incremental checker for the whole pass: each candidate costs the region
        // between its readers and itself, not the whole graph.
        DestroyChecker checker(rw.graph());
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
