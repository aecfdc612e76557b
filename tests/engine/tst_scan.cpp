// Scan: every category through the builder, and the execution details of
// Scan.perform on hand-made buffers (circular buffers, rotation, while loops,
// inplace, preallocation, n_steps edge cases, errors).
#include "TestSuites.h"
#include "ir/GraphAssembler.h"
#include "ops/OpFactory.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Scan.h"
#include "exec/Executor.h"
#include "ops/ScanOp.h"

#include "TestSupport.h"

#include <nlohmann/json.hpp>

#include <QtTest>

using namespace tl;

namespace {

NDArray f64(Shape shape, std::vector<double> v) { return NDArray::fromVector(DType::Float64, shape, v); }
NDArray i64(int64_t v) { return NDArray::scalar(DType::Int64, static_cast<double>(v)); }

std::vector<NDArray> run(const Graph& g, std::vector<NDArray> ins, ExecContext* ctx = nullptr) {
    ExecContext local;
    return runGraph(g, ins, ctx ? *ctx : local).outputs;
}

// A loop over one sit_sot state x' = f(x) with rows of `row`, built by hand (no builder layout).
std::shared_ptr<const ScanOp> sitSotOp(const Type& row, const std::function<Var(Var)>& f) {
    GraphBuilder ib;
    Var x = ib.placeholder(row);
    ScanInfo info;
    info.nSitSot = 1;
    return makeScan(info, ib.finish({f(x)}));
}

// The graph op(n_steps, buffer) with the buffer a graph input.
std::unique_ptr<Graph> loopGraph(OpPtr op, const Type& bufferType) {
    GraphAssembler gA;
    Variable* n = gA.addInput(Type::tensor(DType::Int64, {}), "n_steps");
    Variable* buf = gA.addInput(bufferType, "buffer");
    gA.setOutputs(gA.addNode(std::move(op), {n, buf})->outputs().toVector());
    auto g = gA.finish();
    return g;
}

double half(double x) { return x * 0.5 + 1; }

// x_k: the value after k steps of x' = x/2 + 1 from x0.
std::vector<double> halfTrace(double x0, int k) {
    std::vector<double> out{x0};
    for (int i = 0; i < k; ++i) out.push_back(half(out.back()));
    return out;
}

} // namespace

