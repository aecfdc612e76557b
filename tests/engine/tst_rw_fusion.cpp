// elemwise_fusion: connected Elemwise nodes become one multi-output Composite.
// Firing and non-firing cases side by side, every one run before and after.
#include "TestSuites.h"
#include "FusionTestUtil.h"
#include "BuildCases.h"
#include "RewriteCheck.h"
#include "builder/Indexing.h"
#include "io/DPrint.h"
#include "analysis/FusionGroups.h"
#include "rewrite/Rewrites.h"

#include <QElapsedTimer>
#include <QtTest>

#include <random>

using namespace tl;
using namespace tl::test;

namespace {

Pipeline fusionOnly() {
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(makeElemwiseFusion());
    return singlePhase("fusion", std::move(passes));
}

Var vec(GraphBuilder& b, const char* name, int64_t n = 7) { return b.input(name, DType::Float64, {n}); }

} // namespace

class TestFusion : public QObject {
    Q_OBJECT

private slots:
    void cases_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<int>("elemwiseAfter");
        QTest::addColumn<int>("compositesAfter");
        QTest::addColumn<int>("expAfter");  // -1: not checked
        QTest::addColumn<int>("steps");

        // ---- must fuse
        QTest::newRow("seed step: exp(x)-5 and exp(x)*dx share exp") << BuildFn([](GraphBuilder& b) {
            Var x = vec(b, "x"), dx = vec(b, "dx");
            Var e = exp(x);
            return std::vector<Var>{e - 5, e * dx};
        }) << 1 << 1 << 1 << 1;
        QTest::newRow("chain of three") << BuildFn([](GraphBuilder& b) {
            Var x = vec(b, "x");
            return std::vector<Var>{sin(exp(x)) + x};
        }) << 1 << 1 << 1 << 1;
        QTest::newRow("intermediate read outside becomes an output") << BuildFn([](GraphBuilder& b) {
            Var x = vec(b, "x");
            Var y = exp(x);
            return std::vector<Var>{y * 2.5, sum(y)};
        }) << 1 << 1 << 1 << 1;
        QTest::newRow("existing Composite joins its neighbours") << BuildFn([](GraphBuilder& b) {
            Var x = vec(b, "x"), y = vec(b, "y");
            Var c = b.apply1(compositeOp(2, [](const std::vector<Var>& i) { return std::vector<Var>{exp(i[0]) * i[1]}; }),
                             {x, y});
            return std::vector<Var>{log1p(abs(c))};
        }) << 1 << 1 << 1 << 1;
        QTest::newRow("sibling Composites on one input: exp computed once") << BuildFn([](GraphBuilder& b) {
            Var x = vec(b, "x"), dx = vec(b, "dx");
            Var a = b.apply1(compositeOp(1, [](const std::vector<Var>& i) { return std::vector<Var>{exp(i[0]) - 5}; }), {x});
            Var c = b.apply1(compositeOp(2, [](const std::vector<Var>& i) { return std::vector<Var>{exp(i[0]) * i[1]}; }),
                             {x, dx});
            return std::vector<Var>{a, c};
        }) << 1 << 1 << 1 << 1;
        QTest::newRow("matrix with a broadcast row input") << BuildFn([](GraphBuilder& b) {
            Var m = b.input("m", DType::Float64, {3, 4}), r = b.input("r", DType::Float64, {1, 4});
            return std::vector<Var>{tanh(m * r) + m};
        }) << 1 << 1 << 0 << 1;
        QTest::newRow("cycle avoided, the rest fused") << BuildFn([](GraphBuilder& b) {
            // y feeds sum, whose value feeds z: y and z cannot share a Composite; z and w can.
            Var x = vec(b, "x");
            Var y = exp(x);
            Var z = y * sum(y);
            return std::vector<Var>{sin(z) + 1};
        }) << 2 << 1 << 1 << 1;
        QTest::newRow("int and float ops in one group") << BuildFn([](GraphBuilder& b) {
            Var i = b.input("i", DType::Int64, {5});
            Var f = b.input("f", DType::Float64, {5});
            return std::vector<Var>{cast(i * 3, DType::Float64) / (f * f + 1)};
        }) << 1 << 1 << 0 << 1;

