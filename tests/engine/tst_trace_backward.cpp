// Stepping through a rewrite trace in both directions: every graph TraceReplayer
// gives, forward to the end and back to 0 and at random jumps, equals an
// independent replay from step 0 (ids, ops and their params, wiring, types incl.
// buffer shapes, names, clients) and runs to the same outputs. Corrupted steps
// give errors naming the step, and the replayer stays usable.
#include "TestSuites.h"
#include "trace/TraceReplayer.h"
#include "builder/Examples.h"
#include "builder/Generators.h"
#include "builder/Math.h"
#include "exec/Executor.h"
#include "io/JsonTrace.h"
#include "io/JsonValues.h"
#include "ir/Fingerprint.h"
#include "ir/Rewriter.h"
#include "rewrite/Pipeline.h"
#include "trace/TraceUndo.h"
#include "TestSupport.h"

#include <QtTest>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <random>
#include <sstream>
#include <unordered_map>

using namespace tl;

namespace {

std::string exactDoubles(const NDArray& a) {
    std::string s;
    char buf[40];
    for (double d : a.toDoubles()) {
        std::snprintf(buf, sizeof buf, "%a,", d);
        s += buf;
    }
    return s;
}

/// kind, params and inner graph of an op, computed once per op object (ops are
/// immutable and shared by the graphs of every step; the cache keeps them alive).
const std::string& opText(const OpPtr& op) {
    static std::unordered_map<const Op*, std::pair<OpPtr, std::string>> cache;
    auto it = cache.find(op.get());
    if (it == cache.end())
        it = cache.emplace(op.get(), std::make_pair(op, op->name() + " op#" + std::to_string(fingerprint(*op)) + " " +
                                                            op->params().dump()))
                 .first;
    return it->second.second;
}

/// One line per fact of the graph, sorted by id: equal texts <=> equal graphs
/// (up to the order of the node list and of client lists, which carry no meaning).
std::string canonical(const Graph& g) {
    std::ostringstream out;
    for (const Variable* in : g.inputs()) out << "input " << in->id() << " " << in->type().toString() << " '" << in->name() << "'\n";
    for (const Variable* c : g.constants())
        out << "constant " << c->id() << " " << c->type().toString() << " '" << c->name() << "' "
            << exactDoubles(c->constantValue()) << "\n";
    std::vector<const Node*> nodes(g.nodes().begin(), g.nodes().end());
    std::sort(nodes.begin(), nodes.end(), [](auto* a, auto* b) { return a->id() < b->id(); });
    for (const Node* n : nodes) {
        out << "node " << n->id() << " " << opText(n->opPtr()) << " in";
        for (const Variable* v : n->inputs()) out << " " << v->id();
        out << " out";
        for (const Variable* o : n->outputs()) out << " " << o->id() << ":" << o->type().toString() << ":'" << o->name() << "'";
        out << "\n";
    }
    out << "outputs";
    for (const Variable* o : g.outputs()) out << " " << o->id();
    out << "\n";
    std::vector<std::pair<VarId, std::string>> clients;
    auto addClients = [&](const Variable* v) {
        std::vector<std::string> cs;
        for (const Client& c : v->clients())
            cs.push_back(c.isGraphOutput() ? "out" + std::to_string(c.index)
                                           : std::to_string(c.node->id()) + "." + std::to_string(c.index));
        std::sort(cs.begin(), cs.end());
        std::string line;
        for (auto& c : cs) line += " " + c;
        clients.emplace_back(v->id(), line);
    };
    for (const Variable* in : g.inputs()) addClients(in);
    for (const Variable* c : g.constants()) addClients(c);
    for (const Node* n : nodes)
        for (const Variable* o : n->outputs()) addClients(o);
    std::sort(clients.begin(), clients.end());
    for (auto& [id, line] : clients) out << "clients " << id << ":" << line << "\n";
    return out.str();
}

/// The first differing line of two canonical texts, for failure messages.
std::string firstDifference(const std::string& got, const std::string& want) {
    std::istringstream a(got), b(want);
    std::string la, lb;
    int line = 0;
    while (true) {
        const bool ha = static_cast<bool>(std::getline(a, la)), hb = static_cast<bool>(std::getline(b, lb));
        ++line;
        if (!ha && !hb) return "equal";
        if (!ha || !hb || la != lb) return "line " + std::to_string(line) + ": got '" + (ha ? la : "<end>") + "', want '" + (hb ? lb : "<end>") + "'";
    }
}

/// The graph after each step by the plainest possible replay: a copy of the
/// original and Rewriter::replayEdit for every edit (no TraceReplayer involved),
/// with the outputs of running it.
struct Reference {
    std::vector<size_t> hashes;  // of canonical(graph after k steps)
    std::vector<std::vector<NDArray>> outputs;
    const Trace* trace = nullptr;

