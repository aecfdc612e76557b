// scan_merge (PyTensor's ScanMerge): two loops over the same n_steps, neither
// depending on the other, become one loop named "a&b" whose step computes both.
//   scan_a(n, ...) , scan_b(n, ...)  ->  scan_{a&b}(n, ...a, ...b)
// States keep the order of the loops merged (a's first), category by category.
#include "core/HashMix.h"
#include "ir/Rewriter.h"
#include "analysis/DestroyHandler.h"
#include "analysis/PyTensorOrder.h"
#include "ops/ScanOp.h"
#include "rewrite/RewriteBase.h"
#include "rewrite/Rewrites.h"
#include "rewrite/ScanRebuild.h"
#include "ir/GraphCopy.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace tl {

namespace {

const ScanOp& scanOf(const Node& n) { return static_cast<const ScanOp&>(n.op()); }

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

ScanInfo mergedInfo(const std::vector<const ScanInfo*>& parts) {
    ScanInfo m;
    for (const ScanInfo* p : parts) {
        m.nSeqs += p->nSeqs;
        m.mitMotInTaps.insert(m.mitMotInTaps.end(), p->mitMotInTaps.begin(), p->mitMotInTaps.end());
        m.mitMotOutTaps.insert(m.mitMotOutTaps.end(), p->mitMotOutTaps.begin(), p->mitMotOutTaps.end());
        m.mitSotTaps.insert(m.mitSotTaps.end(), p->mitSotTaps.begin(), p->mitSotTaps.end());
        m.nSitSot += p->nSitSot;
        m.nNitSot += p->nNitSot;
        m.nUntraced += p->nUntraced;
        m.nNonSeqs += p->nNonSeqs;
    }
    return m;
}

// The loop bodies of `loops` side by side, inputs and outputs category by category.
std::shared_ptr<const Graph> mergedInner(const std::vector<const ScanOp*>& loops) {
    GraphAssembler a;
    std::vector<std::unordered_map<const Variable*, Variable*>> maps(loops.size());
    std::vector<Ranges> ranges;
    for (const ScanOp* l : loops) ranges.push_back(rangesOf(l->info()));
    for (size_t c = 0; c < ranges[0].innerIn.size(); ++c)
        for (size_t l = 0; l < loops.size(); ++l) {
            const Graph& src = *loops[l]->inner();
            for (int k = ranges[l].innerIn[c].first; k < ranges[l].innerIn[c].second; ++k)
                maps[l][src.inputs()[k]] = a.addInput(src.inputs()[k]->type());
        }
    for (size_t l = 0; l < loops.size(); ++l) copyGraphInto(a, *loops[l]->inner(), maps[l], CopyIds::Fresh);
    std::vector<Variable*> outs;
    for (size_t c = 0; c < ranges[0].innerOut.size(); ++c)
        for (size_t l = 0; l < loops.size(); ++l) {
            const Graph& src = *loops[l]->inner();
            for (int k = ranges[l].innerOut[c].first; k < ranges[l].innerOut[c].second; ++k)
                outs.push_back(maps[l].at(src.outputs()[k]));
        }
    a.setOutputs(std::move(outs));
    std::shared_ptr<Graph> g = a.finish();
    return g;
}

// Every Scan node `from` reads, directly or through other nodes (iterative walk
// upwards). Only for explaining a refusal.
std::unordered_set<NodeId> scansAbove(const Node& from) {
    std::unordered_set<NodeId> scans;
    std::vector<const Node*> stack{&from};
    std::unordered_set<const Node*> seen{&from};
    while (!stack.empty()) {
        const Node* n = stack.back();
        stack.pop_back();
        for (const Variable* in : n->inputs()) {
            const Node* o = in->owner();
            if (!o || !seen.insert(o).second) continue;
            if (o->op().kind() == OpKind::Scan) scans.insert(o->id());
            stack.push_back(o);
        }
    }
    return scans;
}

// What two loops must share to be merged: n_steps, as a constant's value or as the
// variable itself.
struct StepsKey {
    bool constant = false;
    int64_t value = 0;  // the constant, or the variable's id
    friend bool operator==(const StepsKey&, const StepsKey&) = default;
};
struct StepsKeyHash {
    size_t operator()(const StepsKey& k) const { return hashMix(k.constant ? 1 : 0, static_cast<uint64_t>(k.value)); }
};
StepsKey stepsKey(const Node& scan) {
    if (auto c = constantInt(scan.input(0))) return {true, *c};
    return {false, scan.input(0)->id()};
}

class ScanMergePass final : public GraphPass {
public:
    std::string_view name() const override { return "scan_merge"; }
    std::vector<std::string> tags() const override { return {"fast_run", "scan", "scan_merge"}; }

