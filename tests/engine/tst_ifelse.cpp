// IfElse: the kernel (then/else values, copies and as_view), type inference with
// PyTensor's errors, printed names and JSON params, lazy evaluation in the executor
// (the branch not taken is not computed: an out-of-range index there is no error, as in
// PyTensor, nested IfElses and inside a Scan step), the forward derivative, and
// cond_make_inplace firing and not firing.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "ShapeOpsTestUtil.h"
#include "TestSupport.h"

#include "builder/AdvancedIndexing.h"
#include "builder/ControlFlow.h"
#include "builder/Math.h"
#include "builder/Rop.h"
#include "builder/Scan.h"
#include "ops/IfElse.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

NDArray doubles(const Shape& shape, const std::vector<double>& v) { return NDArray::fromVector(DType::Float64, shape, v); }

// ifelse(c > 0, x[k], x[0] * 2): with k out of range only the then-branch fails.
std::unique_ptr<Graph> lazyIndexGraph() {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {4});
    Var k = b.input("k", DType::Int64, {});
    Var c = b.input("c", DType::Float64, {});
    Var out = ifElse(gt(c, b.constant(0.0)), getItem(x, {k}), mul(getItem(x, {0}), b.constant(2.0)));
    return b.finish({out});
}

} // namespace

class TestIfElse : public QObject {
    Q_OBJECT
private slots:
    void kernel() {
        const NDArray t = doubles({2}, {1, 2}), f = doubles({2}, {3, 4});
        auto op = makeIfElse(1);
        NDArray outT = perform(*op, {NDArray::scalar(DType::Bool, 1), t, f})[0];
        NDArray outF = perform(*op, {NDArray::scalar(DType::Float64, 0.0), t, f})[0];
        QCOMPARE(outT.toDoubles(), std::vector<double>({1, 2}));
        QCOMPARE(outF.toDoubles(), std::vector<double>({3, 4}));
        QVERIFY(!outT.sharesStorageWith(t));
        // as_view: the then-value itself; the else-value is still copied.
        auto view = makeIfElse(1, true);
        QVERIFY(perform(*view, {NDArray::scalar(DType::Int64, 5), t, f})[0].sharesStorageWith(t));
        QVERIFY(!perform(*view, {NDArray::scalar(DType::Int64, 0), t, f})[0].sharesStorageWith(f));
        // The untaken branch may hold no value at all (it was not computed).
        QCOMPARE(perform(*op, {NDArray::scalar(DType::Bool, 0), NDArray(), f})[0].toDoubles(), std::vector<double>({3, 4}));
        // Two outputs.
        auto two = perform(*makeIfElse(2), {NDArray::scalar(DType::Bool, 1), t, f, f, t}, 2);
        QCOMPARE(two[1].toDoubles(), std::vector<double>({3, 4}));
    }