    std::string text(int k) const {
        auto g = trace->original().clone();
        Rewriter rw(*g);
        for (int s = 0; s < k; ++s)
            for (const GraphEdit& e : trace->steps()[static_cast<size_t>(s)].edits) rw.replayEdit(e);
        return canonical(*g);
    }
};

Reference buildReference(const Trace& trace, const std::vector<NDArray>& inputs) {
    Reference ref;
    ref.trace = &trace;
    auto g = trace.original().clone();
    Rewriter rw(*g);
    for (size_t k = 0;; ++k) {
        ref.hashes.push_back(std::hash<std::string>{}(canonical(*g)));
        ref.outputs.push_back(runGraph(*g, inputs).outputs);
        if (k == trace.size()) break;
        for (const GraphEdit& e : trace.steps()[k].edits) rw.replayEdit(e);
    }
    return ref;
}

std::vector<NDArray> inputsFor(const Graph& g, const Example* example) {
    std::vector<NDArray> in = randomInputs(g, 7);
    if (example && example->inputs) {
        const auto given = example->inputs();
        for (size_t i = 0; i < g.inputs().size(); ++i)
            if (auto it = given.find(g.inputs()[i]->name()); it != given.end()) in[i] = it->second;
    }
    return in;
}

struct Case {
    std::string name;
    std::function<std::unique_ptr<Graph>()> build;
    const Example* example = nullptr;
};

std::vector<Case> cases() {
    std::vector<Case> out;
    for (const Example& e : examples())
        out.push_back(Case{e.name, [n = e.name] { return buildExample(n); }, &e});
    out.push_back(Case{"generated_mixed_250", [] { return generateMixed(250, 3); }, nullptr});
    out.push_back(Case{"generated_scans_8", [] { return generateIndependentScans(8, 6, 4); }, nullptr});
    out.push_back(Case{"generated_duplicates_150", [] { return generateDuplicatedSubexpressions(150, 4); }, nullptr});
    return out;
}

Trace record(const Graph& g) {
    PipelineOptions opts;
    opts.validate = false;  // the pipeline's own checks are tested elsewhere; here only the trace matters
    return rewriteWithTrace(g, opts);
}

/// Checks graphAt(k) against the reference: same graph, valid, same outputs.
void checkStep(TraceReplayer& replay, const Reference& ref, const std::vector<NDArray>& inputs, int k,
               const std::string& how, bool run = true) {
    const Graph& g = replay.graphAt(k);
    QCOMPARE(replay.current(), k);
    const std::string text = canonical(g);
    if (std::hash<std::string>{}(text) != ref.hashes[static_cast<size_t>(k)])
        QFAIL(qPrintable(QString::fromStdString(how + ", step " + std::to_string(k) + ": graph differs from the replay from 0: " +
                                                firstDifference(text, ref.text(k)))));
    const auto problems = g.validate();
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
    if (!run) return;
    const RunResult r = runGraph(g, inputs);
    QCOMPARE(r.outputs.size(), ref.outputs[static_cast<size_t>(k)].size());
    for (size_t i = 0; i < r.outputs.size(); ++i) {
        // The same graph must compute the same bits; against the original within rounding.
        TL_COMPARE_ARRAYS(r.outputs[i], ref.outputs[static_cast<size_t>(k)][i], 0, 0);
        TL_COMPARE_ARRAYS(r.outputs[i], ref.outputs[0][i], 1e-10, 1e-12);
    }
}

std::unique_ptr<Graph> chain(int n) {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {3});
    Var v = x;
    for (int i = 0; i < n; ++i) v = (i % 2) ? exp(v * 1.0) : v + 0.0;
    return b.finish({v, v * 2.0});
}