        // ---- must not fuse
        QTest::newRow("a single Elemwise stays") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{exp(vec(b, "x"))};
        }) << 1 << 0 << 1 << 0;
        QTest::newRow("not across a non-elemwise node") << BuildFn([](GraphBuilder& b) {
            Var x = vec(b, "x");
            return std::vector<Var>{log(slice(exp(x), 1, std::nullopt))};
        }) << 2 << 0 << 1 << 0;
        QTest::newRow("not into a cycle through sum") << BuildFn([](GraphBuilder& b) {
            Var x = vec(b, "x");
            Var y = exp(x);
            return std::vector<Var>{y * sum(y)};
        }) << 2 << 0 << 1 << 0;
        QTest::newRow("no cycle through two groups") << BuildFn([](GraphBuilder& b) {
            // exp(x) feeds a sum read by cos(y) + ..., sin(y) feeds a sum read by exp(x) * ...:
            // {exp, mul} and {sin, cos, add} would each feed the other. The add stays out.
            Var x = vec(b, "x"), y = vec(b, "y");
            Var a = exp(x), c = sin(y);
            Var d = a * sum(c);
            Var e = cos(y) + sum(a);
            return std::vector<Var>{d, e};
        }) << 3 << 2 << 1 << 2;
        QTest::newRow("different broadcast patterns") << BuildFn([](GraphBuilder& b) {
            Var x = vec(b, "x", 1), y = vec(b, "y");
            return std::vector<Var>{exp(x) + y};
        }) << 2 << 0 << 1 << 0;
        QTest::newRow("a shared constant does not link") << BuildFn([](GraphBuilder& b) {
            Var x = vec(b, "x"), y = vec(b, "y");
            Var c = b.constant(NDArray::fromVector(DType::Float64, {7}, {1, 2, 3, 4, 5, 6, 7}));
            return std::vector<Var>{x + c, y * c};
        }) << 2 << 0 << 0 << 0;
        QTest::newRow("inplace Elemwise is left alone") << BuildFn([](GraphBuilder& b) {
            Var x = vec(b, "x");
            Var e = exp(x);
            Var l = b.apply1(makeElemwise(ScalarOpCode::Sin, DType::Float64, {{0, 0}}), {e});
            return std::vector<Var>{l};
        }) << 2 << 0 << 1 << 0;
    }

    void cases() {
        QFETCH(BuildFn, graph);
        QFETCH(int, elemwiseAfter);
        QFETCH(int, compositesAfter);
        QFETCH(int, expAfter);
        QFETCH(int, steps);
        auto g = buildGraph(graph);
        RewriteOutcome r = rewriteAndCompare(*g, fusionOnly());
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(countElemwise(*r.after), elemwiseAfter);
        QCOMPARE(countComposites(*r.after), compositesAfter);
        if (expAfter >= 0) QCOMPARE(scalarOpCount(*r.after, ScalarOpCode::Exp), expAfter);
        QCOMPARE(r.stepsOf("elemwise_fusion"), steps);
        for (const TraceStep& s : r.trace.steps()) {
            // Every fusion names its members and its source.
            QCOMPARE(s.attributes.size(), size_t(1));
            QCOMPARE(s.attributes[0].key, std::string("fused"));
            QVERIFY(!s.attributes[0].after.empty());
            QCOMPARE(s.clonedFrom.size(), size_t(1));
        }
    }

    void seedCompositeHasTwoOutputsAndInlinedConstant() {
        GraphBuilder b;
        Var x = vec(b, "x"), dx = vec(b, "dx");
        Var e = exp(x);
        auto g = b.finish({e - 5, e * dx});
        RewriteOutcome r = rewriteAndCompare(*g, fusionOnly());
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        const Node* fused = r.after->output(0)->owner();
        QVERIFY(fused && fused == r.after->output(1)->owner());
        const Elemwise* e0 = asElemwise(fused);
        QVERIFY(e0 && e0->isComposite());
        QCOMPARE(e0->composite()->numOutputs(), 2);
        QCOMPARE(e0->composite()->numInputs(), 2);  // x, dx: the 5 is inlined
        QCOMPARE(fused->op().name(), std::string("Composite{...}"));
        // The ExpandDims of 5 is gone with its Sub.
        QCOMPARE(countOps(*r.after, OpKind::DimShuffle), 0);
    }

    void duplicateOutputsShareOneOutput() {
        // Two members computing the same value (not merged before fusion) become one
        // computation and one output.
        GraphBuilder b;
        Var x = vec(b, "x");
        Var a = exp(x) + 1.5, c = exp(x) + 1.5;
        auto g = b.finish({sin(a), cos(c), a, c});
        RewriteOutcome r = rewriteAndCompare(*g, fusionOnly());
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(countElemwise(*r.after), 1);
        QCOMPARE(scalarOpCount(*r.after, ScalarOpCode::Exp), 1);
        QCOMPARE(r.after->output(2), r.after->output(3));
    }

    void chainOf5000FusesIntoOneComposite() {
        GraphBuilder b;
        Var x = vec(b, "x");
        Var y = x;
        for (int i = 0; i < 2500; ++i) y = (i % 2 ? sin(y) : cos(y)) * 0.75;
        auto g = b.finish({y});
        QCOMPARE(countElemwise(*g), 5000);
        QElapsedTimer t;
        t.start();
        {
            auto copy = g->clone();
            PipelineOptions opts;
            fusionOnly().run(*copy, opts);
        }
        qInfo("5000-op chain: fusion pass (with validation) in %lld ms", static_cast<long long>(t.elapsed()));
        RewriteOutcome r = rewriteAndCompare(*g, fusionOnly());
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(countElemwise(*r.after), 1);
        QCOMPARE(r.after->numNodes(), size_t(1));  // the ExpandDims of 0.75 were inlined
        const Elemwise* e = asElemwise(r.after->output(0)->owner());
        QCOMPARE(e->composite()->numInputs(), 1);
        QCOMPARE(static_cast<int>(e->composite()->numNodes()), 5000);
        // Prints without recursion trouble.
        const std::string text = dprint(*r.after);
        QVERIFY(text.find("Composite{...}") != std::string::npos);
        QVERIFY(text.size() > 5000);
    }

    void stagesSeparatedByReductionsStayLinear() {
        // 1,500 stages of sin -> sum -> add: each stage's add joins the next sin, never
        // its own sin (that would be a cycle through sum). Open groups stay few.
        GraphBuilder b;
        Var v = vec(b, "x");
        for (int i = 0; i < 1500; ++i) {
            Var a = sin(v);
            v = a + sum(a) * 0.01;
        }
        auto g = b.finish({v});
        QElapsedTimer t;
        t.start();
        const std::vector<FusionGroup> groups = findFusionGroups(*g);
        const qint64 ms = t.elapsed();
        qInfo("1500 stages: %zu groups in %lld ms", groups.size(), static_cast<long long>(ms));
        QCOMPARE(groups.size(), size_t(1499));
        RewriteOutcome r = rewriteAndCompare(*g, fusionOnly());
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(countOps(*r.after, OpKind::Reduce), 1500);
    }

    void randomGraphsStayAcyclicAndEqual() {
        // Random mixes of elementwise ops, reductions broadcast back and shared inputs,
        // through fusion, inplace and output protection: every pass is validated
        // (acyclic, destroy handler) and the numbers compared.
        std::mt19937 rng(7);
        auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
        for (int trial = 0; trial < 60; ++trial) {
            GraphBuilder b;
            std::vector<Var> pool{vec(b, "x", 6), vec(b, "y", 6)};
            const int n = 20 + pick(40);
            for (int k = 0; k < n; ++k) {
                Var a = pool[pool.size() - 1 - pick(std::min<int>(static_cast<int>(pool.size()), 6))];
                Var c = pool[pick(static_cast<int>(pool.size()))];
                switch (pick(6)) {
                case 0: pool.push_back(sin(a)); break;
                case 1: pool.push_back(tanh(a) * c); break;
                case 2: pool.push_back(a + c); break;
                case 3: pool.push_back(a - sum(c) * 0.05); break;
                case 4: pool.push_back(sigmoid(a - c)); break;
                default: pool.push_back(cos(c) + a * 0.5); break;
                }
            }
            std::vector<Var> outs{pool.back()};
            for (int k = pick(3); k > 0; --k) outs.push_back(pool[2 + pick(static_cast<int>(pool.size()) - 2)]);
            auto g = b.finish(outs);
            std::vector<std::unique_ptr<GraphPass>> fusion, inplace, protection;
            fusion.push_back(makeElemwiseFusion());
            inplace.push_back(makeInplaceElemwise());
            protection.push_back(makeOutputProtection());
            Pipeline p;
            p.addPhase("fusion", std::move(fusion));
            p.addPhase("inplace", std::move(inplace));
            p.addPhase("output_protection", std::move(protection));
            RewriteOutcome r = rewriteAndCompare(*g, p, {}, static_cast<uint64_t>(trial) + 1);
            QVERIFY2(r.mismatch.empty(), ("trial " + std::to_string(trial) + ": " + r.mismatch).c_str());
            // Fusion is maximal: fusing the fused graph again finds nothing.
            auto fused = g->clone();
            PipelineOptions opts;
            fusionOnly().run(*fused, opts);
            QVERIFY2(findFusionGroups(*fused).empty(), ("trial " + std::to_string(trial)).c_str());
        }
    }

    void wideFanOutFusesSiblings() {
        // 2,000 readers of x, summed in a chain: one Composite, x read once.
        GraphBuilder b;
        Var x = vec(b, "x");
        Var acc = sin(x);
        for (int i = 1; i < 2000; ++i) acc = acc + (i % 2 ? cos(x) : sin(x)) * 0.001;
        auto g = b.finish({acc});
        RewriteOutcome r = rewriteAndCompare(*g, fusionOnly(), {}, 1, 1e-10);
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(countElemwise(*r.after), 1);
        QCOMPARE(asElemwise(r.after->output(0)->owner())->composite()->numInputs(), 1);
    }
};

TL_TEST_SUITE(TestFusion)
#include "tst_rw_fusion.moc"