    bool run(Rewriter& rw, const RewriteOptions& options) override {
        if (rw.graph().countOfKind(OpKind::Scan) < 2) return false;
        // One sweep in PyTensor's topological order (as its ScanMerge walks
        // fgraph.toposort(), so merged states come in the order PyTensor gives them)
        // puts each loop in the first group of its n_steps it can join. Groups are numbered as they start, and a group only ever
        // reads groups numbered below it: a loop joins group g only when everything it
        // reads depends on groups below g (`below[node]`: one past the highest group any
        // node upstream belongs to). That rules out reading g itself, and also the cycle
        // two groups would form by each reading the other. The sweep is linear in the
        // graph; each group is then built once (k loops: one copy of each loop body).
        const Graph& g = rw.graph();
        m_overwritten = overwrittenValues(g);
        std::vector<int> below(g.numNodes(), 0);
        std::vector<std::vector<Node*>> groups;
        std::unordered_map<StepsKey, std::vector<int>, StepsKeyHash> groupsBySteps;
        for (const Node* visited : pytensorToposort(g, PyTensorToposortRule::Current)) {
            Node* n = g.nodes()[visited->slot()];
            int need = 0;
            for (const Variable* in : n->inputs())
                if (const Node* o = in->owner()) need = std::max(need, below[o->slot()]);
            if (n->op().kind() == OpKind::Scan) {
                need = placeLoop(rw, *n, need, groups, groupsBySteps) + 1;
            }
            below[n->slot()] = need;
        }
        bool changed = false;
        for (auto& group : groups)
            if (group.size() > 1) {
                merge(rw, group);
                changed = true;
            }
        return changed;
    }

private:
    std::unordered_set<const Variable*> m_overwritten;  // values some node overwrites in place, for this run
    // The group `n` joins or starts; `need`: the lowest group number it may join.
    int placeLoop(Rewriter& rw, Node& n, int need, std::vector<std::vector<Node*>>& groups,
                  std::unordered_map<StepsKey, std::vector<int>, StepsKeyHash>& groupsBySteps) const {
        const int fresh = static_cast<int>(groups.size());
        if (std::string why = whyAlone(n, m_overwritten); !why.empty()) {
            rw.notifyMatchFailure(name(), n, [&] { return why; });
            groups.push_back({&n});
            return fresh;
        }
        std::vector<int>& same = groupsBySteps[stepsKey(n)];
        auto joinable = std::lower_bound(same.begin(), same.end(), need);
        if (joinable != same.begin()) {
            const int refused = *(joinable - 1);
            rw.notifyMatchFailure(name(), n, [&] { return whyNotJoin(n, refused, groups); });
        } else if (joinable == same.end() && fresh > 0) {
            // Earlier groups exist, none of these n_steps (a while or inplace loop of the
            // same n_steps stands alone, with its own reason).
            rw.notifyMatchFailure(name(), n, [&] {
                const auto steps = constantInt(n.input(0));
                return "n_steps (" + (steps ? std::to_string(*steps) : "a variable") +
                       ") differ from every earlier loop it could join";
            });
        }
        if (joinable != same.end()) {
            groups[*joinable].push_back(&n);
            return *joinable;
        }
        same.push_back(fresh);
        groups.push_back({&n});
        return fresh;
    }

