// inplace_elemwise and inplace_setsubtensor: an output overwrites an input when
// the destroy handler can order every other reader first. Firing and non-firing
// cases side by side, every one run before and after; the expected result is the
// list of destroying nodes with their destroy maps.
#include "TestSuites.h"
#include "FusionTestUtil.h"
#include "BuildCases.h"
#include "RewriteCheck.h"
#include "builder/Indexing.h"
#include "exec/Executor.h"
#include "analysis/DestroyHandler.h"
#include "rewrite/Rewrites.h"

#include <QElapsedTimer>
#include <QtTest>

#include <random>

using namespace tl;
using namespace tl::test;

namespace {

Pipeline inplaceOnly() {
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(makeInplaceSetSubtensor());
    passes.push_back(makeInplaceElemwise());
    return singlePhase("inplace", std::move(passes));
}

Var vec(GraphBuilder& b, const char* name, int64_t n = 5) { return b.input(name, DType::Float64, {n}); }

} // namespace

class TestInplace : public QObject {
    Q_OBJECT

private slots:
    void cases_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<QString>("destroyers");

        // ---- must go inplace
        QTest::newRow("intermediate overwritten") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{sin(exp(vec(b, "x")))};
        }) << "Sin d={0: [0]}";
        QTest::newRow("chain: each value destroyed once") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{cos(sin(exp(vec(b, "x"))))};
        }) << "Cos d={0: [0]}; Sin d={0: [0]}";
        QTest::newRow("other reader ordered first") << BuildFn([](GraphBuilder& b) {
            // sin(a) runs after cos(a) so it may overwrite a; the add overwrites sin's value.
            Var a = exp(vec(b, "x"));
            return std::vector<Var>{sin(a) + cos(a)};
        }) << "Add d={0: [0]}; Sin d={0: [0]}";
        QTest::newRow("second input when the first is protected") << BuildFn([](GraphBuilder& b) {
            Var x = vec(b, "x");
            return std::vector<Var>{x - exp(x)};
        }) << "Sub d={0: [1]}";
        QTest::newRow("multi-output Composite: each output its own input") << BuildFn([](GraphBuilder& b) {
            Var x = vec(b, "x");
            Var u = sin(x), v = cos(x);
            auto outs = b.apply(compositeOp(2, [](const std::vector<Var>& i) {
                                    return std::vector<Var>{exp(i[0]) - 5, exp(i[0]) * i[1]};
                                }),
                                {u, v});
            return outs;
        }) << "Composite{...} d={0: [0], 1: [1]}";
        QTest::newRow("SetSubtensor into Alloc") << BuildFn([](GraphBuilder& b) {
            Var x = vec(b, "x");
            Var buf = alloc(b.constant(0.0), {3, 5});
            return std::vector<Var>{setSubtensor(buf, expandDims(x, 0), {Slice{std::nullopt, 1, std::nullopt}})};
        }) << "SetSubtensor{:stop} d={0: [0]}";
        QTest::newRow("IncSubtensor into an intermediate") << BuildFn([](GraphBuilder& b) {
            Var m = b.input("m", DType::Float64, {3, 5});
            return std::vector<Var>{incSubtensor(index(exp(m), 1), vec(b, "v"))};
        }) << "IncSubtensor{i} d={0: [0]}";

        // ---- must not go inplace
        QTest::newRow("graph input") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{exp(vec(b, "x"))};
        }) << "";
        QTest::newRow("constant") << BuildFn([](GraphBuilder& b) {
            Var c = b.constant(NDArray::fromVector(DType::Float64, {5}, {1, 2, 3, 4, 5}));
            return std::vector<Var>{exp(c) * vec(b, "x")};
        }) << "Mul d={0: [0]}";
        QTest::newRow("value read after the candidate") << BuildFn([](GraphBuilder& b) {
            // sin(a) may not overwrite a: the add reads a after sin ran.
            Var a = exp(vec(b, "x"));
            return std::vector<Var>{sin(a) + a};
        }) << "Add d={0: [0]}";
        QTest::newRow("value is a graph output") << BuildFn([](GraphBuilder& b) {
            Var a = exp(vec(b, "x"));
            return std::vector<Var>{a, sin(a)};
        }) << "";
        QTest::newRow("view of a graph input") << BuildFn([](GraphBuilder& b) {
            Var m = b.input("m", DType::Float64, {3, 5});
            return std::vector<Var>{exp(transpose(m))};
        }) << "";
        QTest::newRow("broadcast input is not overwritten") << BuildFn([](GraphBuilder& b) {
            Var r = exp(b.input("r", DType::Float64, {1, 5}));
            return std::vector<Var>{r + b.input("m", DType::Float64, {3, 5})};
        }) << "";
        QTest::newRow("same value twice") << BuildFn([](GraphBuilder& b) {
            Var a = exp(vec(b, "x"));
            return std::vector<Var>{a * a};
        }) << "";
        QTest::newRow("SetSubtensor on a graph input") << BuildFn([](GraphBuilder& b) {
            Var m = b.input("m", DType::Float64, {3, 5});
            return std::vector<Var>{setSubtensor(m, vec(b, "v"), {0})};
        }) << "";
        QTest::newRow("dtype differs from the output") << BuildFn([](GraphBuilder& b) {
            Var i = exp(cast(b.input("i", DType::Int32, {5}), DType::Float32));
            return std::vector<Var>{i * vec(b, "x")};
        }) << "Exp d={0: [0]}";
    }

    void cases() {
        QFETCH(BuildFn, graph);
        QFETCH(QString, destroyers);
        auto g = buildGraph(graph);
        RewriteOutcome r = rewriteAndCompare(*g, inplaceOnly());
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(QString::fromStdString(destroyersText(*r.after)), destroyers);
        QVERIFY(destroyHandlerProblems(*r.after).empty());
        int recorded = 0;
        for (const TraceStep& s : r.trace.steps())
            for (const AttributeChange& a : s.attributes) {
                QCOMPARE(a.key, std::string("destroy_map"));
                QCOMPARE(a.before, std::string("{}"));
                ++recorded;
            }
        QCOMPARE(recorded, static_cast<int>(r.trace.size()));
    }

    void explainNamesTheReason() {
        GraphBuilder b;
        Var a = exp(vec(b, "x"));
        auto g = b.finish({sin(a) + a});
        PipelineOptions opts;
        opts.explain = true;
        RewriteOutcome r = rewriteAndCompare(*g, inplaceOnly(), opts);
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        bool found = false;
        for (auto& [k, failures] : r.trace.failures())
            for (const MatchFailure& f : failures)
                found |= f.rewrite == "inplace_elemwise" && f.reason.find("reads the value after this node") != std::string::npos;
        QVERIFY(found);
    }

    void randomGraphsWithViewsStayValid() {
        // Random mixes of views (Transpose, Subtensor), Inc/SetSubtensor and Elemwise
        // through both inplace passes and output protection: each pass validated, the
        // executor never has to copy a destroyed input, the numbers unchanged.
        std::mt19937 rng(999);
        auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
        Pipeline p;
        {
            std::vector<std::unique_ptr<GraphPass>> inplace, protection;
            inplace.push_back(makeInplaceSetSubtensor());
            inplace.push_back(makeInplaceElemwise());
            protection.push_back(makeOutputProtection());
            p.addPhase("inplace", std::move(inplace));
            p.addPhase("output_protection", std::move(protection));
        }
        for (int trial = 0; trial < 150; ++trial) {
            GraphBuilder b;
            std::vector<Var> pool{b.input("x", DType::Float64, {4, 4}), b.input("y", DType::Float64, {4, 4})};
            Var row = vec(b, "v", 4);
            const int n = 5 + pick(40);
            for (int k = 0; k < n; ++k) {
                Var a = pool[pool.size() - 1 - pick(std::min<int>(static_cast<int>(pool.size()), 5))];
                Var c = pool[pick(static_cast<int>(pool.size()))];
                switch (pick(9)) {
                case 0: pool.push_back(sin(a)); break;
                case 1: pool.push_back(transpose(a)); break;
                case 2: pool.push_back(a + c); break;
                case 3: pool.push_back(incSubtensor(a, row, {pick(4)})); break;
                case 4: pool.push_back(setSubtensor(a, index(c, pick(4)), {pick(4)})); break;
                case 5: pool.push_back(a * transpose(c)); break;
                case 6: pool.push_back(a - expandDims(index(c, 1), 0)); break;
                case 7: pool.push_back(exp(a * 0.1) + c); break;
                default: pool.push_back(cos(c) * a); break;
                }
            }
            std::vector<Var> outs{pool.back()};
            for (int k = pick(4); k > 0; --k) outs.push_back(pool[pick(static_cast<int>(pool.size()))]);
            auto g = b.finish(outs);
            RewriteOutcome r = rewriteAndCompare(*g, p, {}, static_cast<uint64_t>(trial) + 1);
            QVERIFY2(r.mismatch.empty(), ("trial " + std::to_string(trial) + ": " + r.mismatch).c_str());
            QVERIFY2(CompiledGraph(*r.after).protectedDestroyers().empty(), ("trial " + std::to_string(trial)).c_str());
        }
    }

    void longChainAndWideFanOutAreFast() {
        // 10,000-op chain: every op overwrites its predecessor's value.
        {
            GraphBuilder b;
            Var x = vec(b, "x");
            Var y = exp(x);
            for (int i = 1; i < 10000; ++i) y = i % 2 ? sin(y) : cos(y);
            auto g = b.finish({y});
            QElapsedTimer t;
            t.start();
            PipelineOptions opts;
            inplaceOnly().run(*g, opts);
            qInfo("10,000-op chain: inplace with validation in %lld ms", static_cast<long long>(t.elapsed()));
            int destroyers = 0;
            for (const Node* n : g->nodes()) destroyers += !n->op().destroyMap().empty();
            QCOMPARE(destroyers, 9999);
        }
        // 4,000 readers of one value: one of them overwrites it after all others ran.
        {
            GraphBuilder b;
            Var a = exp(vec(b, "x"));
            Var acc = sin(a);
            for (int i = 1; i < 4000; ++i) acc = acc + sin(a);
            auto g = b.finish({acc});
            QElapsedTimer t;
            t.start();
            PipelineOptions opts;
            inplaceOnly().run(*g, opts);
            qInfo("4,000 readers: inplace with validation in %lld ms", static_cast<long long>(t.elapsed()));
            int sins = 0, adds = 0;
            for (const Node* n : g->nodes()) {
                if (n->op().destroyMap().empty()) continue;
                sins += n->op().name() == "Sin";
                adds += n->op().name() == "Add";
            }
            QCOMPARE(sins, 1);
            QCOMPARE(adds, 3999);
        }
        // The same shape, small enough to run before and after.
        {
            GraphBuilder b;
            Var a = exp(vec(b, "x"));
            Var acc = sin(a);
            for (int i = 1; i < 300; ++i) acc = acc + (i % 2 ? sin(a) : cos(a));
            auto g = b.finish({acc});
            RewriteOutcome r = rewriteAndCompare(*g, inplaceOnly());
            QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
            QVERIFY(destroyHandlerProblems(*r.after).empty());
        }
    }
};

TL_TEST_SUITE(TestInplace)
#include "tst_rw_inplace.moc"
