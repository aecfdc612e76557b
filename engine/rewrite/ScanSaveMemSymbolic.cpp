// scan_save_mem with a symbolic n_steps (see the header). The executor keeps a
// circular buffer of `store` rows whatever n is at run time and, after the loop,
// rotates it so the oldest row comes first; fewer steps than store - init_l leave
// zeroed rows at the end, and n = 0 leaves the buffer as it came in. So with
// L = n + init_l rows of the full trace, raw row r sits at buffer row
// r - max(L - store, 0), and the rows read end at buffer row min(L, store):
//   x[-j]   -> buf[-j] when store <= skip + j (then L >= store whenever the read is
//              valid), else buf[min(L, store) - j]; guarded by Assert(n_steps >= j + skip
//              - init_l) where the original would fail on too short a trace;
//   x[-j:-e] -> buf[end - c(j) : end - c(e)], end = min(L, store), c(k) = min(k, max(L - skip, 0))
//              (the original has fewer than j rows while n is small; no stop: end).
#include "rewrite/ScanSaveMemSymbolic.h"

#include "ops/Assert.h"
#include "ops/ScanOp.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/ScanRebuild.h"
#include "analysis/ScanReuseProof.h"
#include "rewrite/ScanSaveMemUtil.h"

#include <algorithm>
#include <map>