/// The first step with at least one edit of `kind`, or -1.
int stepWith(const Trace& t, GraphEdit::Kind kind) {
    for (size_t s = 0; s < t.size(); ++s)
        for (const GraphEdit& e : t.steps()[s].edits)
            if (e.kind == kind) return static_cast<int>(s);
    return -1;
}

} // namespace

class TestTraceBackward : public QObject {
    Q_OBJECT
private slots:
    void walkForwardThenBackward_data() {
        QTest::addColumn<int>("index");
        QTest::addColumn<bool>("viaJson");
        const auto all = cases();
        for (size_t i = 0; i < all.size(); ++i) {
            QTest::newRow(all[i].name.c_str()) << static_cast<int>(i) << false;
            // A loaded trace stores only ids for erasures: the inverse must come from the graph.
            QTest::newRow((all[i].name + " (from JSON)").c_str()) << static_cast<int>(i) << true;
        }
    }
    void walkForwardThenBackward() {
        QFETCH(int, index);
        QFETCH(bool, viaJson);
        const Case c = cases()[static_cast<size_t>(index)];
        auto g = c.build();
        Trace recorded = record(*g);
        Trace trace = viaJson ? traceFromJsonText(traceToJsonText(recorded)) : std::move(recorded);
        QVERIFY(trace.size() > 0);
        const auto inputs = inputsFor(trace.original(), c.example);
        const Reference ref = buildReference(trace, inputs);
        const int n = static_cast<int>(trace.size());
        TraceReplayer replay(trace);
        // Loaded traces run the graphs on the way back only (the forward graphs are the
        // in-memory case's, compared structurally here).
        for (int k = 0; k <= n; ++k) checkStep(replay, ref, inputs, k, "forward", !viaJson);
        QCOMPARE(replay.checkpointCount(), size_t(0));  // neighbours never pay for a copy
        for (int k = n; k >= 0; --k) checkStep(replay, ref, inputs, k, "backward");
        // And forward again over inverses already derived.
        for (int k = 0; k <= n; ++k) checkStep(replay, ref, inputs, k, "forward again", !viaJson);
    }

    void randomJumps_data() {
        QTest::addColumn<int>("index");
        const auto all = cases();
        for (size_t i = 0; i < all.size(); ++i)
            if (all[i].name.rfind("generated", 0) == 0 || all[i].name.rfind("seed", 0) == 0)
                QTest::newRow(all[i].name.c_str()) << static_cast<int>(i);
    }
    void randomJumps() {
        QFETCH(int, index);
        const Case c = cases()[static_cast<size_t>(index)];
        auto g = c.build();
        const Trace trace = record(*g);
        const auto inputs = inputsFor(trace.original(), c.example);
        const Reference ref = buildReference(trace, inputs);
        const int n = static_cast<int>(trace.size());
        TraceReplayer replay(trace, 2);  // checkpoints allowed almost anywhere
        std::mt19937 rng(11);
        for (int i = 0; i < 60; ++i) {
            const int k = static_cast<int>(rng() % static_cast<unsigned>(n + 1));
            checkStep(replay, ref, inputs, k, "jump");
            // A neighbour of where the jump landed, in a random direction.
            const int k2 = std::clamp(k + ((rng() & 1) ? 1 : -1), 0, n);
            checkStep(replay, ref, inputs, k2, "jump then adjacent");
        }
        checkStep(replay, ref, inputs, n, "end");
        checkStep(replay, ref, inputs, 0, "start");
    }

