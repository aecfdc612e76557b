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
#include "ops/DimShuffle.h"
#include "ops/IncSubtensor.h"
#include "analysis/DestroyHandler.h"
#include "ops/ScanOp.h"
#include "ops/Subtensor.h"
#include "rewrite/OpenComposites.h"
#include "rewrite/Rewrites.h"
#include "rewrite/ScanRebuild.h"
#include "analysis/ValueNumbering.h"

#include <map>
#include <tuple>

namespace tl {

namespace {

struct StatePair {
    int dropped = 0, kept = 0;
    int64_t skipRows = 0;  // readers of the dropped output read the kept one from this row on
    std::string why;       // what made the buffers' difference harmless, for the trace
};

struct MergeStatesMatch : RewriteMatch {
    std::vector<StatePair> states;
    std::vector<std::pair<int, int>> nitSots;  // (dropped, kept)
    std::shared_ptr<const Graph> openedStep;   // the step with its Composites opened, when that was needed
};

// What a value is underneath copies and wrappers that keep its elements: PyTensor
// wraps initial values in SpecifyShape and Unbroadcast, copies a buffer two inplace
// states share (DeepCopyOp), and trims a buffer with a prefix slice.
const Variable* throughValueWrappers(const Variable* v) {
    for (int guard = 0; guard < 64 && v->owner(); ++guard) {
        const Node& n = *v->owner();
        const OpKind k = n.op().kind();
        if (k == OpKind::SpecifyShape || k == OpKind::Unbroadcast || k == OpKind::DeepCopy) v = n.input(0);
        else break;
    }
    return v;
}

// A buffer's initial rows, through a prefix slice buffer[:k] (k >= initRows) and a DeepCopyOp.
Variable* throughPrefix(Variable* buffer, int64_t initRows) {
    for (int guard = 0; guard < 64 && buffer->owner(); ++guard) {
        Node& n = *buffer->owner();
        if (n.op().kind() == OpKind::DeepCopy) {
            buffer = n.input(0);
            continue;
        }
        if (n.op().kind() != OpKind::Subtensor) break;
        const auto& e = static_cast<const SubtensorOp&>(n.op()).entries();
        if (e.size() != 1 || e[0].kind != IndexEntry::Kind::Slice || e[0].hasStart || !e[0].hasStop || e[0].hasStep) break;
        const auto stop = constantInt(n.input(1));
        if (!stop || *stop < initRows) break;
        buffer = n.input(0);
    }
    return buffer;
}

// What makes two traced states' initial buffers equal: equal initial rows (looking
// through the default construction, and through what PyTensor wraps the rows in:
// SpecifyShape, Unbroadcast, an ExpandDims that the row assignment broadcasts away),
// or the same buffer. Buffer lengths are not part of it: the rows after the initial
// ones are written by the loop before anything reads them, and how many of them a
// buffer keeps is scan_save_mem's business (see the length check in match()).
using InitKey = std::tuple<int, uint64_t, int64_t>;

InitKey initKey(ValueNumbering& outer, Variable* buffer, int initRows) {
    Variable* base = throughPrefix(buffer, initRows);
    if (auto d = defaultBuffer(base); d && d->stop == initRows) {
        const Variable* init = throughValueWrappers(d->init);
        while (init->owner() && init->owner()->op().kind() == OpKind::DimShuffle) {
            const auto& ds = static_cast<const DimShuffleOp&>(init->owner()->op());
            if (!ds.isExpandDims() || ds.augmented() != std::vector<int>{0}) break;
            init = throughValueWrappers(init->owner()->input(0));
        }
        return {1, outer.number(init), d->stop};
    }
    return {0, outer.number(throughValueWrappers(base)), 0};
}

// Rows of a traced state's buffer: a static length, or the number of a symbolic one.
struct BufferLength {
    bool known = false;
    int64_t rows = 0;
    uint64_t symbol = 0;
    bool operator==(const BufferLength& o) const { return known == o.known && (known ? rows == o.rows : symbol == o.symbol); }
};

BufferLength bufferLength(ValueNumbering& outer, Variable* buffer) {
    const auto& shape = buffer->type().shape;
    if (!shape.empty() && shape[0] != kUnknownDim) return {true, shape[0], 0};
    if (auto d = defaultBuffer(buffer)) return {false, 0, outer.number(d->length())};
    return {false, 0, outer.number(buffer)};
}

// Read outside the loop: a graph output, or a node whose result is used.
bool isRead(const Variable& out) {
    for (const Client& c : out.clients()) {
        if (c.isGraphOutput()) return true;
        for (const Variable* o : c.node->outputs())
            if (!o->clients().empty()) return true;
    }
    return false;
}

std::string rowsText(const BufferLength& l) { return l.known ? std::to_string(l.rows) + " row(s)" : "a symbolic number of rows"; }

class ScanMergeStates final : public NodeRewrite {
public:
    std::string_view name() const override { return "scan_merge_states"; }
    std::vector<std::string> tags() const override { return {"fast_run", "scan"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Scan}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const auto& op = static_cast<const ScanOp&>(node.op());
        const ScanInfo& I = op.info();
        const int T = I.nTracedStates();
        const int N = I.nNitSot;
        if (T - I.nMitMot() + N < 2) return MatchResult::fail("fewer than two mit_sot/sit_sot/nit_sot outputs");

        // 1. Candidate groups. Items: traced states nMitMot..T-1, then nit_sots T..T+N-1.
        // The outer graph is numbered only for items whose layout another item shares.
        ValueNumbering outer;
        std::vector<int> cls(T + N, -1);
        std::shared_ptr<const Graph> opened;
        {
            using Layout = std::tuple<int, std::vector<int>, std::string>;
            std::vector<Layout> layout(T + N);
            std::map<Layout, int> layoutCount;
            const Graph& inner = *op.inner();
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
                InitKey init{4, static_cast<uint64_t>(item), 0};  // alone: a group of its own
                if (layoutCount[layout[item]] > 1)
                    init = item < T ? initKey(outer, node.input(I.outerInMitMot() + item), I.initRows(item))
                                    : InitKey{3, outer.number(node.input(I.outerInNitSot() + (item - T))), 0};
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
            return MatchResult::fail("no two states have equal taps, types and initial values");

        // The step as elementwise work: a value computed inside two fused Composites
        // (PyTensor's compiled steps) is then one value to the numbering below.
        opened = openComposites(*op.inner());
        const Graph& inner = opened ? *opened : *op.inner();

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

        // 3. Within each class of states, the survivor: a state read outside the loop, the
        // one with the longest buffer. Another member's buffer may differ in length when
        // nothing outside reads it, or when both hold the latest rows of a for loop with a
        // known number of steps (the shorter is then the longer one's last rows).
        auto m = std::make_unique<MergeStatesMatch>();
        std::map<int, std::vector<int>> members;
        for (int item = I.nMitMot(); item < T + N; ++item) members[cls[item]].push_back(item);
        const auto steps = constantInt(node.input(0));
        std::string lengthsDiffer;
        for (auto& [c, items] : members) {
            if (items.size() < 2) continue;
            if (items[0] >= T) {
                const Variable* kept = node.output(I.outerOutNitSot() + (items[0] - T));
                for (size_t k = 1; k < items.size(); ++k) {
                    const Variable* dropped = node.output(I.outerOutNitSot() + (items[k] - T));
                    if (overwrittenInPlace(*kept) || overwrittenInPlace(*dropped)) {
                        lengthsDiffer = "nit_sot-" + std::to_string(items[k] - T) + " and nit_sot-" + std::to_string(items[0] - T) +
                                        " compute the same sequence, but a reader overwrites one of them in place";
                        continue;
                    }
                    m->nitSots.push_back({items[k] - T, items[0] - T});
                }
                continue;
            }
            std::vector<BufferLength> len;
            std::vector<bool> read;
            for (int s : items) {
                len.push_back(bufferLength(outer, node.input(I.outerInMitMot() + s)));
                read.push_back(isRead(*node.output(s)));
            }
            size_t keep = 0;
            for (size_t k = 1; k < items.size(); ++k) {
                auto rank = [&](size_t j) { return std::make_tuple(read[j] ? 1 : 0, len[j].known ? len[j].rows : 0); };
                if (rank(k) > rank(keep)) keep = k;
            }
            for (size_t k = 0; k < items.size(); ++k) {
                if (k == keep) continue;
                StatePair p{items[k], items[keep], 0, {}};
                const std::string names = scanStateName(I, items[k]) + " and " + scanStateName(I, items[keep]);
                if (overwrittenInPlace(*node.output(items[k])) || overwrittenInPlace(*node.output(items[keep]))) {
                    // One trace for both would be overwritten under the other's readers.
                    lengthsDiffer = names + " compute the same sequence, but a reader overwrites one of their traces in place";
                    continue;
                }
                if (len[k] == len[keep]) {
                    // Equal buffers: the dropped state's readers read the kept one as it is.
                } else if (!read[k]) {
                    p.why = "; its buffer (" + rowsText(len[k]) + ") is not read outside the loop";
                } else if (!I.asWhile && steps && len[k].known && len[keep].known && len[k].rows < len[keep].rows &&
                           len[keep].rows <= *steps + I.initRows(items[k])) {
                    p.skipRows = len[keep].rows - len[k].rows;
                    p.why = "; its " + std::to_string(len[k].rows) + "-row buffer is the last rows of " +
                            scanStateName(I, items[keep]) + "'s " + std::to_string(len[keep].rows);
                } else {
                    lengthsDiffer = names + " compute the same sequence, but their buffers keep " + rowsText(len[k]) +
                                    " and " + rowsText(len[keep]) + " and both are read";
                    continue;
                }
                m->states.push_back(std::move(p));
            }
        }
        if (m->states.empty() && m->nitSots.empty()) {
            if (!lengthsDiffer.empty()) return MatchResult::fail(options, [&] { return lengthsDiffer; });
            return MatchResult::fail("states with equal initial values have different updates");
        }
        // The rebuilt step comes from the opened one only where that is what made states equal.
        if (opened) m->openedStep = std::move(opened);
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
        plan.step = m.openedStep;
        for (const StatePair& p : m.states) {
            plan.keepState[p.dropped] = false;
            const int nTaps = static_cast<int>(I.stateTaps(p.dropped).size());
            for (int k = 0; k < nTaps; ++k) plan.innerInputAlias[I.innerInTap(p.dropped, k)] = I.innerInTap(p.kept, k);
        }
        for (auto [drop, keep] : m.nitSots) plan.keepNitSot[drop] = false;

        std::vector<Variable*> oldOuts(node.outputs().begin(), node.outputs().end());
        std::vector<int> source(oldOuts.size());
        std::vector<int64_t> skip(oldOuts.size(), 0);
        for (size_t o = 0; o < oldOuts.size(); ++o) source[o] = static_cast<int>(o);
        for (const StatePair& p : m.states) {
            source[p.dropped] = p.kept;
            skip[p.dropped] = p.skipRows;
        }
        for (auto [drop, keep] : m.nitSots) source[I.outerOutNitSot() + drop] = I.outerOutNitSot() + keep;
        const NodeId oldId = node.id();

        ScanRebuildResult r = rebuildScan(rewriter, node, plan);
        std::vector<Variable*> newOuts(r.node->outputs().begin(), r.node->outputs().end());
        const std::string opened = m.openedStep ? "; the step's Composites were opened, so each value is computed once" : "";
        for (const StatePair& p : m.states)
            rewriter.attribute(r.node->id(), "merged_state", scanStateName(I, p.dropped), scanStateName(I, p.kept),
                               scanStateName(I, p.dropped) + " computes the same sequence as " + scanStateName(I, p.kept) +
                                   " (equal initial values, equal updates under the assumption that the states are equal" +
                                   p.why + opened + "; node " + std::to_string(oldId) + ")");
        for (auto [drop, keep] : m.nitSots)
            rewriter.attribute(r.node->id(), "merged_state", scanNitSotName(drop), scanNitSotName(keep),
                               scanNitSotName(drop) + " computes the same rows as " + scanNitSotName(keep) +
                                   " (equal outputs under the assumption that the merged states are equal, equal row counts)");
        // Rewire last: replacing the final used output erases the old node (and `node`).
        std::vector<char> used(oldOuts.size());
        for (size_t o = 0; o < oldOuts.size(); ++o) used[o] = !oldOuts[o]->clients().empty();
        for (size_t o = 0; o < oldOuts.size(); ++o) {
            if (!used[o]) continue;
            Variable* now = newOuts[r.outputMap[source[o]]];
            if (skip[o] > 0) {
                Variable* from = rewriter.constant(NDArray::scalar(DType::Int64, static_cast<double>(skip[o])),
                                                   Type::scalar(DType::Int64));
                now = rewriter.create(makeSubtensor({{IndexEntry::Kind::Slice, true, false, false}}), {now, from})->output(0);
            }
            rewriter.replace(oldOuts[o], now);
        }
    }
};

} // namespace

const NodeRewrite& scanMergeStates() {
    static const ScanMergeStates r;
    return r;
}

} // namespace tl
