// scan_merge (PyTensor's ScanMerge): two loops over the same n_steps, neither
// depending on the other, become one loop named "a&b" whose step computes both.
//   scan_a(n, ...) , scan_b(n, ...)  ->  scan_{a&b}(n, ...a, ...b)
// States keep the order of the loops merged (a's first), category by category.
#include "ir/Rewriter.h"
#include "ops/Scan.h"
#include "rewrite/RewriteBase.h"
#include "rewrite/Rewrites.h"
#include "rewrite/ScanRebuild.h"

#include <unordered_map>
#include <unordered_set>

namespace tl {

namespace {

const ScanOp& scanOf(const Node& n) { return static_cast<const ScanOp&>(n.op()); }

bool sameNSteps(const Node& a, const Node& b) {
    if (a.input(0) == b.input(0)) return true;
    auto ca = constantInt(a.input(0)), cb = constantInt(b.input(0));
    return ca && cb && *ca == *cb;
}

// True when `target` is computed from an output of `from` (iterative walk upwards).
bool dependsOn(const Node& target, const Node& from) {
    std::vector<const Node*> stack{&target};
    std::unordered_set<const Node*> seen{&target};
    while (!stack.empty()) {
        const Node* n = stack.back();
        stack.pop_back();
        for (const Variable* in : n->inputs()) {
            const Node* o = in->owner();
            if (!o) continue;
            if (o == &from) return true;
            if (seen.insert(o).second) stack.push_back(o);
        }
    }
    return false;
}

// Index ranges [begin, end) of each category, in the order the merged loop lists them.
struct Ranges {
    std::vector<std::pair<int, int>> innerIn, innerOut, outerIn, outerOut;
};

Ranges rangesOf(const ScanInfo& i) {
    Ranges r;
    r.innerIn = {{0, i.innerInMitMot()},
                 {i.innerInMitMot(), i.innerInMitSot()},
                 {i.innerInMitSot(), i.innerInSitSot()},
                 {i.innerInSitSot(), i.innerInUntraced()},
                 {i.innerInUntraced(), i.innerInNonSeqs()},
                 {i.innerInNonSeqs(), i.numInnerInputs()}};
    r.innerOut = {{0, i.innerOutMitSot()},
                  {i.innerOutMitSot(), i.innerOutSitSot()},
                  {i.innerOutSitSot(), i.innerOutNitSot()},
                  {i.innerOutNitSot(), i.innerOutUntraced()},
                  {i.innerOutUntraced(), i.innerOutUntraced() + i.nUntraced}};
    r.outerIn = {{i.outerInSeqs(), i.outerInMitMot()},     {i.outerInMitMot(), i.outerInMitSot()},
                 {i.outerInMitSot(), i.outerInSitSot()},   {i.outerInSitSot(), i.outerInUntraced()},
                 {i.outerInUntraced(), i.outerInNitSot()}, {i.outerInNitSot(), i.outerInNonSeqs()},
                 {i.outerInNonSeqs(), i.numOuterInputs()}};
    r.outerOut = {{0, i.outerOutMitSot()},
                  {i.outerOutMitSot(), i.outerOutSitSot()},
                  {i.outerOutSitSot(), i.outerOutNitSot()},
                  {i.outerOutNitSot(), i.outerOutUntraced()},
                  {i.outerOutUntraced(), i.numOuterOutputs()}};
    return r;
}

ScanInfo mergedInfo(const ScanInfo& a, const ScanInfo& b) {
    ScanInfo m;
    m.nSeqs = a.nSeqs + b.nSeqs;
    m.mitMotInTaps = a.mitMotInTaps;
    m.mitMotInTaps.insert(m.mitMotInTaps.end(), b.mitMotInTaps.begin(), b.mitMotInTaps.end());
    m.mitMotOutTaps = a.mitMotOutTaps;
    m.mitMotOutTaps.insert(m.mitMotOutTaps.end(), b.mitMotOutTaps.begin(), b.mitMotOutTaps.end());
    m.mitSotTaps = a.mitSotTaps;
    m.mitSotTaps.insert(m.mitSotTaps.end(), b.mitSotTaps.begin(), b.mitSotTaps.end());
    m.nSitSot = a.nSitSot + b.nSitSot;
    m.nNitSot = a.nNitSot + b.nNitSot;
    m.nUntraced = a.nUntraced + b.nUntraced;
    m.nNonSeqs = a.nNonSeqs + b.nNonSeqs;
    return m;
}

// Copies the nodes of `src` into `dst`; `map` holds src inputs already placed.
void copyNodes(Graph& dst, const Graph& src, std::unordered_map<const Variable*, Variable*>& map) {
    for (const Variable* c : src.constants()) map[c] = dst.addConstant(c->constantValue(), c->type(), c->name());
    for (const Node* n : src.toposort()) {
        std::vector<Variable*> ins;
        for (const Variable* v : n->inputs()) ins.push_back(map.at(v));
        std::vector<Type> types;
        for (const Variable* o : n->outputs()) types.push_back(o->type());
        Node* c = dst.addNode(n->opPtr(), std::move(ins), std::nullopt, &types);
        for (int k = 0; k < n->numOutputs(); ++k) map[n->output(k)] = c->output(k);
    }
}

std::shared_ptr<const Graph> mergedInner(const Graph& ga, const ScanInfo& ia, const Graph& gb, const ScanInfo& ib) {
    auto g = std::make_shared<Graph>();
    std::unordered_map<const Variable*, Variable*> mapA, mapB;
    const Ranges ra = rangesOf(ia), rb = rangesOf(ib);
    for (size_t c = 0; c < ra.innerIn.size(); ++c) {
        for (int k = ra.innerIn[c].first; k < ra.innerIn[c].second; ++k) mapA[ga.inputs()[k]] = g->addInput(ga.inputs()[k]->type());
        for (int k = rb.innerIn[c].first; k < rb.innerIn[c].second; ++k) mapB[gb.inputs()[k]] = g->addInput(gb.inputs()[k]->type());
    }
    copyNodes(*g, ga, mapA);
    copyNodes(*g, gb, mapB);
    std::vector<Variable*> outs;
    for (size_t c = 0; c < ra.innerOut.size(); ++c) {
        for (int k = ra.innerOut[c].first; k < ra.innerOut[c].second; ++k) outs.push_back(mapA.at(ga.outputs()[k]));
        for (int k = rb.innerOut[c].first; k < rb.innerOut[c].second; ++k) outs.push_back(mapB.at(gb.outputs()[k]));
    }
    g->setOutputs(std::move(outs));
    return g;
}

class ScanMergePass final : public GraphPass {
public:
    std::string_view name() const override { return "scan_merge"; }
    std::vector<std::string> tags() const override { return {"fast_run", "scan", "scan_merge"}; }

