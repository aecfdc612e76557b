// scan_merge_states (docs/semantics.md#duplicate-states, no PyTensor counterpart):
// x' = f(x, y), y' = f(y, x), x0 == y0  ->  one state x; every reader of y reads x.
//
// Two traced states of one Scan compute the same sequence when they start from
// equal initial rows and their updates are equal once the states are assumed
// equal. The assumption is checked as a greatest fixpoint, by partition
// refinement: start with every group of states that could be equal (same
// category, taps, types, initial value, buffer length) assumed equal, number the
// step's values with those classes (hash-consing), split every group whose
// members' updates got different numbers, and repeat until no group splits. What
// is left are groups of states whose sequences agree at every step (induction
// over the steps: equal before the step, equal after). nit_sot outputs join in
// for free: equal numbers and equal row counts make equal traces.
#include "ops/IncSubtensor.h"
#include "ops/ScanOp.h"
#include "rewrite/Rewrites.h"
#include "rewrite/ScanRebuild.h"
#include "analysis/ValueNumbering.h"

#include <map>
#include <tuple>

namespace tl {

namespace {

struct MergeStatesMatch : RewriteMatch {
    std::vector<std::pair<int, int>> states;  // (dropped, kept) traced states
    std::vector<std::pair<int, int>> nitSots;  // (dropped, kept)
};

// What makes two traced states' initial buffers equal: the same value, or (looking
// through the default construction) equal initial rows and equal lengths; the rows
// after the initial ones are written by the loop before anything reads them.
using InitKey = std::tuple<int, uint64_t, int64_t, uint64_t>;

InitKey initKey(ValueNumbering& outer, Variable* buffer, int initRows) {
    if (auto d = defaultBuffer(buffer); d && d->stop == initRows) {
        const int64_t len = buffer->type().shape.empty() ? kUnknownDim : buffer->type().shape[0];
        const uint64_t lenKey = len != kUnknownDim ? static_cast<uint64_t>(len) : outer.number(d->length());
        return {len != kUnknownDim ? 1 : 2, outer.number(d->init), d->stop, lenKey};
    }
    return {0, outer.number(buffer), 0, 0};
}

class ScanMergeStates final : public NodeRewrite {
public:
    std::string_view name() const override { return "scan_merge_states"; }
    std::vector<std::string> tags() const override { return {"fast_run", "scan"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Scan}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const auto& op = static_cast<const ScanOp&>(node.op());
        const ScanInfo& I = op.info();
        const Graph& inner = *op.inner();
        const int T = I.nTracedStates();
        const int N = I.nNitSot;
        if (T - I.nMitMot() + N < 2) return MatchResult::fail("fewer than two mit_sot/sit_sot/nit_sot outputs");

        // 1. Candidate groups. Items: traced states nMitMot..T-1, then nit_sots T..T+N-1.
        // The outer graph is numbered only for items whose layout another item shares.
        ValueNumbering outer;
        std::vector<int> cls(T + N, -1);
        {
            using Layout = std::tuple<int, std::vector<int>, std::string>;
            std::vector<Layout> layout(T + N);
            std::map<Layout, int> layoutCount;
            for (int item = I.nMitMot(); item < T + N; ++item) {
                if (item < T) {
                    std::string types;
                    const auto taps = I.stateTaps(item);
                    for (size_t k = 0; k < taps.size(); ++k)
                        types += inner.inputs()[I.innerInTap(item, static_cast<int>(k))]->type().toString() + ";";
                    types += inner.output(I.innerOutState(item))->type().toString();
                    layout[item] = {static_cast<int>(I.stateCategory(item)), taps, types};
                } else {
                    layout[item] = {-1, {}, inner.output(I.innerOutNitSot() + (item - T))->type().toString()};
                }
                ++layoutCount[layout[item]];
            }
            std::map<std::pair<Layout, InitKey>, int> groups;
            for (int item = I.nMitMot(); item < T + N; ++item) {
                InitKey init{4, static_cast<uint64_t>(item), 0, 0};  // alone: a group of its own
                if (layoutCount[layout[item]] > 1)
                    init = item < T ? initKey(outer, node.input(I.outerInMitMot() + item), I.initRows(item))
                                    : InitKey{3, outer.number(node.input(I.outerInNitSot() + (item - T))), 0, 0};
                cls[item] = groups.emplace(std::make_pair(layout[item], init), static_cast<int>(groups.size())).first->second;
            }
        }
        auto numClasses = [&] {
            std::map<int, int> sizes;
            for (int c : cls)
                if (c >= 0) ++sizes[c];
            int n = 0;
            for (auto& [c, size] : sizes) n += size > 1;
            return std::make_pair(static_cast<int>(sizes.size()), n);
        };
        if (numClasses().second == 0)
            return MatchResult::fail("no two states have equal taps, types, initial values and buffer lengths");

        // Sequences and non_sequences: equal outer values are equal inner values at every step.
        std::vector<std::pair<int, uint64_t>> sharedInputs;
        for (int i = 0; i < I.nSeqs; ++i) sharedInputs.push_back({i, outer.number(node.input(I.outerInSeqs() + i))});
        for (int i = 0; i < I.nNonSeqs; ++i)
            sharedInputs.push_back({I.innerInNonSeqs() + i, outer.number(node.input(I.outerInNonSeqs() + i))});

        // 2. Refine until stable (the greatest fixpoint).
        for (int round = 0;; ++round) {
            ValueNumbering vn;
            std::map<std::pair<int, size_t>, uint64_t> tapClass;
            for (int s = I.nMitMot(); s < T; ++s) {
                const auto taps = I.stateTaps(s);
                for (size_t k = 0; k < taps.size(); ++k) {
                    auto [it, fresh] = tapClass.emplace(std::make_pair(cls[s], k), 0);
                    if (fresh) it->second = vn.fresh();
                    vn.assign(inner.inputs()[I.innerInTap(s, static_cast<int>(k))], it->second);
                }
            }
            std::map<uint64_t, uint64_t> outerClass;
            for (auto [i, num] : sharedInputs) {
                auto [it, fresh] = outerClass.emplace(num, 0);
                if (fresh) it->second = vn.fresh();
                vn.assign(inner.inputs()[i], it->second);
            }
            std::map<std::pair<int, uint64_t>, int> split;
            std::vector<int> next(cls.size(), -1);
            for (int item = I.nMitMot(); item < T + N; ++item) {
                const int out = item < T ? I.innerOutState(item) : I.innerOutNitSot() + (item - T);
                const uint64_t sig = vn.number(inner.output(out));
                next[item] = split.emplace(std::make_pair(cls[item], sig), static_cast<int>(split.size())).first->second;
            }
            const int before = numClasses().first;
            cls = std::move(next);
            if (numClasses().first == before) break;
        }

        auto m = std::make_unique<MergeStatesMatch>();
        std::map<int, int> first;
        for (int item = I.nMitMot(); item < T + N; ++item) {
            auto [it, fresh] = first.emplace(cls[item], item);
            if (fresh) continue;
            if (item < T) m->states.push_back({item, it->second});
            else m->nitSots.push_back({item - T, it->second - T});
        }
        if (m->states.empty() && m->nitSots.empty())
            return MatchResult::fail("states with equal initial values have different updates");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const MergeStatesMatch&>(match);
        const auto& op = static_cast<const ScanOp&>(node.op());
        const ScanInfo& I = op.info();
        ScanRebuildPlan plan;
        plan.keepState.assign(I.nTracedStates(), true);
        plan.keepNitSot.assign(I.nNitSot, true);
        plan.dedupInner = true;
        for (auto [drop, keep] : m.states) {
            plan.keepState[drop] = false;
            const int nTaps = static_cast<int>(I.stateTaps(drop).size());
            for (int k = 0; k < nTaps; ++k) plan.innerInputAlias[I.innerInTap(drop, k)] = I.innerInTap(keep, k);
        }
        for (auto [drop, keep] : m.nitSots) plan.keepNitSot[drop] = false;

        std::vector<Variable*> oldOuts(node.outputs().begin(), node.outputs().end());
        std::vector<int> source(oldOuts.size());
        for (size_t o = 0; o < oldOuts.size(); ++o) source[o] = static_cast<int>(o);
        for (auto [drop, keep] : m.states) source[drop] = keep;
        for (auto [drop, keep] : m.nitSots) source[I.outerOutNitSot() + drop] = I.outerOutNitSot() + keep;
        const NodeId oldId = node.id();

        ScanRebuildResult r = rebuildScan(rewriter, node, plan);
        std::vector<Variable*> newOuts(r.node->outputs().begin(), r.node->outputs().end());
        for (auto [drop, keep] : m.states)
            rewriter.attribute(r.node->id(), "merged_state", scanStateName(I, drop), scanStateName(I, keep),
                               "equal initial values; equal updates when the merged states are assumed equal (node " +
                                   std::to_string(oldId) + ")");
        for (auto [drop, keep] : m.nitSots)
            rewriter.attribute(r.node->id(), "merged_state", scanNitSotName(drop), scanNitSotName(keep),
                               "equal outputs when the merged states are assumed equal, equal row counts");
        // Rewire last: replacing the final used output erases the old node (and `node`).
        std::vector<char> used(oldOuts.size());
        for (size_t o = 0; o < oldOuts.size(); ++o) used[o] = !oldOuts[o]->clients().empty();
        for (size_t o = 0; o < oldOuts.size(); ++o)
            if (used[o]) rewriter.replace(oldOuts[o], newOuts[r.outputMap[source[o]]]);
    }
};

} // namespace

const NodeRewrite& scanMergeStates() {
    static const ScanMergeStates r;
    return r;
}

} // namespace tl
