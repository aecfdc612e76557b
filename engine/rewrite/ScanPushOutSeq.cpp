// scan_push_out_seq (PyTensor's push_out_seq_scan): elementwise work on sequence rows
// leaves the loop and runs once over the whole sequence.
//   scan(h' = h*0.5 + exp(x_t)*2, xs) -> e = exp(xs)*2; scan(h' = h*0.5 + e_t, e)
// A nit_sot that is only such work becomes the outer value itself (no loop left),
// except in a while loop: its nit_sot has the rows of the steps that ran, which only
// the loop knows, so it stays the loop's output (fed by the pushed-out rows).
// Sequences are cut to their first n_steps rows first unless they are known to have
// exactly that many, so the work is done on the rows the loop would read and no others.
#include "ops/ScanOp.h"
#include "ops/Shape.h"
#include "ops/Subtensor.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/RewriteBase.h"
#include "rewrite/Rewrites.h"
#include "rewrite/ScanPushOut.h"
#include "rewrite/ScanRebuild.h"

#include <unordered_set>

namespace tl {

namespace {

// `v` under the conversions between 0-d tensors and scalars (and integer casts) that
// scan() puts around n_steps when it slices a sequence.
const Variable* throughIntConversions(const Variable* v) {
    for (int guard = 0; guard < 16 && v->owner(); ++guard) {
        const Node& n = *v->owner();
        const OpKind k = n.op().kind();
        const bool cast = k == OpKind::Elemwise && rw::plainElemwiseCode(n) == ScalarOpCode::Cast;
        if (k == OpKind::ScalarFromTensor || k == OpKind::TensorFromScalar || cast) v = n.input(0);
        else break;
    }
    return v;
}

// Whether a row count `count` (an integer scalar or 0-d tensor) is n_steps: the same
// variable under conversions, an equal constant, or Shape_i{0} of a value whose rows
// are n_steps.
bool countIsSteps(const Variable* count, const Variable* nSteps, int depth);

// Whether a sequence has exactly n_steps rows whenever the loop can run: its static
// rows are the constant n_steps; or it is x[:n_steps], which scan() builds for every
// sequence (a loop needs at least n_steps rows of x, so x[:n_steps] has n_steps); or
// it is Alloc(v, rows, ...) with rows n_steps, as the zero tangent a Rop gives a
// sequence (Alloc(0.0, Shape_i{0}(x[:n_steps]), 7)). Depth-bounded: the chains scan()
// and Rop build are two or three links long.
bool rowsAreSteps(const Variable* seq, const Variable* nSteps, int depth = 0) {
    const auto n = constantInt(nSteps);
    const int64_t rows = seq->type().shape.at(0);
    if (n && rows == *n) return true;
    const Node* owner = seq->owner();
    if (!owner || depth > 4) return false;
    if (owner->op().kind() == OpKind::Alloc)
        return owner->numInputs() > 1 && countIsSteps(owner->input(1), nSteps, depth + 1);
    if (owner->op().kind() != OpKind::Subtensor) return false;
    const auto& e = static_cast<const SubtensorOp&>(owner->op()).entries();
    if (e.size() != 1 || e[0].kind != IndexEntry::Kind::Slice || e[0].hasStart || !e[0].hasStop || e[0].hasStep) return false;
    return countIsSteps(owner->input(1), nSteps, depth + 1);
}

bool countIsSteps(const Variable* count, const Variable* nSteps, int depth) {
    const Variable* c = throughIntConversions(count);
    if (c == throughIntConversions(nSteps)) return true;
    const auto n = constantInt(nSteps);
    const auto k = constantInt(c);
    if (n && k) return *k == *n;
    const Node* owner = c->owner();
    if (!owner || owner->op().kind() != OpKind::ShapeI) return false;
    return static_cast<const ShapeIOp&>(owner->op()).axis() == 0 && rowsAreSteps(owner->input(0), nSteps, depth + 1);
}

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
        // Whole-sequence work must see exactly the n_steps rows the loop reads: a sequence
        // not known to have that many (longer, or one whose length is a merged slice's
        // arithmetic) is first cut to x[:n_steps], which the loop requires to exist.
        copier.setSequenceRows([&](int i) {
            Variable* seq = node.input(info.outerInSeqs() + i);
            if (rowsAreSteps(seq, node.input(0))) return seq;
            const IndexEntry toSteps{IndexEntry::Kind::Slice, false, true, false};
            return rw.create(makeSubtensor({toSteps}), {seq, node.input(0)})->output(0);
        });
        std::vector<std::pair<const Variable*, Variable*>> seqs;
        for (const Variable* v : m.frontier) seqs.push_back({v, copier.outer(v)});
        rw.attribute(node.id(), "pushed_out", "", std::to_string(seqs.size()) + " sequence value(s)");
        // nit_sot outputs that are pushed-out values need no loop at all, unless the loop
        // may stop early: then the output is the rows of the steps that ran.
        std::vector<std::pair<int, Variable*>> direct;
        for (int j = 0; j < (info.asWhile ? 0 : info.nNitSot); ++j) {
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