    bool run(Rewriter& rw, const RewriteOptions& options) override {
        // One sweep in topological order: each loop joins the first earlier (merged)
        // loop it can. An earlier loop's inputs all precede the later loop, so only
        // "does the later loop read the earlier one" needs a walk: O(loops * nodes).
        bool changed = false;
        std::vector<NodeId> order;
        for (Node* n : rw.graph().toposort())
            if (n->op().kind() == OpKind::Scan) order.push_back(n->id());
        std::vector<NodeId> heads;
        for (NodeId id : order) {
            Node* later = rw.graph().findNode(id);
            if (!later) continue;
            bool merged = false;
            for (NodeId& headId : heads) {
                Node* head = rw.graph().findNode(headId);
                if (!head) continue;
                std::string why = whyNot(*head, *later);
                if (!why.empty()) {
                    if (options.explain) rw.matchFailure(name(), *later, why);
                    continue;
                }
                headId = merge(rw, *head, *later);
                changed = merged = true;
                break;
            }
            if (!merged) heads.push_back(id);
        }
        return changed;
    }

private:
    static std::string whyNot(const Node& a, const Node& b) {
        const ScanInfo &ia = scanOf(a).info(), &ib = scanOf(b).info();
        if (ia.asWhile || ib.asWhile) return "a while loop (its stopping condition would stop the other loop too)";
        if (!sameNSteps(a, b)) return "n_steps differ with " + a.label();
        if (dependsOn(b, a)) return "it reads a result of " + a.label();
        if (!scanOf(a).inplaceStates().empty() || !scanOf(b).inplaceStates().empty())
            return "an inplace loop (merging happens before buffers are made inplace)";
        return {};
    }

