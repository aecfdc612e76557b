// scan_push_out_non_seq (PyTensor's push_out_non_seq_scan): work that depends only on
// non_sequences is the same at every step, so it runs once before the loop.
//   scan(y' = y + w*2, w) -> v = w*2; scan(y' = y + v, v)
#include "ops/ScanOp.h"
#include "rewrite/RewriteBase.h"
#include "rewrite/Rewrites.h"
#include "rewrite/ScanPushOut.h"

#include <unordered_set>

namespace tl {

namespace {

struct PushNonSeqMatch : RewriteMatch {
    std::vector<const Variable*> frontier;
};

// True when `v` is computed from at least one non_sequence (not only from constants,
// which constant folding handles in place; moving those out would only add inputs).
bool readsANonSequence(const Variable* v, const ScanInfo& info, const Graph& g) {
    std::vector<const Variable*> stack{v};
    std::unordered_set<const Variable*> seen{v};
    while (!stack.empty()) {
        const Variable* x = stack.back();
        stack.pop_back();
        if (!x->owner()) {
            for (int i = info.innerInNonSeqs(); i < info.numInnerInputs(); ++i)
                if (g.inputs()[i] == x) return true;
            continue;
        }
        for (const Variable* in : x->owner()->inputs())
            if (seen.insert(in).second) stack.push_back(in);
    }
    return false;
}

class ScanPushOutNonSeq final : public NodeRewrite {
public:
    std::string_view name() const override { return "scan_push_out_non_seq"; }
    std::vector<std::string> tags() const override { return {"fast_run", "scan", "scan_pushout"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Scan}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const auto& scan = static_cast<const ScanOp&>(node.op());
        const ScanInfo& info = scan.info();
        if (info.nNonSeqs == 0) return MatchResult::fail("no non_sequences");
        auto cls = classifyStep(scan, false);
        const Graph& g = *scan.inner();
        std::unordered_set<const Variable*> needed;
        for (const Node* n : g.nodes())
            for (const Variable* in : n->inputs())
                if (cls.at(in) == StepDependence::Invariant && in->owner() && cls.at(n->output(0)) == StepDependence::Loop)
                    needed.insert(in);
        for (const Variable* o : g.outputs())
            if (cls.at(o) == StepDependence::Invariant && o->owner()) needed.insert(o);
        auto m = std::make_unique<PushNonSeqMatch>();
        for (const Node* n : g.toposort())
            for (const Variable* o : n->outputs())
                if (needed.count(o) && readsANonSequence(o, info, g)) m->frontier.push_back(o);
        if (m->frontier.empty()) return MatchResult::fail("no loop-invariant work on non_sequences");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rw, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const PushNonSeqMatch&>(match);
        const auto& scan = static_cast<const ScanOp&>(node.op());
        auto keepAlive = scan.inner();
        auto cls = classifyStep(scan, false);
        OuterCopier copier(rw, node, cls);
        std::vector<std::pair<const Variable*, Variable*>> nonSeqs;
        for (const Variable* v : m.frontier) nonSeqs.push_back({v, copier.outer(v)});
        rw.attribute(node.id(), "pushed_out", "", std::to_string(nonSeqs.size()) + " loop-invariant value(s)");
        rebuildWithNewInputs(rw, node, {}, nonSeqs);
    }
};

} // namespace

const NodeRewrite& scanPushOutNonSeq() {
    static const ScanPushOutNonSeq r;
    return r;
}

} // namespace tl
