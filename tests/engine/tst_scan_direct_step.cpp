// A Scan whose step is one Elemwise over the step's rows runs its steps after the
// first as one elementwise call without the executor (exec/ScanElemwiseStep.h).
// Every case runs the same graph a second time with preallocation off, which takes
// the general path on every step (each new state computed aside and copied in), and
// the two must agree bit for bit; ExecStats::scanDirectSteps says which path ran.
#include "TestSuites.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "exec/Executor.h"
#include "io/JsonValues.h"
#include "ops/Elemwise.h"
#include "ops/ScanOp.h"

#include <QtTest>

#include <cmath>
#include <functional>

using namespace tl;
using namespace tl::test;

namespace {

constexpr int64_t kSteps = 12;

// A step function: scalar placeholders in, scalar results out (one Composite), or,
// with `fuse` false, the same expressions as separate Elemwise nodes over the rows.
using ScalarStep = std::function<std::vector<Var>(GraphBuilder&, const std::vector<Var>&)>;

struct Loop {
    ScanInfo info;
    std::vector<Type> innerInputs;  // row types, in inner-input order
    ScalarStep step;
    bool fuse = true;
    InplacePattern inplace;
    std::vector<bool> proven;
};

std::shared_ptr<const Graph> innerGraph(const Loop& l) {
    GraphBuilder ib;
    std::vector<Var> rows;
    for (const Type& t : l.innerInputs) rows.push_back(ib.placeholder(t));
    if (!l.fuse) return ib.finish(l.step(ib, rows));
    GraphBuilder sb;
    std::vector<Var> scalars;
    for (const Type& t : l.innerInputs) scalars.push_back(sb.placeholder(Type::scalar(t.dtype)));
    OpPtr composite = makeCompositeElemwise(*sb.finish(l.step(sb, scalars)), l.inplace);
    return ib.finish(ib.apply(composite, rows));
}

// A buffer of `rows` rows whose first row is `init`.
Var buffer(GraphBuilder& b, const Var& init, int64_t rows) {
    std::vector<IntArg> dims{IntArg(rows)};
    for (int64_t d : init.type().shape) dims.push_back(IntArg(d));
    return setSubtensor(allocEmpty(b, init.type().dtype, dims), expandDims(init, 0),
                        {Idx(Slice{std::nullopt, IntArg(int64_t(1)), std::nullopt})}, true);
}

struct Result {
    std::vector<NDArray> outputs;
    ExecStats stats;
};

Result run(const Graph& g, const std::vector<NDArray>& inputs, bool prealloc) {
    ExecContext ctx;
    ctx.options().scanPreallocate = prealloc;
    Result r;
    r.outputs = runGraph(g, inputs, ctx).outputs;
    r.stats = ctx.stats();
    return r;
}

// Runs `g` both ways into `fast` (preallocation on) and `general` (off). `direct`:
// whether the fast run's steps after the first must skip the executor.
void checkBothWays(const Graph& g, const std::vector<NDArray>& inputs, bool direct, Result& fast) {
    fast = run(g, inputs, true);
    const Result general = run(g, inputs, false);
    QCOMPARE(general.stats.scanDirectSteps, uint64_t(0));
    QCOMPARE(fast.stats.scanDirectSteps, direct ? uint64_t(kSteps - 1) : uint64_t(0));
    QCOMPARE(fast.stats.scanSteps, uint64_t(kSteps));
    QCOMPARE(fast.outputs.size(), general.outputs.size());
    for (size_t k = 0; k < fast.outputs.size(); ++k) TL_COMPARE_ARRAYS(fast.outputs[k], general.outputs[k], 0.0, 0.0);
}

void checkBothWays(const Graph& g, const std::vector<NDArray>& inputs, bool direct) {
    Result fast;
    checkBothWays(g, inputs, direct, fast);
}

NDArray vec(std::vector<double> v) { return NDArray::fromVector(DType::Float64, {static_cast<int64_t>(v.size())}, v); }

// The seed's fused step: x' = exp(x) - 5, dx' = exp(x) * dx, two sit_sot states of
// `rows`-row buffers (1: the new state over its tap, flagged proven). Returns the
// last rows of both.
std::unique_ptr<Graph> seedLoop(int64_t rows, bool proven, bool fuse = true) {
    const Type row = Type::tensor(DType::Float64, {7});
    Loop l;
    l.info.nSitSot = 2;
    l.innerInputs = {row, row};
    l.fuse = fuse;
    l.step = [](GraphBuilder&, const std::vector<Var>& a) {
        Var e = exp(a[0]);
        return std::vector<Var>{e - 5.0, e * a[1]};
    };
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {7}), t = b.input("dx", DType::Float64, {7});
    auto op = makeScan(l.info, innerGraph(l), "scan_fn", {0, 1}, {proven, proven});
    std::vector<Var> outs = b.apply(op, {intConstant(b, kSteps), buffer(b, x, rows), buffer(b, t, rows)});
    return b.finish({index(outs[0], -1), index(outs[1], -1)});
}