class TestScan : public QObject {
    Q_OBJECT
private slots:
    void sitSotTrace() {
        GraphBuilder b;
        Var x0 = b.input("x0", DType::Float64, {3});
        auto r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[0] * 0.5 + 1}}; },
                      ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nSteps = 10});
        QCOMPARE(r.outputs[0].type().toString(), std::string("Matrix(float64, shape=(?, 3))"));
        auto g = b.finish({r.outputs[0]});
        auto out = run(*g, {f64({3}, {0, 1, -4})});
        std::vector<double> want;
        auto t0 = halfTrace(0, 10), t1 = halfTrace(1, 10), t2 = halfTrace(-4, 10);
        for (int k = 1; k <= 10; ++k) want.insert(want.end(), {t0[k], t1[k], t2[k]});
        TL_COMPARE_ARRAYS(out[0], f64({10, 3}, want), 0, 0);
    }

    void mitSotTaps_data() {
        QTest::addColumn<std::vector<int>>("taps");
        QTest::newRow("[-2, -1]") << std::vector<int>{-2, -1};
        QTest::newRow("[-3, -1]") << std::vector<int>{-3, -1};
        QTest::newRow("[-1, -3] (user order)") << std::vector<int>{-1, -3};
    }
    // x_t = x_{t-1} + 10 * x_{t-L} for the taps {-1, -L}; the step gets its taps in the given order.
    void mitSotTaps() {
        QFETCH(std::vector<int>, taps);
        const int lag = -*std::min_element(taps.begin(), taps.end());
        GraphBuilder b;
        Var x0 = b.input("x0", DType::Float64, {lag});
        auto step = [&](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
            Var prev = taps[0] == -1 ? a[0] : a[1];
            Var old = taps[0] == -1 ? a[1] : a[0];
            return {{prev + old * 10}};
        };
        auto r = scan(b, step, ScanArgs{.outputsInfo = {OutputInfo(x0, taps)}, .nSteps = 8});
        auto g = b.finish({r.outputs[0]});
        std::vector<double> init;
        for (int i = 0; i < lag; ++i) init.push_back(i + 1);
        auto out = run(*g, {f64({lag}, init)});
        std::vector<double> all = init, want;
        for (int k = 0; k < 8; ++k) {
            all.push_back(all[all.size() - 1] + 10 * all[all.size() - lag]);
            want.push_back(all.back());
        }
        TL_COMPARE_ARRAYS(out[0], f64({8}, want), 0, 0);
        const auto& op = static_cast<const ScanOp&>(r.rawOutputs[0]->owner()->op());
        // PyTensor's ScanInfo keeps the taps in the order scan() was given them.
        QCOMPARE(op.info().mitSotTaps, (std::vector<std::vector<int>>{taps}));
    }

    // h' = h * w + x_t + c with w an explicit non_sequence and c captured from the enclosing graph.
    void sequencesAndNonSequences() {
        GraphBuilder b;
        Var xs = b.input("xs", DType::Float64, {5, 2});
        Var h0 = b.input("h0", DType::Float64, {2});
        Var w = b.input("w", DType::Float64, {2});
        Var c = b.input("c", DType::Float64, {2});
        auto r = scan(b, [&](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[1] * a[2] + a[0] + c}}; },
                      ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo(h0)}, .nonSequences = {w}});
        const auto& op = static_cast<const ScanOp&>(r.rawOutputs[0]->owner()->op());
        QCOMPARE(op.info().nSeqs, 1);
        QCOMPARE(op.info().nNonSeqs, 2);
        auto g = b.finish({r.outputs[0]});
        std::vector<double> xv{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        auto out = run(*g, {f64({5, 2}, xv), f64({2}, {0.5, -1}), f64({2}, {0.9, 1.1}), f64({2}, {0.25, -0.75})});
        double h[2] = {0.5, -1}, wv[2] = {0.9, 1.1}, cv[2] = {0.25, -0.75};
        std::vector<double> want;
        for (int t = 0; t < 5; ++t)
            for (int j = 0; j < 2; ++j) {
                h[j] = h[j] * wv[j] + xv[2 * t + j] + cv[j];
                want.push_back(h[j]);
            }
        TL_COMPARE_ARRAYS(out[0], f64({5, 2}, want), 0, 0);
    }

    // A map (nit_sot) next to a sit_sot: y_t = 2 * x_t, s' = s + x_t.
    void nitSotNextToSitSot() {
        GraphBuilder b;
        Var xs = b.input("xs", DType::Float64, {4});
        Var s0 = b.input("s0", DType::Float64, {});
        auto r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[0] * 2, a[1] + a[0]}}; },
                      ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo::none(), OutputInfo(s0)}});
        auto g = b.finish(r.outputs);
        auto out = run(*g, {f64({4}, {1, 2, 3, 4}), f64({}, {10})});
        TL_COMPARE_ARRAYS(out[0], f64({4}, {2, 4, 6, 8}), 0, 0);
        TL_COMPARE_ARRAYS(out[1], f64({4}, {11, 13, 16, 20}), 0, 0);
    }

    // An untraced state u' = u + 1 read by a sit_sot x' = x + u; scan returns u's last value.
    void untracedState() {
        GraphBuilder b;
        Var x0 = b.input("x0", DType::Float64, {2});
        Var u0 = b.input("u0", DType::Float64, {2});
        auto r = scan(b,
                      [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                          return {.outputs = {a[0] + a[1]}, .updates = {a[1] + 1}};
                      },
                      ScanArgs{.outputsInfo = {OutputInfo(x0)}, .untraced = {UntracedState{u0}}, .nSteps = 5});
        QCOMPARE(r.updates.size(), size_t(1));
        auto g = b.finish({r.outputs[0], r.updates[0]});
        auto out = run(*g, {f64({2}, {0, 100}), f64({2}, {1, -1})});
        std::vector<double> want;
        double x[2] = {0, 100}, u[2] = {1, -1};
        for (int t = 0; t < 5; ++t)
            for (int j = 0; j < 2; ++j) {
                x[j] += u[j];
                u[j] += 1;
                want.push_back(x[j]);
            }
        TL_COMPARE_ARRAYS(out[0], f64({5, 2}, want), 0, 0);
        TL_COMPARE_ARRAYS(out[1], f64({2}, {u[0], u[1]}), 0, 0);
    }

    // x' = 2x until x' > limit: stops after the first value above it; the trace is trimmed.
    void whileLoop_data() {
        QTest::addColumn<double>("limit");
        QTest::addColumn<int>("steps");
        QTest::newRow("stops early") << 100.0 << 7;
        QTest::newRow("runs to the end") << 1e9 << 20;
    }
    void whileLoop() {
        QFETCH(double, limit);
        QFETCH(int, steps);
        GraphBuilder b;
        Var x0 = b.input("x0", DType::Float64, {});
        auto r = scan(b,
                      [&](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                          Var next = a[0] * 2;
                          return {.outputs = {next}, .until = gt(next, limit)};
                      },
                      ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nSteps = 20});
        QVERIFY(static_cast<const ScanOp&>(r.node->op()).info().asWhile);
        QVERIFY(QString::fromStdString(r.node->op().name()).contains("while_loop=True"));
        auto g = b.finish({r.outputs[0]});
        auto out = run(*g, {f64({}, {1})});
        std::vector<double> want;
        for (int k = 1; k <= steps; ++k) want.push_back(std::ldexp(1.0, k));
        TL_COMPARE_ARRAYS(out[0], f64({steps}, want), 0, 0);
    }

    // A sit_sot buffer with fewer rows than the trace wraps around; after the loop the
    // oldest row comes first: rows keep x_{n-store+1..n}.
    void circularSitSot_data() {
        QTest::addColumn<int>("rows");
        QTest::addColumn<bool>("prealloc");
        for (int rows : {1, 2, 3, 4, 11})
            for (bool p : {true, false})
                QTest::newRow(qPrintable(QString("%1 rows%2").arg(rows).arg(p ? "" : ", no prealloc"))) << rows << p;
    }
    void circularSitSot() {
        QFETCH(int, rows);
        QFETCH(bool, prealloc);
        const Type row = Type::tensor(DType::Float64, {2});
        auto g = loopGraph(sitSotOp(row, [](Var x) { return x * 0.5 + 1; }), Type::tensor(DType::Float64, {rows, 2}));
        std::vector<double> buf(rows * 2, -7.0);
        buf[0] = 3;
        buf[1] = -5;
        ExecContext ctx;
        ctx.options().scanPreallocate = prealloc;
        auto out = run(*g, {i64(10), f64({rows, 2}, buf)}, &ctx);
        auto a = halfTrace(3, 10), c = halfTrace(-5, 10);
        std::vector<double> want;
        for (int k = 11 - rows; k <= 10; ++k) want.insert(want.end(), {a[k], c[k]});
        TL_COMPARE_ARRAYS(out[0], f64({rows, 2}, want), 0, 0);
        // Lending a row is only safe with a spare row (store > init_l).
        if (prealloc && rows > 1) QCOMPARE(ctx.stats().scanRowsInPlace, uint64_t(10));
        else QCOMPARE(ctx.stats().scanRowsInPlace, uint64_t(0));
        QCOMPARE(ctx.stats().scanSteps, uint64_t(10));
    }

    // A mit_sot with taps [-3, -1] in 3 (= init_l) to 13 rows.
    void circularMitSot_data() {
        QTest::addColumn<int>("rows");
        for (int rows : {3, 4, 5, 13}) QTest::newRow(qPrintable(QString("%1 rows").arg(rows))) << rows;
    }
    void circularMitSot() {
        QFETCH(int, rows);
        const Type row = Type::tensor(DType::Float64, {1});
        GraphBuilder ib;
        Var oldest = ib.placeholder(row), prev = ib.placeholder(row);
        ScanInfo info;
        info.mitSotTaps = {{-3, -1}};
        auto op = makeScan(info, ib.finish({prev + oldest * 0.5}));
        auto g = loopGraph(op, Type::tensor(DType::Float64, {rows, 1}));
        std::vector<double> buf(rows, 0.0), all{1, 2, 3};
        buf[0] = 1, buf[1] = 2, buf[2] = 3;
        for (int k = 0; k < 10; ++k) all.push_back(all[all.size() - 1] + all[all.size() - 3] * 0.5);
        auto out = run(*g, {i64(10), f64({rows, 1}, buf)});
        std::vector<double> want(all.end() - rows, all.end());
        TL_COMPARE_ARRAYS(out[0], f64({rows, 1}, want), 0, 0);
    }

    // A buffer longer than the trace: rows past the last written one are zeroed (PyTensor).
    void extraRowsAreZeroed() {
        const Type row = Type::tensor(DType::Float64, {1});
        auto g = loopGraph(sitSotOp(row, [](Var x) { return x + 1; }), Type::tensor(DType::Float64, {6, 1}));
        auto out = run(*g, {i64(3), f64({6, 1}, {1, 9, 9, 9, 9, 9})});
        TL_COMPARE_ARRAYS(out[0], f64({6, 1}, {1, 2, 3, 4, 0, 0}), 0, 0);
    }

    void inplaceUsesTheOuterBuffer() {
        const Type row = Type::tensor(DType::Float64, {2});
        auto op = sitSotOp(row, [](Var x) { return x + 1; });
        for (bool inplace : {false, true}) {
            OpPtr use = inplace ? OpPtr(op->withInplace({0})) : OpPtr(op);
            QCOMPARE(QString::fromStdString(use->name()),
                     QString("Scan{scan_fn, while_loop=False, inplace=%1}").arg(inplace ? "all" : "none"));
            QCOMPARE(use->destroyMap().size(), size_t(inplace ? 1 : 0));
            const NDArray buf = f64({3, 2}, {1, 2, 0, 0, 0, 0});
            std::vector<NDArray> ins{i64(2), buf}, outs(1);
            ExecContext ctx;
            MemoryTrackerScope scope(&ctx.tracker());
            performOp(ctx, *use, ins, outs);
            QCOMPARE(outs[0].sharesStorageWith(buf), inplace);
            TL_COMPARE_ARRAYS(outs[0], f64({3, 2}, {1, 2, 2, 3, 3, 4}), 0, 0);
            TL_COMPARE_ARRAYS(buf, inplace ? outs[0] : f64({3, 2}, {1, 2, 0, 0, 0, 0}), 0, 0);
        }
    }

    void partialInplaceName() {
        const Type row = Type::tensor(DType::Float64, {2});
        GraphBuilder ib;
        Var a = ib.placeholder(row), c = ib.placeholder(row);
        ScanInfo info;
        info.nSitSot = 2;
        auto op = makeScan(info, ib.finish({a + 1, c + 2}), "loop", {1});
        QCOMPARE(op->name(), std::string("Scan{loop, while_loop=False, inplace=[1]}"));
        QCOMPARE(op->destroyMap(), (AliasMap{{1, {2}}}));
    }

    // The same loop with a full trace buffer and with a 2-row circular one: the peak
    // bytes of the run follow the buffer.
    void peakBytesFollowTheBuffer() {
        size_t peak[2];
        for (int small = 0; small < 2; ++small) {
            GraphBuilder b;
            Var x0 = b.input("x0", DType::Float64, {1000});
            const int64_t rows = small ? 2 : 101;
            Var buf = setSubtensor(allocEmpty(b, DType::Float64, {rows, 1000}), expandDims(x0, 0),
                                   {Idx(Slice{std::nullopt, IntArg(1), std::nullopt})});
            auto op = sitSotOp(Type::tensor(DType::Float64, {1000}), [](Var x) { return x * 0.5 + 1; })->withInplace({0});
            Var trace = b.apply1(op, {intConstant(b, 100), buf});
            auto g = b.finish({index(trace, -1)});
            ExecContext ctx;
            RunResult r = runGraph(*g, std::vector<NDArray>{NDArray::zeros(DType::Float64, {1000})}, ctx);
            QCOMPARE(r.outputs[0].flatGet(0), halfTrace(0, 100)[100]);
            peak[small] = r.peakBytes;
        }
        QVERIFY2(peak[1] * 10 < peak[0], qPrintable(QString("peaks %1 vs %2").arg(peak[1]).arg(peak[0])));
        QVERIFY(peak[0] >= 101 * 8000);
        QVERIFY(peak[1] <= 4 * 8000);
    }

    // A 1-row buffer (store == init_l) writes the new state over its only tap. Lending that
    // row is allowed only once a rewrite proved it safe; the inner plan then orders every
    // other reader of the tap first. Here state b reads a's tap: still correct.
    void reuseProvenSafeKeepsResultsRight() {
        const Type row = Type::tensor(DType::Float64, {3});
        GraphBuilder ib;
        Var a = ib.placeholder(row), c = ib.placeholder(row);
        ScanInfo info;
        info.nSitSot = 2;
        auto base = makeScan(info, ib.finish({a * 2, c + a}));
        for (bool proven : {false, true}) {
            auto op = proven ? base->withReuseProvenSafe({true, true}) : base;
            GraphAssembler gA;
            Variable* n = gA.addInput(Type::tensor(DType::Int64, {}));
            Variable* ba = gA.addInput(Type::tensor(DType::Float64, {1, 3}));
            Variable* bc = gA.addInput(Type::tensor(DType::Float64, {1, 3}));
            gA.setOutputs(gA.addNode(op, {n, ba, bc})->outputs().toVector());
            auto g = gA.finish();
            ExecContext ctx;
            auto out = run(*g, {i64(5), f64({1, 3}, {1, 2, 3}), f64({1, 3}, {0, 0, 0})}, &ctx);
            // a_k = 2^k a_0, c_5 = sum_{k<5} a_k = 31 a_0
            TL_COMPARE_ARRAYS(out[0], f64({1, 3}, {32, 64, 96}), 0, 0);
            TL_COMPARE_ARRAYS(out[1], f64({1, 3}, {31, 62, 93}), 0, 0);
            if (!proven) QCOMPARE(ctx.stats().scanRowsInPlace, uint64_t(0));
            else QVERIFY(ctx.stats().scanRowsInPlace > 0);
        }
    }

    // mit_mot (as gradient scans make): in taps [0, 1], out tap [1] turns the buffer into its running sum.
    void mitMotRunningSum() {
        const Type row = Type::tensor(DType::Float64, {});
        GraphBuilder ib;
        Var t0 = ib.placeholder(row), t1 = ib.placeholder(row);
        ScanInfo info;
        info.mitMotInTaps = {{0, 1}};
        info.mitMotOutTaps = {{1}};
        auto g = loopGraph(makeScan(info, ib.finish({t0 + t1})), Type::tensor(DType::Float64, {5}));
        auto out = run(*g, {i64(4), f64({5}, {1, 2, 3, 4, 5})});
        TL_COMPARE_ARRAYS(out[0], f64({5}, {1, 3, 6, 10, 15}), 0, 0);
    }

    void zeroAndNegativeSteps() {
        const Type row = Type::tensor(DType::Float64, {2});
        auto g = loopGraph(sitSotOp(row, [](Var x) { return x + 1; }), Type::tensor(DType::Float64, {3, 2}));
        auto out = run(*g, {i64(0), f64({3, 2}, {1, 2, 3, 4, 5, 6})});
        TL_COMPARE_ARRAYS(out[0], f64({3, 2}, {1, 2, 3, 4, 5, 6}), 0, 0);
        try {
            run(*g, {i64(-1), f64({3, 2}, {1, 2, 3, 4, 5, 6})});
            QFAIL("negative n_steps ran");
        } catch (const ExecError& e) {
            QVERIFY2(QString(e.what()).contains("negative number of step -1") && QString(e.what()).startsWith("Scan{"),
                     e.what());
        }
        // A map over zero steps: an empty trace with the step's row shape.
        GraphBuilder b;
        Var xs = b.input("xs", DType::Float64, {kUnknownDim, 3});
        auto r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[0] + 1}}; },
                      ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo::none()}});
        auto mg = b.finish({r.outputs[0]});
        auto empty = run(*mg, {NDArray::zeros(DType::Float64, {0, 3})});
        QCOMPARE(empty[0].shape(), (Shape{0, 3}));
    }

    void runtimeErrorsNameTheirPlace() {
        GraphBuilder b;
        Var xs = b.input("xs", DType::Float64, {kUnknownDim, 3});
        Var n = b.input("n", DType::Int64, {});
        auto r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{index(a[0], 1) * 2}}; },
                      ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo::none()}, .nSteps = IntArg(n)});
        auto g = b.finish({r.outputs[0]});
        try {
            run(*g, {NDArray::zeros(DType::Float64, {2, 3}), i64(5)});
            QFAIL("a short sequence ran");
        } catch (const ExecError& e) {
            QVERIFY2(QString(e.what()).contains("sequence 0 has shape (2, 3)"), e.what());
        }
        // Wrong rows for the step (the outer type leaves them open).
        const Type row = Type::tensor(DType::Float64, {3});
        auto lg = loopGraph(sitSotOp(row, [](Var x) { return x + 1; }), Type::tensor(DType::Float64, {kUnknownDim, kUnknownDim}));
        try {
            run(*lg, {i64(2), NDArray::zeros(DType::Float64, {4, 5})});
            QFAIL("a wrong buffer ran");
        } catch (const ExecError& e) {
            QVERIFY2(QString(e.what()).contains("outer_in_sit_sot-0: expected rows of Vector(float64, shape=(3,))"), e.what());
        }
        // A kernel failing inside the step names the step and the inner node.
        GraphBuilder b2;
        Var m = b2.input("m", DType::Float64, {4, kUnknownDim});
        auto r2 = scan(b2, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{index(a[0], 2)}}; },
                       ScanArgs{.sequences = {m}, .outputsInfo = {OutputInfo::none()}});
        auto g2 = b2.finish({r2.outputs[0]});
        try {
            run(*g2, {NDArray::zeros(DType::Float64, {4, 2})});
            QFAIL("an out-of-range index ran");
        } catch (const ExecError& e) {
            QVERIFY2(QString(e.what()).contains("step 0: Subtensor{i}#"), e.what());
        }
    }

    // A scan inside a scan's step: s_t = sum of k=1..3 of (x_t * k).
    void nestedScan() {
        GraphBuilder b;
        Var xs = b.input("xs", DType::Float64, {4});
        auto r = scan(b,
                      [](GraphBuilder& step, const std::vector<Var>& a) -> StepResult {
                          Var zero = step.constant(0.0);
                          Var x = a[0];
                          auto in = scan(step,
                                         [&](GraphBuilder&, const std::vector<Var>& c) -> StepResult {
                                             return {{c[1] + x * c[0]}};
                                         },
                                         ScanArgs{.sequences = {step.constant(f64({3}, {1, 2, 3}))},
                                                  .outputsInfo = {OutputInfo(zero)},
                                                  .name = "inner"});
                          return {{index(in.outputs[0], -1)}};
                      },
                      ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo::none()}});
        auto g = b.finish({r.outputs[0]});
        auto out = run(*g, {f64({4}, {1, -2, 0.5, 10})});
        TL_COMPARE_ARRAYS(out[0], f64({4}, {6, -12, 3, 60}), 0, 0);
    }

    // The layout PyTensor's scan() builds (compare the seed listing after its rewrites).
    void builderLayout() {
        GraphBuilder b;
        Var x = b.input("x_init", DType::Float64, {7});
        auto r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{exp(a[0]) - 5}}; },
                      ScanArgs{.outputsInfo = {OutputInfo(x)}, .nSteps = 10});
        Node* scanNode = r.node;
        QCOMPARE(scanNode->op().name(), std::string("Scan{scan_fn, while_loop=False, inplace=none}"));
        QCOMPARE(scanNode->input(0)->type().toString(), std::string("Scalar(int8, shape=())"));
        QCOMPARE(scanNode->input(0)->constantValue().itemInt(), int64_t(10));
        Node* set = scanNode->input(1)->owner();
        QCOMPARE(set->op().name(), std::string("SetSubtensor{:stop}"));
        QCOMPARE(set->output(0)->type().toString(), std::string("Matrix(float64, shape=(11, 7))"));
        Node* empty = set->input(0)->owner();
        QCOMPARE(empty->op().name(), std::string("AllocEmpty{dtype='float64'}"));
        QCOMPARE(empty->input(0)->constantValue().itemInt(), int64_t(11));
        QCOMPARE(empty->input(0)->type().toString(), std::string("Scalar(int64, shape=())"));
        QCOMPARE(set->input(1)->owner()->op().name(), std::string("ExpandDims{axis=0}"));
        QCOMPARE(set->input(2)->type().toString(), std::string("int64"));
        QCOMPARE(r.outputs[0]->owner()->op().name(), std::string("Subtensor{start:}"));
        const ScanOp& op = static_cast<const ScanOp&>(scanNode->op());
        QCOMPARE(op.info().nSitSot, 1);
        QCOMPARE(op.inner()->inputs().size(), size_t(1));
        // params round trip through the op factory.
        OpPtr again = makeOp(OpKind::Scan, op.params(), op.inner());
        QVERIFY(again->equals(op));
        QCOMPARE(op.params()["info"]["n_sit_sot"].get<int>(), 1);
    }

    // n_steps given as a variable: buffer sizes become graph arithmetic (n_steps + init_l).
    void symbolicNSteps() {
        GraphBuilder b;
        Var n = b.input("n", DType::Int64, {});
        Var x0 = b.input("x0", DType::Float64, {2});
        Var f0 = b.input("f0", DType::Float64, {kUnknownDim});
        auto r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[0] * 0.5 + 1, a[1] + a[2]}}; },
                      ScanArgs{.outputsInfo = {OutputInfo(x0), OutputInfo(f0, {-2, -1})}, .nSteps = IntArg(n)});
        auto g = b.finish(r.outputs);
        for (int steps : {0, 1, 6}) {
            auto out = run(*g, {i64(steps), f64({2}, {0, 4}), f64({3}, {1, 1, 99})});
            auto a = halfTrace(0, steps), c = halfTrace(4, steps);
            std::vector<double> want, fib{1, 1};
            for (int k = 1; k <= steps; ++k) want.insert(want.end(), {a[k], c[k]});
            TL_COMPARE_ARRAYS(out[0], f64({steps, 2}, want), 0, 0);
            for (int k = 0; k < steps; ++k) fib.push_back(fib[fib.size() - 1] + fib[fib.size() - 2]);
            TL_COMPARE_ARRAYS(out[1], f64({steps}, std::vector<double>(fib.begin() + 2, fib.end())), 0, 0);
        }
    }

    // A step output taken straight from the enclosing graph is captured like any other use.
    void stepReturnsAnOuterVariable() {
        GraphBuilder b;
        Var w = b.input("w", DType::Float64, {2});
        Var x0 = b.input("x0", DType::Float64, {2});
        auto r = scan(b, [&](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{w, a[0] + w}}; },
                      ScanArgs{.outputsInfo = {OutputInfo::none(), OutputInfo(x0)}, .nSteps = 3});
        auto g = b.finish(r.outputs);
        auto out = run(*g, {f64({2}, {1, 2}), f64({2}, {0, 10})});
        TL_COMPARE_ARRAYS(out[0], f64({3, 2}, {1, 2, 1, 2, 1, 2}), 0, 0);
        TL_COMPARE_ARRAYS(out[1], f64({3, 2}, {1, 12, 2, 14, 3, 16}), 0, 0);
    }

    // n_steps = 1: PyTensor applies the step once without a loop.
    void oneStepHasNoLoop() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {2});
        auto r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[0] + 1}}; },
                      ScanArgs{.outputsInfo = {OutputInfo(x)}, .nSteps = 1});
        QVERIFY(r.node == nullptr);
        auto g = b.finish({r.outputs[0]});
        for (Node* n : g->nodes()) QVERIFY(n->op().kind() != OpKind::Scan);
        auto out = run(*g, {f64({2}, {1, 2})});
        TL_COMPARE_ARRAYS(out[0], f64({1, 2}, {2, 3}), 0, 0);
    }

    void builderErrors() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {2});
        auto step = [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[0] + 1}}; };
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, scan(b, step, ScanArgs{.outputsInfo = {OutputInfo(x, {0})}, .nSteps = 3}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, scan(b, step, ScanArgs{.outputsInfo = {OutputInfo(x, {-1, -1})}, .nSteps = 3}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, scan(b, step, ScanArgs{.outputsInfo = {OutputInfo(x)}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, scan(b, step, ScanArgs{.outputsInfo = {OutputInfo(x), OutputInfo(x)}, .nSteps = 3}));
        // A new value of another dtype than the state.
        auto toInt = [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{cast(a[0], DType::Int32)}}; };
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, scan(b, toInt, ScanArgs{.outputsInfo = {OutputInfo(x)}, .nSteps = 3}));
    }
};

TL_TEST_SUITE(TestScan)
#include "tst_scan.moc"
