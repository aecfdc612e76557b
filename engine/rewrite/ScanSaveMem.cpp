// scan_save_mem (PyTensor's ScanSaveMem, docs/semantics.md#scan-buffers):
// x[-1] of an 11-row trace -> a 1-row buffer (exact) or 2 rows (pytensor); x[:5] -> 5 steps.
//
// 1. n_steps: when every read of every output stops at a known row (for loops
//    without untraced states), the loop runs only as far as the last row read.
// 2. Rows kept per output: all of them when something needs all (a non-Subtensor
//    client, a graph output, a slice from 0 or from init_l), otherwise the rows read,
//    but at least init_l for a traced state; PyTensor's C backend keeps init_l + 1
//    so a new state never lands on a tap still to be read. Exact mode keeps init_l
//    where ScanReuseProof shows that cannot matter.
// 3. Buffers are rebuilt at the new size (AllocEmpty and Rop's zero-filled Alloc
//    alike), reads re-indexed into the smaller buffers, unused outputs removed.
// A symbolic n_steps (a sequence of unknown length) is planned by ScanSaveMemSymbolic.
#include "ops/ScanOp.h"
#include "ops/Subtensor.h"
#include "rewrite/Rewrites.h"
#include "rewrite/ScanBufferReads.h"
#include "rewrite/ScanRebuild.h"
#include "analysis/ScanReuseProof.h"
#include "rewrite/ScanSaveMemSymbolic.h"
#include "rewrite/ScanSaveMemUtil.h"

#include <algorithm>
#include <unordered_set>