std::vector<NDArray> seedInputs() {
    std::vector<double> x(7);
    for (int i = 0; i < 7; ++i) x[i] = (-1.0 + 2.0 * i / 6.0) * 0.1;
    return {vec(x), vec(std::vector<double>(7, 1.0))};
}

} // namespace

class TestScanDirectStep : public QObject {
    Q_OBJECT

private slots:
    // One row per state, each new state written over the tap it was computed from;
    // the values are the recurrence's.
    void seedOneRow() {
        auto g = seedLoop(1, true);
        Result r;
        checkBothWays(*g, seedInputs(), true, r);
        if (QTest::currentTestFailed()) return;
        std::vector<double> x = seedInputs()[0].toDoubles(), dx(7, 1.0);
        for (int64_t s = 0; s < kSteps; ++s)
            for (int j = 0; j < 7; ++j) {
                const double e = std::exp(x[j]);
                dx[j] *= e;
                x[j] = e - 5.0;
            }
        TL_COMPARE_ARRAYS(r.outputs[0], vec(x), 1e-14, 0.0);
        TL_COMPARE_ARRAYS(r.outputs[1], vec(dx), 1e-14, 0.0);
        QCOMPARE(r.stats.scanRowsInPlace, uint64_t(2 * kSteps));
    }

    // Two rows (PyTensor's sizing): the new row never is the tap's.
    void seedTwoRows() {
        auto g = seedLoop(2, false);
        checkBothWays(*g, seedInputs(), true);
    }

    // Whole traces, a sequence, a non-sequence, a constant and a nit_sot whose buffer
    // the first step allocates: every row of every trace agrees.
    void tracesSequenceNonSequenceNitSot() {
        const Type row = Type::tensor(DType::Float64, {5});
        Loop l;
        l.info.nSeqs = 1;
        l.info.nSitSot = 1;
        l.info.nNitSot = 1;
        l.info.nNonSeqs = 1;
        l.innerInputs = {row, row, row};  // sequence row, state tap, non-sequence
        l.step = [](GraphBuilder&, const std::vector<Var>& a) {
            Var next = a[1] * a[2] + sin(a[0]) * 0.25;
            return std::vector<Var>{next, next * a[1] - a[0]};
        };
        GraphBuilder b;
        Var seq = b.input("u", DType::Float64, {kSteps, 5});
        Var x0 = b.input("x0", DType::Float64, {5});
        Var w = b.input("w", DType::Float64, {5});
        auto op = makeScan(l.info, innerGraph(l));
        std::vector<Var> outs = b.apply(op, {intConstant(b, kSteps), seq, buffer(b, x0, kSteps + 1), intConstant(b, kSteps), w});
        auto g = b.finish({outs[0], outs[1]});
        checkBothWays(*g, randomInputs(*g, 3), true);
    }

    // 0-d states (a scalar recurrence), which the general path never preallocates.
    void scalarStates() {
        const Type row = Type::tensor(DType::Float64, {});
        Loop l;
        l.info.nSitSot = 1;
        l.innerInputs = {row};
        l.step = [](GraphBuilder&, const std::vector<Var>& a) { return std::vector<Var>{a[0] * 0.5 + 1.0}; };
        GraphBuilder b;
        Var x0 = b.input("x0", DType::Float64, {});
        auto op = makeScan(l.info, innerGraph(l));
        std::vector<Var> outs = b.apply(op, {intConstant(b, kSteps), buffer(b, x0, kSteps + 1)});
        auto g = b.finish({outs[0]});
        Result r;
        checkBothWays(*g, {NDArray::scalar(DType::Float64, 3.0)}, true, r);
        if (QTest::currentTestFailed()) return;
        double x = 3.0;
        for (int64_t s = 1; s <= kSteps; ++s) {
            x = x * 0.5 + 1.0;
            QCOMPARE(r.outputs[0].flatGet(s), x);
        }
    }

