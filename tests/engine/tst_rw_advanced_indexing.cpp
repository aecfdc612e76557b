// The advanced-indexing rewrites, each run on graphs where it must fire and where it
// must not, the numbers compared before and after (tests/support/RewriteCheck.h):
// local_replace_AdvancedSubtensor, local_AdvancedIncSubtensor_to_AdvancedIncSubtensor1,
// local_inplace_AdvancedIncSubtensor1 (with its copy of a zero Alloc another node
// destroys) and local_inplace_AdvancedIncSubtensor.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "ShapeOpsTestUtil.h"
#include "TestSupport.h"

#include "builder/AdvancedIndexing.h"
#include "builder/Math.h"
#include "ops/AdvancedIncSubtensor.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

// rewriteAndCompare's random inputs hold integers in [0, 5]: every indexed axis below has
// at least 6 elements, so the indices stay in range.

Pipeline inplacePhase(std::unique_ptr<GraphPass> pass) { return singlePass("inplace", std::move(pass)); }

std::string reasonOf(const RewriteOutcome& r, const std::string& rewrite) {
    for (const auto& [step, list] : r.trace.failures())
        for (const MatchFailure& f : list)
            if (f.rewrite == rewrite) return f.reason;
    return {};
}

} // namespace

class TestRwAdvancedIndexing : public QObject {
    Q_OBJECT
private slots:
    void replaceAdvancedSubtensor_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<int>("take1");   // AdvancedSubtensor1 nodes after
        QTest::addColumn<QString>("why");
        QTest::newRow("rows: x[idx]") << 0 << 1 << "";
        QTest::newRow("columns: x[:, idx] through transposes") << 1 << 1 << "";
        QTest::newRow("middle axis of a 3-d tensor") << 2 << 1 << "";
        QTest::newRow("element pairs stay") << 3 << 0 << "more than one index";
        QTest::newRow("a mask stays") << 4 << 0 << "boolean mask";
        QTest::newRow("a matrix index: flattened, reshaped back") << 5 << 1 << "";
        QTest::newRow("a partial slice stays") << 6 << 0 << "is a slice";
        QTest::newRow("a matrix index on the middle axis of unknown dims") << 7 << 1 << "";
    }
    void replaceAdvancedSubtensor() {
        QFETCH(int, which);
        QFETCH(int, take1);
        QFETCH(QString, why);
        GraphBuilder b;
        Var M = b.input("M", DType::Float64, {6, 6});
        Var T = b.input("T", DType::Float64, {3, 6, 2});
        Var idx = b.input("idx", DType::Int64, {4});
        Var mask = b.input("mask", DType::Bool, {6});
        Var mi = b.input("mi", DType::Int64, {2, 2});
        Var U = b.input("U", DType::Float64, {kUnknownDim, 6, kUnknownDim});
        Var out;
        switch (which) {
        case 0: out = getItem(M, {idx}); break;
        case 1: out = getItem(M, {Slice{}, idx}); break;
        case 2: out = getItem(T, {Slice{}, idx, Slice{}}); break;
        case 3: out = getItem(M, {idx, idx}); break;
        case 4: out = getItem(M, {mask}); break;
        case 5: out = getItem(M, {mi}); break;
        case 6: out = getItem(M, {Slice{1}, idx}); break;
        case 7: out = getItem(U, {Slice{}, mi}); break;
        }
        auto g = b.finish({out});
        PipelineOptions options;
        options.explain = true;
        RewriteOutcome r = rewriteAndCompare(*g, singleRewrite(localReplaceAdvancedSubtensor()), options);
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(countOps(*r.after, OpKind::AdvancedSubtensor1), take1);
        QCOMPARE(countOps(*r.after, OpKind::AdvancedSubtensor), take1 ? 0 : 1);
        QCOMPARE(countOps(*r.after, OpKind::Reshape), which == 5 || which == 7 ? 2 : 0);  // the index's and the result's
        QCOMPARE(r.after->output(0)->type().shape, g->output(0)->type().shape);
        if (!why.isEmpty()) QVERIFY2(QString::fromStdString(reasonOf(r, "local_replace_AdvancedSubtensor")).contains(why),
                                     reasonOf(r, "local_replace_AdvancedSubtensor").c_str());
    }

    void toAdvancedIncSubtensor1_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<int>("inc1");
        QTest::newRow("inc rows with repeats") << 0 << 1;
        QTest::newRow("set columns through transposes") << 1 << 1;
        QTest::newRow("inc a middle axis with a broadcast value") << 2 << 1;
        QTest::newRow("ignore_duplicates stays") << 3 << 0;
        QTest::newRow("a mask stays") << 4 << 0;
        QTest::newRow("element pairs stay") << 5 << 0;
        QTest::newRow("inc rows by a matrix index (repeats)") << 6 << 1;
        QTest::newRow("set columns by a matrix index, broadcast value") << 7 << 1;
        QTest::newRow("inc by a matrix index, 0-d value, unknown dims") << 8 << 1;
    }
    void toAdvancedIncSubtensor1() {
        QFETCH(int, which);
        QFETCH(int, inc1);
        GraphBuilder b;
        Var M = b.input("M", DType::Float64, {6, 6});
        Var T = b.input("T", DType::Float64, {3, 6, 2});
        Var idx = b.input("idx", DType::Int64, {4});
        Var y = b.input("y", DType::Float64, {4, 6});
        Var yc = b.input("yc", DType::Float64, {6, 4});
        Var mask = b.input("mask", DType::Bool, {6});
        Var mi = b.input("mi", DType::Int64, {2, 3});
        Var out;
        switch (which) {
        case 0: out = incSubtensor(getItem(M, {idx}), y); break;
        case 1: out = setSubtensor(getItem(M, {Slice{}, idx}), yc); break;
        case 2: out = incSubtensor(getItem(T, {Slice{}, idx, Slice{}}), b.input("v", DType::Float64, {2})); break;
        case 3: out = advancedIncSubtensor(getItem(M, {idx}), y, false, true); break;
        case 4: out = setSubtensor(getItem(M, {mask}), b.constant(0.0)); break;
        case 5: out = incSubtensor(getItem(M, {idx, idx}), b.input("p", DType::Float64, {4})); break;
        case 6: out = incSubtensor(getItem(M, {mi}), b.input("ym", DType::Float64, {2, 3, 6})); break;
        case 7: out = setSubtensor(getItem(M, {Slice{}, mi}), b.input("yb", DType::Float64, {3})); break;
        case 8: out = incSubtensor(getItem(b.input("U", DType::Float64, {kUnknownDim, 6}), {mi}), b.constant(1.5)); break;
        }
        auto g = b.finish({out});
        RewriteOutcome r = rewriteAndCompare(*g, singleRewrite(localAdvancedIncSubtensorToAdvancedIncSubtensor1()));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(countOps(*r.after, OpKind::AdvancedIncSubtensor1), inc1);
        QCOMPARE(countOps(*r.after, OpKind::AdvancedIncSubtensor), inc1 ? 0 : 1);
    }

    // FAST_RUN on the gradient-like increment by a matrix index with a value of the
    // region's own shape: specialize writes it through AdvancedIncSubtensor1, and the
    // Alloc that broadcasts the value to the region's shape goes (local_useless_alloc
    // runs in specialize too, as in PyTensor), leaving only the Reshapes.
    void incByMatrixIndexInFastRun() {
        GraphBuilder b;
        Var M = b.input("M", DType::Float64, {6, 6});
        Var mi = b.input("mi", DType::Int64, {2, 3});
        Var ym = b.input("ym", DType::Float64, {2, 3, 6});
        auto g = b.finish({incSubtensor(getItem(M, {mi}), ym) * 2.0});
        RewriteOutcome r = rewriteAndCompare(*g, Pipeline::fastRun());
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(countOps(*r.after, OpKind::AdvancedIncSubtensor1), 1);
        QCOMPARE(countOps(*r.after, OpKind::Alloc), 0);
        QCOMPARE(countOps(*r.after, OpKind::Reshape), 2);
        QVERIFY(r.stepsOf("local_useless_alloc") >= 1);
    }

    void inplaceAdvancedIncSubtensor1_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<bool>("fires");
        QTest::addColumn<int>("allocs");  // Alloc nodes after
        QTest::addColumn<QString>("why");
        QTest::newRow("a fresh buffer") << 0 << true << 0 << "";
        QTest::newRow("a graph input") << 1 << false << 0 << "graph input";
        QTest::newRow("read again afterwards") << 2 << false << 0 << "";
        QTest::newRow("a zero Alloc another node destroys: copied") << 3 << true << 2 << "";
    }
    void inplaceAdvancedIncSubtensor1() {
        QFETCH(int, which);
        QFETCH(bool, fires);
        QFETCH(int, allocs);
        QFETCH(QString, why);
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {8});
        Var idx = b.input("idx", DType::Int64, {3});
        Var y = b.input("y", DType::Float64, {3});
        std::vector<Var> outs;
        auto inc = [&](Var target, Var value) { return b.apply1(makeAdvancedIncSubtensor1(false, false), {target, value, idx}); };
        switch (which) {
        case 0: outs = {inc(exp(x), y)}; break;
        case 1: outs = {inc(x, y)}; break;
        case 2: {
            Var e = exp(x);
            Var r = inc(e, y);
            // e is read by a node that needs r: it cannot run before the write.
            outs = {add(r, e)};
            break;
        }
        case 3: {
            Var z = alloc(b.constant(0.0), {8});
            Var first = b.apply1(makeAdvancedIncSubtensor1(true, false), {z, y, idx});
            outs = {first, inc(z, exp(y))};
            break;
        }
        }
        auto g = b.finish(outs);
        PipelineOptions options;
        options.explain = true;
        RewriteOutcome r = rewriteAndCompare(*g, inplacePhase(makeLocalInplaceAdvancedIncSubtensor1()), options, 1, 1e-12, 0,
                                             nullptr);
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(r.stepsOf("local_inplace_AdvancedIncSubtensor1"), fires ? 1 : 0);
        QCOMPARE(countOps(*r.after, OpKind::Alloc), allocs);
        if (!why.isEmpty()) QVERIFY2(QString::fromStdString(reasonOf(r, "local_inplace_AdvancedIncSubtensor1")).contains(why),
                                     reasonOf(r, "local_inplace_AdvancedIncSubtensor1").c_str());
    }

    void inplaceAdvancedIncSubtensor_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<bool>("fires");
        QTest::newRow("set a mask of a fresh array") << 0 << true;
        QTest::newRow("a graph input") << 1 << false;
        QTest::newRow("the buffer is a graph output too") << 2 << false;
    }
    void inplaceAdvancedIncSubtensor() {
        QFETCH(int, which);
        QFETCH(bool, fires);
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {5});
        Var fresh = mul(x, b.constant(2.0));
        Var target = which == 1 ? x : fresh;
        Var out = setSubtensor(getItem(target, {lt(target, b.constant(0.0))}), b.constant(0.0));
        std::vector<Var> outs{out};
        if (which == 2) outs.push_back(fresh);
        auto g = b.finish(outs);
        RewriteOutcome r = rewriteAndCompare(*g, inplacePhase(makeLocalInplaceAdvancedIncSubtensor()));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(r.stepsOf("local_inplace_AdvancedIncSubtensor"), fires ? 1 : 0);
    }

    void pipelineMatchesPyTensorsCompiledForms() {
        // FAST_RUN as PyTensor: x[idx] -> AdvancedSubtensor1; inc_subtensor(x[idx], y) on a
        // fresh buffer -> AdvancedIncSubtensor1{inplace,inc}.
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {8});
        Var idx = b.input("idx", DType::Int64, {6});
        Var vals = b.input("vals", DType::Float64, {6});
        auto g = b.finish({getItem(x, {idx}), incSubtensor(getItem(exp(x), {idx}), vals)});
        RewriteOutcome r = rewriteAndCompare(*g, Pipeline::fastRun());
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(countOps(*r.after, OpKind::AdvancedSubtensor), 0);
        // One AdvancedSubtensor1, as in PyTensor's compiled graph: the exp(x)[idx] handed
        // to incSubtensor feeds no output, so it is not part of the graph.
        QCOMPARE(countOps(*r.after, OpKind::AdvancedSubtensor1), 1);
        bool inplace = false;
        for (const Node* n : r.after->nodes())
            if (n->op().name() == "AdvancedIncSubtensor1{inplace,inc}") inplace = true;
        QVERIFY(inplace);
    }
};

TL_TEST_SUITE(TestRwAdvancedIndexing)
#include "tst_rw_advanced_indexing.moc"