    // Why `n` cannot join group `refused`: it reads a loop of that group, or of a group
    // started after it.
    static std::string whyNotJoin(const Node& n, int refused, const std::vector<std::vector<Node*>>& groups) {
        const std::unordered_set<NodeId> above = scansAbove(n);
        for (const Node* member : groups[refused])
            if (above.count(member->id())) return "it reads a result of " + member->label();
        for (size_t later = static_cast<size_t>(refused) + 1; later < groups.size(); ++later)
            for (const Node* member : groups[later])
                if (above.count(member->id()))
                    return "it reads a result of " + member->label() + ", merged after " +
                           groups[refused].front()->label() +
                           " (a merged loop reads only loops merged before it, so two never read each other)";
        return "it reads a result of a loop merged after " + groups[refused].front()->label();
    }

    static std::string whyAlone(const Node& n, const std::unordered_set<const Variable*>& overwritten) {
        const ScanOp& s = scanOf(n);
        if (s.info().asWhile) return "a while loop (its stopping condition would stop the other loop too)";
        if (!s.inplaceStates().empty()) return "an inplace loop (merging happens before buffers are made inplace)";
        // Its readers must run before the overwriter; merged, it would also wait for what
        // the other loop reads, which may come after the overwriter.
        for (int i = 0; i < n.numInputs(); ++i)
            if (overwritten.count(n.input(i)))
                return "it reads outer input " + std::to_string(i) + ", which another node overwrites in place";
        return {};
    }

    void merge(Rewriter& rw, const std::vector<Node*>& group) const {
        std::vector<const ScanOp*> loops;
        std::vector<const ScanInfo*> infos;
        std::vector<Ranges> ranges;
        std::string mergedName, members;
        for (Node* n : group) {
            loops.push_back(&scanOf(*n));
            infos.push_back(&scanOf(*n).info());
            ranges.push_back(rangesOf(scanOf(*n).info()));
            mergedName += (mergedName.empty() ? "" : "&") + scanOf(*n).scanName();
            members += (members.empty() ? "" : ", ") + n->label();
        }
        {
            RewriteScope step(rw, name(), group.front());
            std::vector<Variable*> ins{group.front()->input(0)};
            for (size_t c = 0; c < ranges[0].outerIn.size(); ++c)
                for (size_t l = 0; l < group.size(); ++l)
                    for (int k = ranges[l].outerIn[c].first; k < ranges[l].outerIn[c].second; ++k) ins.push_back(group[l]->input(k));
            // Reuse proofs follow their states: traced states go mit_mot, mit_sot, sit_sot, loop by loop.
            std::vector<bool> reuse;
            auto flags = [&](const ScanOp& s, int from, int to) {
                for (int k = from; k < to; ++k)
                    reuse.push_back(k < static_cast<int>(s.reuseProvenSafe().size()) && s.reuseProvenSafe()[k]);
            };
            for (const ScanOp* s : loops) flags(*s, 0, s->info().nMitMot());
            for (const ScanOp* s : loops) flags(*s, s->info().nMitMot(), s->info().nMitMot() + s->info().nMitSot());
            for (const ScanOp* s : loops) flags(*s, s->info().nMitMot() + s->info().nMitSot(), s->info().nTracedStates());
            Node* merged = rw.create(makeScan(mergedInfo(infos), mergedInner(loops), mergedName, {}, reuse), std::move(ins));
            for (Node* n : group) rw.cloned(merged->id(), n->id());
            rw.attribute(merged->id(), "merged_loops", members, merged->op().name());
            // By id: replacing the last used output of a loop erases it with all its outputs.
            std::vector<std::pair<VarId, Variable*>> replacements;
            int next = 0;
            for (size_t c = 0; c < ranges[0].outerOut.size(); ++c)
                for (size_t l = 0; l < group.size(); ++l)
                    for (int k = ranges[l].outerOut[c].first; k < ranges[l].outerOut[c].second; ++k)
                        replacements.push_back({group[l]->output(k)->id(), merged->output(next++)});
            for (auto [oldId, now] : replacements)
                if (Variable* old = rw.graph().findVariable(oldId); old && !old->clients().empty()) rw.replace(old, now);
            step.setChanged();
        }
    }
};

} // namespace

std::unique_ptr<GraphPass> makeScanMergePass() { return std::make_unique<ScanMergePass>(); }

} // namespace tl