namespace tl {

namespace {

using Action = SymbolicItemPlan::Action;

std::string itemName(const ScanInfo& I, const SymbolicItemPlan& p) {
    return p.traced ? scanStateName(I, p.state) : scanNitSotName(p.state);
}

// "Shape_i{0}(M)", "Minimum(Shape_i{0}(M), Shape_i{0}(N))", "n": n_steps for the trace.
std::string stepsText(const Variable* n) {
    auto leaf = [](const Variable* v) {
        if (!v->name().empty()) return v->name();
        if (auto c = constantInt(v)) return std::to_string(*c);
        return v->owner() ? v->owner()->op().name() + "(...)" : std::string("?");
    };
    if (!n->name().empty() || !n->owner()) return leaf(n);
    std::string s = n->owner()->op().name() + "(";
    for (int i = 0; i < n->owner()->numInputs(); ++i) {
        const Variable* in = n->owner()->input(i);
        const Node* o = in->owner();
        s += (i ? ", " : "") + (in->name().empty() && o && o->numInputs() == 1 ? o->op().name() + "(" + leaf(o->input(0)) + ")"
                                                                                 : leaf(in));
    }
    return s + ")";
}

// Symbolic index arithmetic on 0-d int64 tensors, built once per apply.
struct RowMath {
    Rewriter& rw;
    Variable* nSteps;             // the loop's n_steps input
    Variable* steps64 = nullptr;  // ... as 0-d int64, built on first use (no leftover node otherwise)
    std::map<int64_t, Variable*> lengths;
    Variable* steps() {
        if (!steps64) steps64 = rw::asInt64Scalar(rw, nSteps);
        return steps64;
    }
    Variable* k(int64_t v) { return rw.constant(rw::scalarArray(DType::Int64, v)); }
    Variable* op(ScalarOpCode c, Variable* a, Variable* b) { return rw::makeElemwiseOf(rw, c, {a, b}); }
    // n_steps + extra (the full trace's length L for extra = init_l).
    Variable* length(int64_t extra) {
        if (extra == 0) return steps();
        Variable*& l = lengths[extra];
        if (!l) l = op(ScalarOpCode::Add, steps(), k(extra));
        return l;
    }
    // Where the rows read end in a buffer of `store` rows: min(L, store).
    Variable* end(int64_t initRows, int64_t store) {
        return store <= initRows ? k(store) : op(ScalarOpCode::Minimum, length(initRows), k(store));
    }
};

Variable* symbolicRead(RowMath& m, const SymbolicRead& r, Variable* out, int64_t store, int64_t initRows) {
    if (r.isIndex) {
        Variable* row = store <= r.skip + r.j ? m.k(-r.j) : m.op(ScalarOpCode::Sub, m.end(initRows, store), m.k(r.j));
        Variable* value = subtensorLike(m.rw, *r.terminal, out, {IndexEntry::Kind::Index}, {row});
        // The original fails (index out of range) when the trace is shorter than the
        // read, i.e. n_steps < j + skip - init_l; the small buffer would hand back its
        // initial or unwritten rows instead, so the failure is kept as an Assert.
        const int64_t minSteps = r.j + r.skip - initRows;
        if (minSteps <= 0) return value;
        Variable* ok = m.op(ScalarOpCode::Ge, m.steps(), m.k(minSteps));
        const std::string msg = "index -" + std::to_string(r.j) + " needs n_steps >= " + std::to_string(minSteps);
        return m.rw.create(makeAssert(msg), {value, ok})->output(0);
    }
    // Rows left after the skip: L - skip = n + (init_l - skip), never negative when skip <= init_l.
    Variable* left = m.length(initRows - r.skip);
    if (r.skip > initRows) left = m.op(ScalarOpCode::Maximum, left, m.k(0));
    Variable* end = m.end(initRows, store);
    auto back = [&](int64_t rows) { return m.op(ScalarOpCode::Sub, end, m.op(ScalarOpCode::Minimum, left, m.k(rows))); };
    std::vector<Variable*> ins{back(r.j), r.e > 0 ? back(r.e) : end};
    if (r.step != 1) ins.push_back(m.k(r.step));
    return subtensorLike(m.rw, *r.terminal, out, {IndexEntry::Kind::Slice, true, true, r.step != 1}, std::move(ins));
}

} // namespace

MatchResult matchSymbolicSaveMem(const Node& node, const RewriteOptions& options) {
    const auto& op = static_cast<const ScanOp&>(node.op());
    const ScanInfo& I = op.info();
    const int T = I.nTracedStates();
    const Variable* n = node.input(0);
    const bool exact = options.bufferMode == RewriteOptions::BufferMode::Exact;
    auto m = std::make_unique<SymbolicSaveMemMatch>();

    enum class Kind { FromEnd, FromStart, Other };
    std::vector<Kind> kind(T + I.nNitSot, Kind::Other);
    std::vector<int64_t> need(T + I.nNitSot, 0);
    std::vector<bool> used(T + I.nNitSot), fixed(T + I.nNitSot, false), full(T + I.nNitSot, false);
    std::vector<int64_t> fixedRows(T + I.nNitSot, 0);
    std::string noReduce;  // why n_steps stays
    if (I.asWhile) noReduce = "a while loop may stop at any step";
    else if (I.nUntraced > 0) noReduce = "untraced states are updated every step";
    int64_t lastStep = 0;
    bool anyRead = false;
    for (int item = 0; item < T + I.nNitSot; ++item) {
        SymbolicItemPlan p;
        p.traced = item < T;
        p.state = p.traced ? item : item - T;
        p.initRows = p.traced ? I.initRows(item) : 0;
        const std::string who = itemName(I, p);
        if (p.traced && item < I.nMitMot()) {
            // A gradient's mit_mot reads and writes rows across the whole loop: kept as it is.
            used[item] = true;
            p.rule = "kept: a mit_mot state reads and writes rows across the whole loop";
            if (noReduce.empty()) noReduce = who + " is a mit_mot state";
            m->reads.emplace_back();
            m->items.push_back(std::move(p));
            continue;
        }
        // The buffer (or nit_sot row count) as it is now: n + init_l rows, constant, or unknown.
        if (p.traced) {
            Variable* buffer = node.input(I.outerInMitMot() + item);
            const auto& shape = buffer->type().shape;
            if (!shape.empty() && shape[0] != kUnknownDim) fixed[item] = true, fixedRows[item] = shape[0];
            auto d = defaultBuffer(buffer);
            full[item] = !fixed[item] && d && d->stop == p.initRows && isStepsPlus(d->length(), n, p.initRows);
        } else {
            const Variable* store = node.input(I.outerInNitSot() + p.state);
            if (auto c = constantInt(store)) fixed[item] = true, fixedRows[item] = *c;
            full[item] = !fixed[item] && isStepsPlus(store, n, 0);
        }
        m->reads.push_back(analyseReadsSymbolic(*node.output(p.traced ? item : I.outerOutNitSot() + p.state)));
        const SymbolicOutputReads& reads = m->reads.back();
        used[item] = !reads.unused;
        if (reads.unused) {
            m->items.push_back(std::move(p));
            continue;
        }
        if (!full[item]) {
            p.rule = fixed[item] ? "kept: its buffer already has a constant " + std::to_string(fixedRows[item]) + " row(s)"
                                 : "kept: its buffer length is not n_steps + " + std::to_string(p.initRows);
            if (noReduce.empty()) noReduce = who + " " + p.rule.substr(6);
        } else if (reads.whole) {
            p.rule = "keep all rows: " + reads.why;
            if (noReduce.empty()) noReduce = who + " needs every row (" + reads.why + ")";
        } else {
            bool fromEnd = true, fromStart = true;
            int64_t lastRow = 0;
            for (const SymbolicRead& r : reads.reads) {
                (r.fromEnd ? fromStart : fromEnd) = false;
                if (r.fromEnd) need[item] = std::max(need[item], r.j);
                else if (!r.stop) fromStart = false;
                else lastRow = std::max(lastRow, *r.stop);
                // A while loop guarantees one step only (when n >= 1): reads must stay within it.
                if (r.fromEnd && I.asWhile && r.j + r.skip > p.initRows + 1) fromEnd = false;
            }
            if (fromEnd) {
                kind[item] = Kind::FromEnd;
                if (noReduce.empty()) noReduce = who + " is read from the end, which needs the last step";
            } else if (fromStart && !I.asWhile) {
                kind[item] = Kind::FromStart;
                lastStep = std::max(lastStep, lastRow - p.initRows);
                anyRead = true;
                p.rule = "keep all rows: every read stops by row " + std::to_string(lastRow);
            } else {
                p.rule = I.asWhile ? "keep all rows: a while loop's trace read from the start, or further back than one step guarantees"
                                   : "keep all rows: it is read both from the start and from the end, or to the end";
                if (noReduce.empty()) noReduce = who + " is read to its end";
            }
        }
        m->items.push_back(std::move(p));
    }

    // n_steps: minimum(n_steps, the last step any read needs) when every read stops at a constant row.
    const int64_t bound = std::max<int64_t>(1, lastStep);
    if (noReduce.empty() && !anyRead) noReduce = "no output is read";
    if (noReduce.empty()) {
        if (auto b = minimumBound(n); b && *b <= bound)
            noReduce = "it is already at most " + std::to_string(*b);
    }
    m->reduce = noReduce.empty();
    m->bound = bound;
    m->stepsRule = m->reduce ? "every read stops by step " + std::to_string(bound) + ": the loop runs minimum(n_steps, " +
                                   std::to_string(bound) + ") steps (never more than before: a shorter sequence, or none, "
                                   "gives the same rows as the full loop)"
                             : "n_steps stays symbolic: " + noReduce;

    // Which outputs go; which states may live in exactly init_l rows.
    const std::vector<bool> required = requiredStates(op, used);
    const std::vector<bool>& oldReuse = op.reuseProvenSafe();
    auto oldFlag = [&](int s) { return s < static_cast<int>(oldReuse.size()) && oldReuse[s]; };
    std::vector<bool> candidate(T, false);
    for (int s = 0; s < T; ++s) {
        const bool keptUnused = !used[s] && required[s] && full[s];
        if ((kind[s] == Kind::FromEnd && need[s] <= m->items[s].initRows) || keptUnused ||
            (fixed[s] && fixedRows[s] == m->items[s].initRows && oldFlag(s)))
            candidate[s] = true;
    }
    const std::vector<ReuseProof> proof = exact ? proveRowReuse(*op.inner(), I, candidate) : std::vector<ReuseProof>(T);

    bool changed = m->reduce;
    for (int item = 0; item < T + I.nNitSot; ++item) {
        SymbolicItemPlan& p = m->items[item];
        const bool safe = p.traced && exact && proof[item].safe;
        if (!used[item] && (!p.traced || !required[item])) {
            p.action = Action::Remove;
            p.rule = "removed: its output is unused and the step does not read it";
        } else if (kind[item] == Kind::FromEnd || (!used[item] && full[item])) {
            std::string why = used[item] ? "the reads need the last " + std::to_string(need[item]) + " row(s)"
                                         : "unused, but the step reads it";
            int64_t floor = std::max<int64_t>(p.initRows, 1);
            if (p.traced && safe) {
                why += "; exact: " + std::to_string(p.initRows) + " row(s), " + proof[item].why;
            } else if (p.traced) {
                floor = p.initRows + 1;
                why += exact ? "; exact: init_l + 1 rows, " + proof[item].why : "; pytensor: init_l + 1 rows for preallocation";
            }
            p.rows = std::max(need[item], floor);
            if (need[item] > p.initRows) why = "the reads need the last " + std::to_string(p.rows) + " row(s)";
            p.action = Action::Shrink;
            p.rule = why + "; n_steps is symbolic: a circular buffer of constant rows, reads counted from its end";
            p.reuse = p.traced && p.rows == p.initRows && safe;
        } else if (kind[item] == Kind::FromStart && m->reduce) {
            p.action = Action::Reduce;
            p.rule = "keep all rows of minimum(n_steps, " + std::to_string(bound) + ") steps";
        } else if (p.traced) {
            // Buffers left as they are keep their flag, unless the joint proof was redone for them.
            p.reuse = fixed[item] && candidate[item] ? safe : oldFlag(item);
        }
        if (p.action == Action::Remove || p.action == Action::Shrink) changed = true;
        if (p.traced && p.reuse != oldFlag(item)) changed = true;
    }
    if (!changed) return MatchResult::fail(options, [&] { return std::string("symbolic n_steps: nothing to save (" + m->stepsRule + ")"); });
    return MatchResult::ok(std::move(m));
}

void applySymbolicSaveMem(Rewriter& rewriter, Node& node, const SymbolicSaveMemMatch& m) {
    const auto& op = static_cast<const ScanOp&>(node.op());
    const ScanInfo& I = op.info();
    const int T = I.nTracedStates();
    Variable* n = node.input(0);
    ScanRebuildPlan plan;
    plan.keepState.assign(T, true);
    plan.keepNitSot.assign(I.nNitSot, true);
    plan.reuseProvenSafe = std::vector<bool>(T, false);
    for (int s = 0; s < T; ++s) (*plan.reuseProvenSafe)[s] = m.items[s].reuse;
    Variable* newN = n;
    if (m.reduce) {
        // Elemwise needs tensors: a ScalarType n_steps (an imported graph) goes through int64.
        Variable* steps = n->type().isScalarType() ? rw::asInt64Scalar(rewriter, n) : n;
        Variable* bound = rewriter.constant(rw::scalarArray(steps->type().dtype, m.bound), steps->type());
        newN = rw::makeElemwiseOf(rewriter, ScalarOpCode::Minimum, {steps, bound});
        plan.outerInput[0] = newN;
    }
    for (const SymbolicItemPlan& p : m.items) {
        const int in = p.traced ? I.outerInMitMot() + p.state : I.outerInNitSot() + p.state;
        Variable* cur = node.input(in);
        switch (p.action) {
        case Action::Remove: (p.traced ? plan.keepState[p.state] : plan.keepNitSot[p.state]) = false; break;
        case Action::Keep: break;
        case Action::Shrink:
            plan.outerInput[in] = p.traced ? resizeBuffer(rewriter, cur, p.initRows, bufferLengthConstant(rewriter, cur, p.rows))
                                           : rewriter.constant(rw::scalarArray(cur->type().dtype, p.rows), cur->type());
            break;
        case Action::Reduce: {
            if (!p.traced) {
                plan.outerInput[in] = newN;
                break;
            }
            Variable* len = p.initRows ? rw::makeElemwiseOf(rewriter, ScalarOpCode::Add,
                                                            {newN, rewriter.constant(rw::scalarArray(newN->type().dtype, p.initRows), newN->type())})
                                       : newN;
            plan.outerInput[in] = resizeBuffer(rewriter, cur, p.initRows, len);
            break;
        }
        }
    }

    const NodeId oldId = node.id();
    std::vector<Variable*> oldOuts(node.outputs().begin(), node.outputs().end());
    std::vector<std::string> before;
    for (const SymbolicItemPlan& p : m.items)
        before.push_back(p.traced ? shapeText(*node.input(I.outerInMitMot() + p.state)) : "(n_steps, ...)");
    const std::string stepsBefore = stepsText(n);
    ScanRebuildResult r = rebuildScan(rewriter, node, plan);
    const NodeId nid = r.node->id();

    rewriter.attribute(nid, "n_steps", stepsBefore,
                       m.reduce ? "minimum(" + stepsBefore + ", " + std::to_string(m.bound) + ")" : stepsBefore, m.stepsRule);
    for (size_t i = 0; i < m.items.size(); ++i) {
        const SymbolicItemPlan& p = m.items[i];
        const std::string who = itemName(I, p);
        std::string after = "removed";
        if (p.action != Action::Remove)
            after = p.traced ? shapeText(*r.node->input(I.outerInMitMot() + r.stateMap[p.state]))
                             : p.action == Action::Shrink ? "(" + std::to_string(p.rows) + ", ...)" : before[i];
        if (after != before[i]) rewriter.attribute(nid, "buffer_shape", before[i], after, who + ": " + p.rule);
        const std::string plus = p.initRows ? " + " + std::to_string(p.initRows) : "";
        const std::string rows = p.action == Action::Remove   ? "removed"
                                 : p.action == Action::Shrink ? std::to_string(p.rows) + " row(s)"
                                 : p.action == Action::Reduce ? "minimum(n_steps, " + std::to_string(m.bound) + ")" + plus + " row(s)"
                                                              : "n_steps" + plus + " row(s)";
        rewriter.attribute(nid, "buffer_rule", who, rows, p.rule.empty() ? "kept" : p.rule);
    }

    // Outputs passed on whole first (the old node stays alive through the reads still to
    // be rewritten), then each read of a shrunk buffer re-indexed into it.
    std::vector<Variable*> newOuts(r.node->outputs().begin(), r.node->outputs().end());
    std::vector<bool> viaReads(oldOuts.size(), false);
    for (const SymbolicItemPlan& p : m.items)
        viaReads[p.traced ? p.state : I.outerOutNitSot() + p.state] = p.action == Action::Shrink;
    passOutputsOn(rewriter, oldOuts, newOuts, r.outputMap, viaReads);
    RowMath math{rewriter, n, nullptr, {}};
    for (size_t i = 0; i < m.items.size(); ++i) {
        const SymbolicItemPlan& p = m.items[i];
        if (p.action != Action::Shrink) continue;
        Variable* out = newOuts[r.outputMap[p.traced ? p.state : I.outerOutNitSot() + p.state]];
        for (const SymbolicRead& read : m.reads[i].reads) {
            Variable* old = read.terminal->output(0);
            if (old->clients().empty()) continue;
            rewriter.replace(old, symbolicRead(math, read, out, p.rows, p.initRows));
        }
    }
    if (rewriter.graph().findNode(oldId)) rewriter.pruneDead();
}

} // namespace tl