    void longJumpsKeepFewCheckpoints() {
        auto g = generateMixed(1500, 5);
        const Trace trace = record(*g);
        const int n = static_cast<int>(trace.size());
        TraceReplayer replay(trace, 1);
        replay.graphAt(n);
        // Copies are taken only where the walk since the last one cost as much as the copy:
        // their number is bounded by the trace's edits over the graph's size, not by its steps.
        size_t edits = 0;
        for (const TraceStep& s : trace.steps()) edits += s.edits.size() + 1;
        size_t smallest = trace.original().numNodes();
        TraceReplayer walker(trace);
        for (int k = 0; k <= n; ++k) smallest = std::min(smallest, walker.graphAt(k).numNodes());
        QVERIFY2(replay.checkpointCount() <= edits / (3 * (smallest + 1)) + 1,
                 qPrintable(QString("%1 checkpoints for %2 steps").arg(replay.checkpointCount()).arg(n)));
        QVERIFY(replay.checkpointCount() < static_cast<size_t>(n) / 4);
        QCOMPARE(fingerprint(replay.graphAt(n / 2)), fingerprint(TraceReplayer(trace).graphAt(n / 2)));
    }

    // A step whose edit does not apply (set_input on an input the node does not have)
    // after some of its edits did: the error names the step and the edit, the graph
    // is rolled back to the step before, and the replayer keeps working.
    void corruptedStepNamesTheStepAndRollsBack() {
        auto g = chain(12);
        Trace trace = record(*g);
        const int n = static_cast<int>(trace.size());
        QVERIFY(n >= 3);
        const int bad = n / 2;  // 0-based index of the corrupted step
        QVERIFY(!trace.steps()[static_cast<size_t>(bad)].edits.empty());
        const auto inputs = randomInputs(trace.original(), 3);
        const Reference ref = buildReference(trace, inputs);
        GraphEdit broken;
        broken.kind = GraphEdit::Kind::SetInput;
        {
            TraceReplayer before(trace);
            const Graph& at = before.graphAt(bad + 1);  // the node must exist when the edit runs
            broken.nodeId = at.toposort().front()->id();
            broken.after = at.inputs().front()->id();
        }
        broken.index = 99;
        trace.steps()[static_cast<size_t>(bad)].edits.push_back(broken);

        TraceReplayer replay(trace);
        checkStep(replay, ref, inputs, bad, "before the bad step");
        try {
            replay.graphAt(bad + 1);
            QFAIL("expected a TraceReplayError");
        } catch (const TraceReplayError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("step " + std::to_string(bad + 1) + " (trace index " + std::to_string(bad)) != std::string::npos, e.what());
            QVERIFY2(what.find("set_input") != std::string::npos, e.what());
            QVERIFY2(what.find("has no input 99") != std::string::npos, e.what());
            QVERIFY(e.graphIntact);
        }
        QCOMPARE(replay.current(), bad);
        checkStep(replay, ref, inputs, bad, "after the error");  // edits before the bad one were undone
        checkStep(replay, ref, inputs, 0, "back to the start");
        QVERIFY_THROWS_EXCEPTION(TraceReplayError, replay.graphAt(n));
        checkStep(replay, ref, inputs, bad - 1, "after a failed long jump");