namespace tl {

namespace {

struct ItemPlan {
    bool traced = true;
    int state = 0;          // traced state, or nit_sot index
    int64_t initRows = 0;
    int64_t current = 0;    // rows of the output now
    int64_t rows = 0;       // rows after the rewrite (0: removed)
    bool removed = false;
    bool rewriteReads = false;
    int64_t shift = 0;      // new row = old row - shift
    OutputReads reads;
    std::string rule;       // why `rows`
};

struct SaveMemMatch : RewriteMatch {
    int64_t nSteps = 0, newSteps = 0;
    std::vector<ItemPlan> items;  // traced states, then nit_sots
    std::vector<bool> reuse;      // new reuseProvenSafe per traced state (old numbering)
};

class ScanSaveMem final : public NodeRewrite {
public:
    std::string_view name() const override { return "scan_save_mem"; }
    std::vector<std::string> tags() const override { return {"fast_run", "scan", "scan_save_mem"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Scan}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const auto& op = static_cast<const ScanOp&>(node.op());
        const ScanInfo& I = op.info();
        const int T = I.nTracedStates();
        const auto steps = constantInt(node.input(0));
        if (!steps) return matchSymbolicSaveMem(node, options);
        if (*steps < 1) return MatchResult::fail("n_steps is a constant below 1");
        const bool exact = options.bufferMode == RewriteOptions::BufferMode::Exact;

        auto m = std::make_unique<SaveMemMatch>();
        m->nSteps = m->newSteps = *steps;
        // A gradient's mit_mot states read and write rows across the whole loop: they keep
        // their buffers and the loop its steps, as in PyTensor; the loop's other states
        // are sized as in any loop.
        bool reducible = !I.asWhile && I.nUntraced == 0 && I.nMitMot() == 0;
        int64_t lastRow = 0;  // steps the reads need
        for (int item = 0; item < T + I.nNitSot; ++item) {
            ItemPlan p;
            p.traced = item < T;
            p.state = p.traced ? item : item - T;
            p.initRows = p.traced ? I.initRows(item) : 0;
            if (p.traced) {
                const auto& shape = node.input(I.outerInMitMot() + item)->type().shape;
                p.current = shape.empty() ? kUnknownDim : shape[0];
            } else {
                p.current = constantInt(node.input(I.outerInNitSot() + p.state)).value_or(kUnknownDim);
            }
            const int64_t full = *steps + p.initRows;
            if (p.traced && item < I.nMitMot()) {
                p.reads.whole = true;
                p.reads.why = "a mit_mot state reads and writes rows across the whole loop";
            } else if (p.current == kUnknownDim || p.current > full) {
                p.reads.whole = true;
                p.reads.why = "its buffer length is not a known constant";
                reducible = false;
            } else {
                p.reads = analyseReads(*node.output(item), I.asWhile ? kUnknownDim : p.current, p.initRows + 1);
                if (p.current != full) reducible = false;
            }
            if (p.reads.whole) reducible = false;
            for (const BufferRead& r : p.reads.reads) {
                // PyTensor's own rule (pytensor mode): steps up to the stops as written,
                // so a slice to the end keeps every step.
                const int64_t stop = (exact ? r.stop() : r.bound) + (full - p.current);
                if (r.fromEnd || stop >= full) reducible = false;
                else lastRow = std::max(lastRow, stop - p.initRows);
            }
            m->items.push_back(std::move(p));
        }
        if (reducible) m->newSteps = std::max<int64_t>(1, lastRow);

        // Rows each output needs; which states could live in exactly init_l rows.
        std::vector<bool> candidate(T, false);
        std::vector<int64_t> need(m->items.size(), 0);
        std::vector<bool> keepAll(m->items.size(), false);
        for (size_t i = 0; i < m->items.size(); ++i) {
            ItemPlan& p = m->items[i];
            const int64_t full = *steps + p.initRows, newFull = m->newSteps + p.initRows;
            if (p.reads.whole) {
                keepAll[i] = true;
                p.rule = "keep all rows: " + p.reads.why;
                continue;
            }
            for (const BufferRead& r : p.reads.reads) {
                if (r.fromEnd) {
                    need[i] = std::max(need[i], -r.first);
                    continue;
                }
                const int64_t v = r.first + (full - p.current);  // row in the untruncated trace
                if ((!r.isIndex && (v == 0 || v == p.initRows)) || (r.isIndex && v == 0)) {
                    keepAll[i] = true;
                    p.rule = "keep all rows: " + r.terminal->label() + " reads from row " + std::to_string(v) +
                             " (the initial rows or the whole trace)";
                    break;
                }
                need[i] = std::max(need[i], newFull - v);
            }
            if (p.traced && !keepAll[i] && need[i] <= p.initRows) candidate[i] = true;
        }
        std::vector<bool> used;
        for (const ItemPlan& p : m->items) used.push_back(!p.reads.unused);
        const std::vector<bool> required = requiredStates(op, used);
        for (int s = 0; s < T; ++s)
            if (m->items[s].reads.unused && !required[s]) candidate[s] = false;
        const std::vector<ReuseProof> proof =
            exact ? proveRowReuse(*op.inner(), I, candidate) : std::vector<ReuseProof>(T);

        bool changed = m->newSteps != m->nSteps;
        m->reuse.assign(T, false);
        for (size_t i = 0; i < m->items.size(); ++i) {
            ItemPlan& p = m->items[i];
            const int64_t newFull = m->newSteps + p.initRows;
            if (p.traced && p.state < I.nMitMot()) {
                p.rows = p.current;  // as it is: its rows are not the trace of one value
                p.rule = "keep all rows: " + p.reads.why;
                continue;
            }
            if (p.reads.unused && (!p.traced || !required[i])) {
                p.removed = true;
                p.rule = "removed: its output is unused and the step does not read it";
                changed = true;
                continue;
            }
            // Kept whole, a buffer keeps its length: the trace of the new steps when it was
            // exactly the trace, otherwise as it is (a truncated gradient's nit_sot is longer
            // than its steps, and its rows past them are zeros the reads see).
            int64_t rows = p.current == *steps + p.initRows ? newFull : p.current;
            if (!keepAll[i]) {
                std::string why = p.reads.unused ? "unused, but the step reads it"
                                                 : "the reads need the last " + std::to_string(need[i]) + " row(s)";
                int64_t floor = p.initRows;
                if (p.traced && exact && proof[i].safe) {
                    why += "; exact: " + std::to_string(p.initRows) + " row(s), " + proof[i].why;
                } else if (p.traced) {
                    floor = p.initRows + 1;
                    why += exact ? "; exact: init_l + 1 rows, " + proof[i].why
                                 : "; pytensor: init_l + 1 rows for preallocation";
                }
                rows = std::min(newFull, std::max(need[i], floor));
                if (need[i] > floor || rows == newFull) why = "the reads need the last " + std::to_string(rows) + " row(s)";
                p.rule = why;
            }
            // Never grow a buffer someone already made smaller (the executor copies when unsure).
            if (p.current != newFull && rows > p.current) rows = p.current;
            p.rows = rows;
            if (p.traced) m->reuse[i] = rows == p.initRows && exact && proof[i].safe;
            if (rows != p.current) changed = true;
            p.rewriteReads = !p.reads.whole && !p.reads.unused && (rows != p.current || newFull != *steps + p.initRows);
            p.shift = (newFull - rows) - (*steps + p.initRows - p.current);
        }
        if (!changed && m->reuse != op.reuseProvenSafe())
            changed = true;
        if (!changed) return MatchResult::fail("every buffer already has the rows its reads need");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        if (const auto* symbolic = dynamic_cast<const SymbolicSaveMemMatch*>(&match)) {
            applySymbolicSaveMem(rewriter, node, *symbolic);
            return;
        }
        const auto& m = static_cast<const SaveMemMatch&>(match);
        const auto& op = static_cast<const ScanOp&>(node.op());
        const ScanInfo& I = op.info();
        const int T = I.nTracedStates();
        ScanRebuildPlan plan;
        plan.keepState.assign(T, true);
        plan.keepNitSot.assign(I.nNitSot, true);
        plan.reuseProvenSafe = m.reuse;
        auto intLike = [&](const Variable* like, int64_t v) {
            return rewriter.constant(NDArray::scalar(like->type().dtype, static_cast<double>(v)), like->type());
        };
        if (m.newSteps != m.nSteps) plan.outerInput[0] = intLike(node.input(0), m.newSteps);
        for (const ItemPlan& p : m.items) {
            if (p.removed) {
                (p.traced ? plan.keepState[p.state] : plan.keepNitSot[p.state]) = false;
                continue;
            }
            if (p.rows == p.current) continue;
            if (!p.traced) {
                plan.outerInput[I.outerInNitSot() + p.state] = intLike(node.input(I.outerInNitSot() + p.state), p.rows);
                continue;
            }
            Variable* buffer = node.input(I.outerInMitMot() + p.state);
            plan.outerInput[I.outerInMitMot() + p.state] =
                resizeBuffer(rewriter, buffer, p.initRows, bufferLengthConstant(rewriter, buffer, p.rows));
        }

        // Everything the rewiring needs, gathered before the old node can disappear.
        const NodeId oldId = node.id();
        std::vector<Variable*> oldOuts(node.outputs().begin(), node.outputs().end());
        std::vector<std::string> before;
        for (const ItemPlan& p : m.items)
            before.push_back(p.traced ? shapeText(*node.input(I.outerInMitMot() + p.state))
                                      : "(" + std::to_string(p.current) + ", ...)");
        ScanRebuildResult r = rebuildScan(rewriter, node, plan);
        const NodeId nid = r.node->id();

        if (m.newSteps != m.nSteps)
            rewriter.attribute(nid, "n_steps", std::to_string(m.nSteps), std::to_string(m.newSteps),
                               "every read stops by step " + std::to_string(m.newSteps));
        for (size_t i = 0; i < m.items.size(); ++i) {
            const ItemPlan& p = m.items[i];
            const std::string who = p.traced ? scanStateName(I, p.state) : scanNitSotName(p.state);
            std::string after = "removed";
            if (!p.removed)
                after = p.traced ? shapeText(*r.node->input(I.outerInMitMot() + r.stateMap[p.state]))
                                 : "(" + std::to_string(p.rows) + ", ...)";
            if (after != before[i])
                rewriter.attribute(nid, "buffer_shape", before[i], after, who + ": " + p.rule);
            rewriter.attribute(nid, "buffer_rule", who, p.removed ? "removed" : std::to_string(p.rows) + " row(s)", p.rule);
        }

        // Outputs passed on whole first (the old node stays alive through the reads still
        // to be rewritten), then each read re-indexed into the new buffer.
        std::vector<Variable*> newOuts(r.node->outputs().begin(), r.node->outputs().end());
        std::vector<bool> viaReads(oldOuts.size(), false);
        for (size_t i = 0; i < m.items.size(); ++i) {
            const int o = m.items[i].traced ? m.items[i].state : I.outerOutNitSot() + m.items[i].state;
            viaReads[o] = m.items[i].rewriteReads;
        }
        passOutputsOn(rewriter, oldOuts, newOuts, r.outputMap, viaReads);
        for (const ItemPlan& p : m.items) {
            if (!p.rewriteReads) continue;
            Variable* out = newOuts[r.outputMap[p.traced ? p.state : I.outerOutNitSot() + p.state]];
            for (const BufferRead& read : p.reads.reads) {
                Variable* old = read.terminal->output(0);
                if (old->clients().empty()) continue;
                rewriter.replace(old, rewriteRead(rewriter, read, out, p.shift));
            }
        }
        // Outputs whose only clients are unused nodes (a builder's leftovers) keep the old
        // loop alive: prune them so one loop remains.
        if (rewriter.graph().findNode(oldId)) rewriter.pruneDead();
        (void)T;
    }

};

} // namespace

const NodeRewrite& scanSaveMem() {
    static const ScanSaveMem r;
    return r;
}

} // namespace tl