    /// Merges b into a; returns the merged node's id.
    NodeId merge(Rewriter& rw, Node& a, Node& b) const {
        const ScanOp &sa = scanOf(a), &sb = scanOf(b);
        const ScanInfo &ia = sa.info(), &ib = sb.info();
        rw.beginRewrite(name(), &a);
        const ScanInfo info = mergedInfo(ia, ib);
        auto inner = mergedInner(*sa.inner(), ia, *sb.inner(), ib);
        std::vector<Variable*> ins{a.input(0)};
        const Ranges ra = rangesOf(ia), rb = rangesOf(ib);
        for (size_t c = 0; c < ra.outerIn.size(); ++c) {
            for (int k = ra.outerIn[c].first; k < ra.outerIn[c].second; ++k) ins.push_back(a.input(k));
            for (int k = rb.outerIn[c].first; k < rb.outerIn[c].second; ++k) ins.push_back(b.input(k));
        }
        std::vector<bool> reuse;
        auto flags = [&](const ScanOp& s, int from, int to) {
            for (int k = from; k < to; ++k)
                reuse.push_back(k < static_cast<int>(s.reuseProvenSafe().size()) && s.reuseProvenSafe()[k]);
        };
        // Traced states in merged order: mit_mot a, b, mit_sot a, b, sit_sot a, b.
        flags(sa, 0, ia.nMitMot());
        flags(sb, 0, ib.nMitMot());
        flags(sa, ia.nMitMot(), ia.nMitMot() + ia.nMitSot());
        flags(sb, ib.nMitMot(), ib.nMitMot() + ib.nMitSot());
        flags(sa, ia.nMitMot() + ia.nMitSot(), ia.nTracedStates());
        flags(sb, ib.nMitMot() + ib.nMitSot(), ib.nTracedStates());
        Node* merged = rw.create(makeScan(info, inner, sa.scanName() + "&" + sb.scanName(), {}, reuse), std::move(ins));
        rw.cloned(merged->id(), a.id());
        rw.cloned(merged->id(), b.id());
        rw.attribute(merged->id(), "merged_loops", a.label() + ", " + b.label(), merged->op().name());
        // Outputs in merged order; replace a's and b's outputs with their new positions.
        // By id: replacing the last used output of a loop erases it with all its outputs.
        std::vector<std::pair<VarId, Variable*>> replacements;
        int next = 0;
        for (size_t c = 0; c < ra.outerOut.size(); ++c) {
            for (int k = ra.outerOut[c].first; k < ra.outerOut[c].second; ++k)
                replacements.push_back({a.output(k)->id(), merged->output(next++)});
            for (int k = rb.outerOut[c].first; k < rb.outerOut[c].second; ++k)
                replacements.push_back({b.output(k)->id(), merged->output(next++)});
        }
        for (auto [oldId, now] : replacements)
            if (Variable* old = rw.graph().findVariable(oldId); old && !old->clients().empty()) rw.replace(old, now);
        rw.endRewrite(name(), true);
        return merged->id();
    }
};

} // namespace

std::unique_ptr<GraphPass> makeScanMergePass() { return std::make_unique<ScanMergePass>(); }

} // namespace tl