        // The loader rejects it too, naming the JSON path and the step (no undefined behaviour).
        try {
            traceFromJsonText(traceToJsonText(trace), "bad.json");
            QFAIL("expected a FormatError");
        } catch (const FormatError& e) {
            QVERIFY2(std::string(e.what()).find("/steps/" + std::to_string(bad)) != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("has no input 99") != std::string::npos, e.what());
        }
    }

    // Erasing a node that is still read, and recreating an id that is in use.
    void corruptedEditsOfEveryKindAreRejected_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        QTest::newRow("erase a used node") << "erase_used" << "is still read by";
        QTest::newRow("create over a used id") << "create_used" << "is already in use";
        QTest::newRow("set_input with a wrong before") << "wrong_before" << "the edit expects";
        QTest::newRow("set_output out of range") << "output_range" << "has no output 7";
        QTest::newRow("replace with a value of another type") << "type_mismatch" << "cannot take the place of";
    }
    void corruptedEditsOfEveryKindAreRejected() {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        auto g = chain(6);
        Trace trace = record(*g);
        const Graph& o = trace.original();
        GraphEdit e;
        const Node* first = o.toposort().front();
        if (kind == "erase_used") {
            e.kind = GraphEdit::Kind::EraseNode;
            e.node.id = first->id();
        } else if (kind == "create_used") {
            e.kind = GraphEdit::Kind::CreateNode;
            e.node = NodeSnapshot{first->id(), first->opPtr(), {first->input(0)->id()}, {first->output(0)->id() + 100000},
                                  {first->output(0)->type()}, {""}};
        } else if (kind == "wrong_before") {
            e.kind = GraphEdit::Kind::SetInput;
            e.nodeId = first->id();
            e.index = 0;
            e.before = first->output(0)->id();
            e.after = first->input(0)->id();
        } else if (kind == "type_mismatch") {
            // A new int64 scalar constant, then a replace of a float64 vector by it.
            GraphEdit c;
            c.kind = GraphEdit::Kind::AddConstant;
            c.constant = ConstantSnapshot{900000, Type::scalar(DType::Int64), NDArray::scalar(DType::Int64, 3)};
            trace.steps()[0].edits.insert(trace.steps()[0].edits.begin(), c);
            e.kind = GraphEdit::Kind::ReplaceVariable;
            e.before = first->output(0)->id();
            e.after = 900000;
        } else {
            e.kind = GraphEdit::Kind::SetOutput;
            e.index = 7;
            e.after = first->input(0)->id();
        }
        const size_t at = kind == "type_mismatch" ? 1 : 0;
        trace.steps()[0].edits.insert(trace.steps()[0].edits.begin() + static_cast<std::ptrdiff_t>(at), e);
        TraceReplayer replay(trace);
        try {
            replay.graphAt(1);
            QFAIL("expected a TraceReplayError");
        } catch (const TraceReplayError& err) {
            QVERIFY2(std::string(err.what()).find("step 1 (trace index 0") != std::string::npos, err.what());
            QVERIFY2(std::string(err.what()).find(message.toStdString()) != std::string::npos, err.what());
        }
        QCOMPARE(fingerprint(replay.graphAt(0)), fingerprint(o));
    }

    // Undoing a step on a graph it was not applied to: its inverse does not apply.
    void inverseThatDoesNotApplyNamesTheStep() {
        auto g = chain(8);
        const Trace trace = record(*g);
        const int s = stepWith(trace, GraphEdit::Kind::CreateNode) >= 0 ? stepWith(trace, GraphEdit::Kind::CreateNode)
                                                                         : stepWith(trace, GraphEdit::Kind::EraseNode);
        QVERIFY(s >= 0);
        auto before = TraceReplayer(trace).graphAt(s).clone();
        auto work = before->clone();
        Rewriter rw(*work);
        StepUndo undo;
        QVERIFY(!undo.ready());
        QVERIFY_THROWS_EXCEPTION(TraceReplayError, undoTraceStep(rw, trace.steps()[static_cast<size_t>(s)], s, undo));
        applyTraceStep(rw, trace.steps()[static_cast<size_t>(s)], s, undo);
        QVERIFY(undo.ready());
        QCOMPARE(fingerprint(*work), fingerprint(TraceReplayer(trace).graphAt(s + 1)));
        // Undo it once (fine), then again on the graph it already gave back.
        undoTraceStep(rw, trace.steps()[static_cast<size_t>(s)], s, undo);
        QCOMPARE(canonical(*work), canonical(*before));
        try {
            undoTraceStep(rw, trace.steps()[static_cast<size_t>(s)], s, undo);
            QFAIL("expected a TraceReplayError");
        } catch (const TraceReplayError& e) {
            QVERIFY2(std::string(e.what()).find("cannot undo step " + std::to_string(s + 1) + " (trace index " +
                                                std::to_string(s)) != std::string::npos,
                     e.what());
            QVERIFY2(std::string(e.what()).find("edit ") != std::string::npos, e.what());
            QVERIFY(!e.graphIntact);
        }
    }
};

TL_TEST_SUITE(TestTraceBackward)
#include "tst_trace_backward.moc"