    void types_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("result");
        QTest::newRow("static dims where both agree") << 0 << "Matrix(float64, shape=(?, 3))";
        QTest::newRow("dtypes differ") << 1 << "IfElse requires compatible dtypes for both branches: got true_branch=float64, false_branch=float32";
        QTest::newRow("ranks differ") << 2 << "IfElse requires compatible ndim values for both branches: got true_branch=2, false_branch=1";
        QTest::newRow("condition not 0-d") << 3 << "the condition must be a truthy scalar value";
        QTest::newRow("wrong count") << 4 << "wrong number of arguments";
    }
    void types() {
        QFETCH(int, which);
        QFETCH(QString, result);
        const Type c = Type::tensor(DType::Bool, {}), a = Type::tensor(DType::Float64, {2, 3}),
                   b = Type::tensor(DType::Float64, {4, 3}), f32 = Type::tensor(DType::Float32, {2, 3}),
                   v = Type::tensor(DType::Float64, {3}), cv = Type::tensor(DType::Bool, {2});
        std::vector<const Type*> in;
        switch (which) {
        case 0: in = {&c, &a, &b}; break;
        case 1: in = {&c, &a, &f32}; break;
        case 2: in = {&c, &a, &v}; break;
        case 3: in = {&cv, &a, &a}; break;
        case 4: in = {&c, &a}; break;
        }
        QString got;
        try {
            got = QString::fromStdString(makeIfElse(1)->inferTypes(in).at(0).toString());
        } catch (const OpTypeError& e) {
            got = e.what();
        }
        QVERIFY2(got.contains(result), qPrintable(got));
    }

    void namesAndParams() {
        QCOMPARE(QString::fromStdString(makeIfElse(1)->name()), QString("if{}"));
        QCOMPARE(QString::fromStdString(makeIfElse(1, true)->name()), QString("if{inplace}"));
        QCOMPARE(QString::fromStdString(makeIfElse(2, false, "pair")->name()), QString("if{pair}"));
        QCOMPARE(QString::fromStdString(makeIfElse(2, true, "pair")->name()), QString("if{pair,inplace}"));
        QCOMPARE(makeIfElse(2, true)->viewMap(), (AliasMap{{0, {1}}, {1, {2}}}));
        QVERIFY(makeIfElse(2)->viewMap().empty());
        checkJsonRoundTrip(makeIfElse(1));
        checkJsonRoundTrip(makeIfElse(3, true, "pair"));
        // PyTensor's exporter: {"as_view", "n_outs"} and the view_map, which must agree.
        QVERIFY(makeOp(OpKind::IfElse, nlohmann::json::parse(R"({"as_view": true, "n_outs": 1, "view_map": {"0": [1]}})"), nullptr));
        try {
            makeOp(OpKind::IfElse, nlohmann::json::parse(R"({"as_view": false, "n_outs": 1, "view_map": {"0": [1]}})"), nullptr);
            QFAIL("a view_map contradicting as_view must be refused");
        } catch (const std::invalid_argument&) {
        }
    }

    void lazyBranches() {
        auto g = lazyIndexGraph();
        // c > 0 with k = 9: the then-branch indexes out of range.
        try {
            run(*g, {iota(DType::Float64, {4}), i64(9), NDArray::scalar(DType::Float64, 1.0)});
            QFAIL("the taken branch's error must surface");
        } catch (const ExecError& e) {
            QVERIFY2(QString(e.what()).contains("index 9 is out of bounds"), e.what());
        }
        // c <= 0: the then-branch is not computed, so its bad index is no error (PyTensor's lazy VM).
        auto out = run(*g, {iota(DType::Float64, {4}), i64(9), NDArray::scalar(DType::Float64, -1.0)});
        QCOMPARE(out[0].item(), 0.0);
        out = run(*g, {iota(DType::Float64, {4}), i64(3), NDArray::scalar(DType::Float64, 1.0)});
        QCOMPARE(out[0].item(), 3.0);
    }

    void nestedAndShared() {
        // ifelse(a, ifelse(b, x[k], 2x), x + 1) + x: the inner branches only matter when a holds;
        // x itself is needed whatever the conditions say.
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {3});
        Var k = b.input("k", DType::Int64, {});
        Var a = b.input("a", DType::Bool, {});
        Var c = b.input("b", DType::Bool, {});
        Var inner = ifElse(c, getItem(x, {k}), mul(getItem(x, {1}), b.constant(2.0)));
        Var outer = ifElse(a, inner, add(getItem(x, {2}), b.constant(1.0)));
        auto g = b.finish({add(outer, getItem(x, {0}))});
        const NDArray xs = doubles({3}, {10, 20, 30});
        auto runWith = [&](int64_t kv, bool av, bool bv) {
            return run(*g, {xs, i64(kv), NDArray::scalar(DType::Bool, av), NDArray::scalar(DType::Bool, bv)})[0].item();
        };
        QCOMPARE(runWith(7, false, true), 41.0);   // outer else: the inner IfElse never runs
        QCOMPARE(runWith(7, true, false), 50.0);   // inner else
        QCOMPARE(runWith(2, true, true), 40.0);
        try {
            runWith(7, true, true);
            QFAIL("index 7 is read when both conditions hold");
        } catch (const ExecError&) {
        }
    }

    void lazyInsideAScanStep() {
        // A step whose untaken branch would index out of range: lazy at every step.
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {4});
        Var x0 = b.input("x0", DType::Float64, {});
        auto r = scan(b, [&](GraphBuilder& ib, const std::vector<Var>& s) -> StepResult {
            Var prev = s[0];
            Var bad = getItem(ib.capture(x), {ib.constant(NDArray::scalar(DType::Int64, 9))});
            return {{ifElse(gt(prev, ib.constant(100.0)), bad, add(prev, ib.constant(1.0)))}};
        }, ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nSteps = 5});
        auto g = b.finish({r.outputs[0]});
        auto out = run(*g, {iota(DType::Float64, {4}), NDArray::scalar(DType::Float64, 0.0)});
        QCOMPARE(out[0].toDoubles(), std::vector<double>({1, 2, 3, 4, 5}));
    }

    void rop() {
        // d ifelse(c, sin(x), x * y) = ifelse(c, cos(x) dx, dx y + x dy), by finite differences.
        for (double cv : {1.0, -1.0})
            checkRopByFiniteDifferences({{3}, {3}}, [&](GraphBuilder& b, const std::vector<Var>& in) {
                return ifElse(gt(b.constant(cv), b.constant(0.0)), sin(in[0]), mul(in[0], in[1]));
            });
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {3});
        Var c = b.input("c", DType::Bool, {});
        Var y = ifElse(c, exp(x), x);
        Var t = tl::rop(y, x, b.input("t", DType::Float64, {3}));
        QCOMPARE(t->owner()->op().kind(), OpKind::IfElse);  // the tangent is as lazy as the value
    }

    void condMakeInplace_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<bool>("fires");
        QTest::addColumn<QString>("why");
        QTest::newRow("a fresh then-value") << 0 << true << "";
        QTest::newRow("a graph input as then-value") << 1 << true << "";
        QTest::newRow("the then-value is overwritten in place") << 2 << false << "overwrites then-value 0";
    }
    void condMakeInplace() {
        QFETCH(int, which);
        QFETCH(bool, fires);
        QFETCH(QString, why);
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {4});
        Var c = b.input("c", DType::Float64, {});
        Var then = which == 1 ? x : exp(x);
        Var out = ifElse(gt(c, b.constant(0.0)), then, neg(x));
        std::vector<Var> outs{out};
        if (which == 2) outs.push_back(setSubtensor(then, b.constant(0.0), {Idx(0)}));
        auto g = b.finish(outs);
        // Make the write inplace first, as the inplace phase would have.
        PipelineOptions options;
        options.explain = true;
        RewriteOutcome r = rewriteAndCompare(*g, singlePhase("inplace", [] {
            std::vector<std::unique_ptr<GraphPass>> p;
            p.push_back(makeInplaceSetSubtensor());
            p.push_back(makeCondMakeInplace());
            return p;
        }()), options);
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(r.stepsOf("cond_make_inplace"), fires ? 1 : 0);
        if (!fires) {
            bool explained = false;
            for (const auto& [step, list] : r.trace.failures())
                for (const MatchFailure& f : list)
                    explained = explained || (f.rewrite == "cond_make_inplace" && QString::fromStdString(f.reason).contains(why));
            QVERIFY2(explained, "the reason is recorded");
        }
    }
};

TL_TEST_SUITE(TestIfElse)
#include "tst_ifelse.moc"
