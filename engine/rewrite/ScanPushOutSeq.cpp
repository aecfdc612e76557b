// scan_push_out_seq (PyTensor's push_out_seq_scan): elementwise work on sequence rows
// leaves the loop and runs once over the whole sequence.
//   scan(h' = h*0.5 + exp(x_t)*2, xs) -> e = exp(xs)*2; scan(h' = h*0.5 + e_t, e)
// A nit_sot that is only such work becomes the outer value itself (no loop left).
#include "ops/ScanOp.h"
#include "rewrite/RewriteBase.h"
#include "rewrite/Rewrites.h"
#include "rewrite/ScanPushOut.h"
#include "rewrite/ScanRebuild.h"

#include <unordered_set>

namespace tl {

namespace {

struct PushSeqMatch : RewriteMatch {
    std::vector<const Variable*> frontier;  // step values computed per row that the loop still needs
};

class ScanPushOutSeq final : public NodeRewrite {
public:
    std::string_view name() const override { return "scan_push_out_seq"; }
    std::vector<std::string> tags() const override { return {"fast_run", "scan", "scan_pushout"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Scan}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const auto& scan = static_cast<const ScanOp&>(node.op());
        const ScanInfo& info = scan.info();
        if (info.nSeqs == 0) return MatchResult::fail("no sequences");
        // Every sequence must have exactly n_steps rows, or whole-sequence work would
        // broadcast sequences of different lengths (or compute rows the loop never reads).
        auto nSteps = constantInt(node.input(0));
        for (int i = 0; i < info.nSeqs; ++i) {
            const int64_t rows = node.input(info.outerInSeqs() + i)->type().shape.at(0);
            if (!nSteps || rows != *nSteps) return MatchResult::fail("sequence rows are not known to equal n_steps");
        }
        auto cls = classifyStep(scan, true);
        const Graph& g = *scan.inner();
        std::unordered_set<const Variable*> needed;
        for (const Node* n : g.nodes())
            for (const Variable* in : n->inputs())
                if (cls.at(in) == StepDependence::PerRow && in->owner() && cls.at(n->output(0)) == StepDependence::Loop)
                    needed.insert(in);
        for (const Variable* o : g.outputs())
            if (cls.at(o) == StepDependence::PerRow && o->owner()) needed.insert(o);
        auto m = std::make_unique<PushSeqMatch>();
        for (const Node* n : g.toposort())
            for (const Variable* o : n->outputs())
                if (needed.count(o) && o->owner()->numOutputs() == 1) m->frontier.push_back(o);
        if (m->frontier.empty()) return MatchResult::fail("no elementwise work on sequence rows to move out");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rw, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const PushSeqMatch&>(match);
        const auto& scan = static_cast<const ScanOp&>(node.op());
        const ScanInfo info = scan.info();
        auto scanInner = scan.inner();  // keep the loop body alive while we rebuild
        auto cls = classifyStep(scan, true);
        OuterCopier copier(rw, node, cls);
        std::vector<std::pair<const Variable*, Variable*>> seqs;
        for (const Variable* v : m.frontier) seqs.push_back({v, copier.outer(v)});
        rw.attribute(node.id(), "pushed_out", "", std::to_string(seqs.size()) + " sequence value(s)");
        // nit_sot outputs that are pushed-out values need no loop at all.
        std::vector<std::pair<int, Variable*>> direct;
        for (int j = 0; j < info.nNitSot; ++j) {
            const Variable* inner = scanInner->outputs()[info.innerOutNitSot() + j];
            for (auto& [stepVar, outerVar] : seqs)
                if (stepVar == inner) direct.push_back({info.outerOutNitSot() + j, outerVar});
        }
        Node* fresh = rebuildWithNewInputs(rw, node, seqs, {});
        for (auto [k, value] : direct) {
            Variable* out = fresh->output(k);
            if (!out->clients().empty()) rw.replace(out, value);
        }
    }
};

} // namespace

const NodeRewrite& scanPushOutSeq() {
    static const ScanPushOutSeq r;
    return r;
}

} // namespace tl