    // Output 0 is written over the row output 1 still reads: stored after the read.
    void outputOverTheRowAnotherOutputReads() {
        const Type row = Type::tensor(DType::Float64, {4});
        Loop l;
        l.info.nSitSot = 2;
        l.innerInputs = {row, row};
        l.step = [](GraphBuilder&, const std::vector<Var>& a) {
            return std::vector<Var>{a[0] + 1.0, a[0] * 2.0 + a[1]};
        };
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {4}), y = b.input("y", DType::Float64, {4});
        auto op = makeScan(l.info, innerGraph(l), "scan_fn", {0, 1}, {true, true});
        std::vector<Var> outs = b.apply(op, {intConstant(b, kSteps), buffer(b, x, 1), buffer(b, y, 1)});
        auto g = b.finish({index(outs[0], -1), index(outs[1], -1)});
        Result r;
        checkBothWays(*g, {vec({1, 2, 3, 4}), vec({0, 0, 0, 0})}, true, r);
        if (QTest::currentTestFailed()) return;
        // y_k = sum over earlier steps of 2 x_j: x runs x0, x0+1, ...
        for (int j = 0; j < 4; ++j) {
            const double x0 = j + 1.0;
            QCOMPARE(r.outputs[0].flatGet(j), x0 + kSteps);
            QCOMPARE(r.outputs[1].flatGet(j), 2.0 * (kSteps * x0 + kSteps * (kSteps - 1) / 2.0));
        }
    }

    // ---- steps that keep the general path ----

    // Two nodes in the step.
    void unfusedStepKeepsTheExecutor() {
        auto g = seedLoop(2, false, false);
        checkBothWays(*g, seedInputs(), false);
    }

    // One row per state without the proof: the new state may not go over its tap.
    void unprovenOneRowKeepsTheExecutor() {
        auto g = seedLoop(1, false);
        Result r;
        checkBothWays(*g, seedInputs(), false, r);
        QCOMPARE(r.stats.scanRowsInPlace, uint64_t(0));
    }

    // An input of another shape (a broadcast constant row) needs Elemwise's broadcasting.
    void broadcastInputKeepsTheExecutor() {
        GraphBuilder ib;
        Var tap = ib.placeholder(Type::tensor(DType::Float64, {6}));
        Var c = ib.constant(NDArray::fromVector(DType::Float64, {1}, {0.5}));
        GraphBuilder sb;
        Var s0 = sb.placeholder(Type::scalar(DType::Float64)), s1 = sb.placeholder(Type::scalar(DType::Float64));
        OpPtr composite = makeCompositeElemwise(*sb.finish({s0 * s1 + 1.0}));
        std::shared_ptr<const Graph> inner = ib.finish(ib.apply(composite, {tap, c}));
        ScanInfo info;
        info.nSitSot = 1;
        GraphBuilder b;
        Var x0 = b.input("x0", DType::Float64, {6});
        std::vector<Var> outs = b.apply(makeScan(info, inner), {intConstant(b, kSteps), buffer(b, x0, kSteps + 1)});
        auto g = b.finish({outs[0]});
        checkBothWays(*g, randomInputs(*g, 1), false);
    }

    // An Elemwise that overwrites its input: the executor plans the copy it needs.
    void inplaceStepKeepsTheExecutor() {
        const Type row = Type::tensor(DType::Float64, {3});
        Loop l;
        l.info.nSitSot = 1;
        l.innerInputs = {row};
        l.inplace = {{0, 0}};
        l.step = [](GraphBuilder&, const std::vector<Var>& a) { return std::vector<Var>{exp(a[0]) * 0.5}; };
        GraphBuilder b;
        Var x0 = b.input("x0", DType::Float64, {3});
        std::vector<Var> outs = b.apply(makeScan(l.info, innerGraph(l)), {intConstant(b, kSteps), buffer(b, x0, kSteps + 1)});
        auto g = b.finish({outs[0]});
        checkBothWays(*g, {vec({0.1, 0.2, 0.3})}, false);
    }
};

TL_TEST_SUITE(TestScanDirectStep)
#include "tst_scan_direct_step.moc"
