// Phase blas (PyTensor's BlasOpt): local_dot_to_dot22, local_dot22_to_ger_or_gemv with
// local_dimshuffle_lift, local_dot22_to_dot22scalar, use_c_gemv and use_c_ger; and the
// Matmul rewrites of canonicalize and specialize (local_eager_useless_unbatched_blockwise,
// specialize_matmul_to_batched_dot, local_batched_matmul_to_core_matmul, local_dot_to_mul).
// Each graph is run before and after on the same inputs; the products that must become
// other ops and the ones that must stay side by side. Gemm: tst_rw_gemm.
#include "TestSuites.h"
#include "BuildCases.h"
#include "RewriteCheck.h"

#include "builder/Indexing.h"
#include "builder/Linalg.h"
#include "builder/Math.h"
#include "ops/BlasOps.h"
#include "ops/Elemwise.h"
#include "rewrite/EquilibriumDriver.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

// The blas phase as Pipeline::fastRun() runs it.
Pipeline blasPipeline() { return singlePhase("blas", makeBlasPasses()); }

Var mat(GraphBuilder& b, const char* name, int64_t m, int64_t n, DType d = DType::Float64) { return b.input(name, d, {m, n}); }
Var vec(GraphBuilder& b, const char* name, int64_t n, DType d = DType::Float64) { return b.input(name, d, {n}); }

int countMuls(const Graph& g) {
    int muls = 0;
    for (const Node* n : g.nodes())
        if (rw::plainElemwiseCode(*n) == ScalarOpCode::Mul) ++muls;
    return muls;
}

} // namespace

class TestRwBlas : public QObject {
    Q_OBJECT
private slots:
    void blasPhase_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<QString>("expected");  // op counts after the phase
        // ---- become BLAS calls
        QTest::newRow("matrix product") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{dot(mat(b, "A", 4, 3), mat(b, "B", 3, 5))};
        }) << "Dot 0, Dot22 1, CGemv 0, CGer 0, DimShuffle 0";
        QTest::newRow("matrix times vector, as pt.dot builds it") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{squeeze(dot(mat(b, "A", 4, 3), expandDims(vec(b, "v", 3), 1)), {1})};
        }) << "Dot 0, Dot22 0, CGemv 1, CGer 0, DimShuffle 0";
        QTest::newRow("vector times matrix") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{squeeze(dot(expandDims(vec(b, "v", 3), 0), mat(b, "B", 3, 5)), {0})};
        }) << "Dot 0, Dot22 0, CGemv 1, CGer 0, DimShuffle 1";
        QTest::newRow("inner product") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{dot(expandDims(vec(b, "u", 3), 0), expandDims(vec(b, "v", 3), 1))};
        }) << "Dot 0, Dot22 0, CGemv 1, CGer 0, DimShuffle 2";  // v as a row, the result as a 1x1
        QTest::newRow("outer product") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{dot(expandDims(vec(b, "x", 4), 1), expandDims(vec(b, "y", 5), 0))};
        }) << "Dot 0, Dot22 0, CGemv 0, CGer 1, DimShuffle 0";
        QTest::newRow("matrix of unknown rows times a column") << BuildFn([](GraphBuilder& b) {
            Var a = b.input("A", DType::Float64, {kUnknownDim, 3});
            return std::vector<Var>{exp(dot(a, mat(b, "c", 3, 1)))};
        }) << "Dot 0, Dot22 0, CGemv 1, CGer 0, DimShuffle 2";  // c as a vector, the result as a column
        QTest::newRow("float32 matrix times vector") << BuildFn([](GraphBuilder& b) {
            Var a = mat(b, "A", 4, 3, DType::Float32);
            return std::vector<Var>{squeeze(dot(a, expandDims(vec(b, "v", 3, DType::Float32), 1)), {1})};
        }) << "Dot 0, Dot22 0, CGemv 1, CGer 0, DimShuffle 0";
        // ---- stay as they are
        QTest::newRow("int64 matrices stay a Dot") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{dot(mat(b, "A", 4, 3, DType::Int64), mat(b, "B", 3, 5, DType::Int64))};
        }) << "Dot 1, Dot22 0, CGemv 0, CGer 0, DimShuffle 0";
        QTest::newRow("float32 times float64 stays a Dot") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{dot(mat(b, "A", 4, 3, DType::Float32), mat(b, "B", 3, 5))};
        }) << "Dot 1, Dot22 0, CGemv 0, CGer 0, DimShuffle 0";
        QTest::newRow("an unknown length is not a vector") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{dot(mat(b, "A", 4, 3), b.input("B", DType::Float64, {3, kUnknownDim}))};
        }) << "Dot 0, Dot22 1, CGemv 0, CGer 0, DimShuffle 0";
    }
    void blasPhase() {
        QFETCH(BuildFn, graph);
        QFETCH(QString, expected);
        // float32 sums in another order through Gemv than through a matrix product.
        const std::unique_ptr<Graph> g = buildGraph(graph);
        const double rtol = g->outputs()[0]->type().dtype == DType::Float32 ? 1e-5 : 1e-12;
        RewriteOutcome r = rewriteAndCompare(*g, blasPipeline(), {}, 1, rtol);
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        const std::string got = opCountsText(*r.after, {{OpKind::Dot, "Dot"}, {OpKind::Dot22, "Dot22"}, {OpKind::CGemv, "CGemv"},
                                                        {OpKind::CGer, "CGer"}, {OpKind::DimShuffle, "DimShuffle"}});
        QCOMPARE(QString::fromStdString(got), expected);
        QCOMPARE(countOps(*r.after, OpKind::Gemv) + countOps(*r.after, OpKind::Ger), 0);  // all in their C form
    }

    // use_c_gemv and use_c_ger keep the inplace flag and the inputs; only floats.
    void cNames() {
        GraphBuilder b;
        Var y = exp(vec(b, "y", 4));
        Var g = b.apply1(makeGemv(false, false), {y, b.constant(0.5), mat(b, "A", 4, 3), vec(b, "x", 3), b.constant(2.0)});
        Var a = exp(mat(b, "M", 4, 3));
        Var r = b.apply1(makeGer(false, false), {a, b.constant(1.5), vec(b, "p", 4), vec(b, "q", 3)});
        RewriteOutcome out = rewriteAndCompare(*b.finish({g, r}), singleRewrite(useCGemv()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, OpKind::CGemv), 1);
        QCOMPARE(countOps(*out.after, OpKind::Gemv), 0);
        QCOMPARE(countOps(*out.after, OpKind::Ger), 1);  // use_c_gemv leaves Ger alone
        RewriteOutcome both = rewriteAndCompare(*out.after, singleRewrite(useCGer()));
        QVERIFY2(both.mismatch.empty(), both.mismatch.c_str());
        QCOMPARE(countOps(*both.after, OpKind::CGer), 1);
        for (const Node* n : both.after->nodes())
            if (n->kind() == OpKind::CGemv || n->kind() == OpKind::CGer) QVERIFY(!static_cast<const BlasOp&>(n->op()).inPlace());
    }

    // local_eager_useless_unbatched_blockwise: a Matmul of matrices is a Dot in
    // canonicalize already; a Blockwise of an op with an inplace form, or with a batch,
    // waits.
    void eagerUnbatchedBlockwise_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<bool>("fires");
        QTest::newRow("Matmul of two matrices") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{matmul(mat(b, "A", 4, 3), mat(b, "B", 3, 2))};
        }) << true;
        QTest::newRow("Matmul with a batch of length 1") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{matmul(b.input("A", DType::Float64, {1, 4, 3}), b.input("B", DType::Float64, {1, 3, 2}))};
        }) << true;
        QTest::newRow("Matmul with a batch of 2") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{matmul(b.input("A", DType::Float64, {2, 4, 3}), mat(b, "B", 3, 2))};
        }) << false;
        QTest::newRow("an unbatched Solve waits for its inplace form") << BuildFn([](GraphBuilder& b) {
            Var a = exp(mat(b, "A", 3, 3)) * 0.1 + b.constant(NDArray::fromVector(DType::Float64, {3, 3}, {3, 0, 0, 0, 3, 0, 0, 0, 3}));
            return std::vector<Var>{linalg::solve(a, mat(b, "c", 3, 2), "gen", false, false, 2)};
        }) << false;
    }
    void eagerUnbatchedBlockwise() {
        QFETCH(BuildFn, graph);
        QFETCH(bool, fires);
        const std::unique_ptr<Graph> g = buildGraph(graph);
        QCOMPARE(countOps(*g, OpKind::Blockwise), 1);
        RewriteOutcome r = rewriteAndCompare(*g, singleRewrite(localEagerUselessUnbatchedBlockwise()));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(countOps(*r.after, OpKind::Blockwise), fires ? 0 : 1);
        QCOMPARE(countOps(*r.after, OpKind::Dot), fires ? 1 : 0);
    }

    // specialize_matmul_to_batched_dot: one BatchedDot where no batch dim broadcasts,
    // more than one batch dim raveled into one and back.
    void matmulToBatchedDot_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<QString>("expected");  // BatchedDot, Reshape, Blockwise after
        auto t = [](GraphBuilder& b, const char* name, StaticShape s) { return b.input(name, DType::Float64, std::move(s)); };
        QTest::newRow("one batch dim") << BuildFn([t](GraphBuilder& b) {
            return std::vector<Var>{matmul(t(b, "x", {5, 4, 3}), t(b, "y", {5, 3, 2}))};
        }) << "1 0 0";
        QTest::newRow("one batch dim of unknown length") << BuildFn([t](GraphBuilder& b) {
            return std::vector<Var>{matmul(t(b, "x", {kUnknownDim, 4, 3}), t(b, "y", {kUnknownDim, 3, 2}))};
        }) << "1 0 0";
        QTest::newRow("two batch dims: raveled and back") << BuildFn([t](GraphBuilder& b) {
            return std::vector<Var>{matmul(t(b, "x", {2, 3, 4, 3}), t(b, "y", {2, 3, 3, 5}))};
        }) << "1 3 0";
        QTest::newRow("a batch dim of 1 broadcasts: stays") << BuildFn([t](GraphBuilder& b) {
            return std::vector<Var>{matmul(t(b, "x", {1, 4, 3}), t(b, "y", {6, 3, 2}))};
        }) << "0 0 1";
        QTest::newRow("a matrix against a batch: stays") << BuildFn([t](GraphBuilder& b) {
            return std::vector<Var>{matmul(t(b, "x", {4, 3}), t(b, "y", {6, 3, 2}))};
        }) << "0 0 1";
    }
    void matmulToBatchedDot() {
        QFETCH(BuildFn, graph);
        QFETCH(QString, expected);
        RewriteOutcome r = rewriteAndCompare(*buildGraph(graph), singleRewrite(specializeMatmulToBatchedDot()));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(QString("%1 %2 %3")
                     .arg(countOps(*r.after, OpKind::BatchedDot))
                     .arg(countOps(*r.after, OpKind::Reshape))
                     .arg(countOps(*r.after, OpKind::Blockwise)),
                 expected);
    }

    // local_batched_matmul_to_core_matmul (canonicalize) and its _with_reshape variant
    // (specialize): a batch dim only one input has goes into that input's rows or
    // columns; with local_eager_useless_unbatched_blockwise after, a product without
    // batch dims left is one Dot.
    void batchedMatmulToCore_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<bool>("withReshape");
        QTest::addColumn<QString>("expected");  // Blockwise, Dot, Reshape after
        auto t = [](GraphBuilder& b, const char* name, StaticShape s) { return b.input(name, DType::Float64, std::move(s)); };
        auto both = [t](StaticShape xs, StaticShape ys) {
            return BuildFn([t, xs, ys](GraphBuilder& b) { return std::vector<Var>{matmul(t(b, "x", xs), t(b, "y", ys))}; });
        };
        QTest::newRow("rows of x: no reshape") << both({4, 1, 3}, {1, 3, 5}) << false << "0 1 0";
        QTest::newRow("columns of y: no reshape") << both({1, 4, 3}, {6, 3, 1}) << false << "0 1 0";
        QTest::newRow("a batch of matrices times a matrix: waits for specialize") << both({4, 2, 3}, {1, 3, 5}) << false << "1 0 0";
        QTest::newRow("a batch of matrices times a matrix") << both({4, 2, 3}, {1, 3, 5}) << true << "0 1 2";
        QTest::newRow("a matrix times a batch of matrices") << both({1, 4, 3}, {6, 3, 5}) << true << "0 1 2";
        QTest::newRow("two batch dims of x") << both({2, 3, 4, 3}, {1, 1, 3, 5}) << true << "0 1 2";
        QTest::newRow("one batch dim each side") << both({2, 1, 4, 3}, {1, 6, 3, 5}) << true << "0 1 3";
        QTest::newRow("a shared batch dim stays a batch") << both({2, 5, 4, 3}, {1, 5, 3, 2}) << true << "1 0 2";
        QTest::newRow("a row x of unknown batch length") << both({kUnknownDim, 1, 3}, {1, 3, 5}) << false << "0 1 0";
        QTest::newRow("the same batch dims: stays") << both({5, 4, 3}, {5, 3, 2}) << true << "1 0 0";
        QTest::newRow("unknown batch lengths on both: stays") << both({kUnknownDim, 4, 3}, {kUnknownDim, 3, 2}) << true << "1 0 0";
    }
    void batchedMatmulToCore() {
        QFETCH(BuildFn, graph);
        QFETCH(bool, withReshape);
        QFETCH(QString, expected);
        const NodeRewrite& rewrite = withReshape ? localBatchedMatmulToCoreMatmulWithReshape() : localBatchedMatmulToCoreMatmul();
        std::vector<std::unique_ptr<GraphPass>> passes;
        passes.push_back(std::make_unique<EquilibriumDriver>(
            std::string(rewrite.name()), std::vector<std::string>{"fast_run"},
            std::vector<const NodeRewrite*>{&rewrite, &localEagerUselessUnbatchedBlockwise()}));
        RewriteOutcome r = rewriteAndCompare(*buildGraph(graph), singlePhase("specialize", std::move(passes)));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(QString("%1 %2 %3")
                     .arg(countOps(*r.after, OpKind::Blockwise))
                     .arg(countOps(*r.after, OpKind::Dot))
                     .arg(countOps(*r.after, OpKind::Reshape)),
                 expected);
    }

    // local_dot_to_mul: nothing to sum when the summed dim has static length 1; the
    // outer product of a column and a row stays a Dot, for Ger.
    void dotToMul_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<QString>("expected");  // Dot, Blockwise, Mul after
        auto t = [](GraphBuilder& b, const char* name, StaticShape s, DType d = DType::Float64) {
            return b.input(name, d, std::move(s));
        };
        QTest::newRow("a 1x1 times a row") << BuildFn([t](GraphBuilder& b) {
            return std::vector<Var>{dot(t(b, "x", {1, 1}), t(b, "y", {1, 5}))};
        }) << "0 0 1";
        QTest::newRow("a column times a 1x1") << BuildFn([t](GraphBuilder& b) {
            return std::vector<Var>{dot(t(b, "x", {4, 1}), t(b, "y", {1, 1}))};
        }) << "0 0 1";
        QTest::newRow("int64") << BuildFn([t](GraphBuilder& b) {
            return std::vector<Var>{dot(t(b, "x", {1, 1}, DType::Int64), t(b, "y", {1, 5}, DType::Int64))};
        }) << "0 0 1";
        QTest::newRow("a batch of outer products") << BuildFn([t](GraphBuilder& b) {
            return std::vector<Var>{matmul(t(b, "x", {2, 4, 1}), t(b, "y", {2, 1, 5}))};
        }) << "0 0 1";
        QTest::newRow("an outer product stays, for Ger") << BuildFn([t](GraphBuilder& b) {
            return std::vector<Var>{dot(t(b, "x", {4, 1}), t(b, "y", {1, 5}))};
        }) << "1 0 0";
        QTest::newRow("a real sum stays") << BuildFn([t](GraphBuilder& b) {
            return std::vector<Var>{dot(t(b, "x", {1, 3}), t(b, "y", {3, 5}))};
        }) << "1 0 0";
        QTest::newRow("an unknown summed length stays") << BuildFn([t](GraphBuilder& b) {
            return std::vector<Var>{matmul(t(b, "x", {2, 4, kUnknownDim}), t(b, "y", {2, kUnknownDim, 5}))};
        }) << "0 1 0";
    }
    void dotToMul() {
        QFETCH(BuildFn, graph);
        QFETCH(QString, expected);
        RewriteOutcome r = rewriteAndCompare(*buildGraph(graph), singleRewrite(localDotToMul()));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        const int muls = countMuls(*r.after);
        QCOMPARE(QString("%1 %2 %3").arg(countOps(*r.after, OpKind::Dot)).arg(countOps(*r.after, OpKind::Blockwise)).arg(muls),
                 expected);
    }

    // The whole pipeline on pt.dot(A, v) and A @ B: the graphs PyTensor compiles.
    void pipelineMakesPyTensorsCalls() {
        GraphBuilder b;
        Var a = mat(b, "A", 5, 3);
        Var mv = squeeze(dot(a, expandDims(vec(b, "v", 3), 1)), {1});
        Var mm = matmul(a, mat(b, "B", 3, 4));
        RewriteOutcome r = rewriteAndCompare(*b.finish({exp(mv), exp(mm)}), Pipeline::fastRun());
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(countOps(*r.after, OpKind::CGemv), 1);
        QCOMPARE(countOps(*r.after, OpKind::Dot22), 1);
        QCOMPARE(countOps(*r.after, OpKind::Dot) + countOps(*r.after, OpKind::Blockwise), 0);
        for (const Node* n : r.after->nodes())
            if (n->kind() == OpKind::CGemv) QCOMPARE(QString::fromStdString(n->op().name()), QString("CGemv{inplace}"));
    }

    // x @ y of a column and a row: a Dot (local_eager_useless_unbatched_blockwise) before
    // local_dot_to_mul looks at it, so an outer product, a CGer after the pipeline.
    void matmulOuterProductIsGer() {
        GraphBuilder b;
        Var out = matmul(b.input("x", DType::Float64, {kUnknownDim, 1}), b.input("y", DType::Float64, {1, 2}));
        RewriteOutcome r = rewriteAndCompare(*b.finish({exp(out)}), Pipeline::fastRun());
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(countOps(*r.after, OpKind::CGer), 1);
    }

    // local_dot22_to_dot22scalar: the first scalar factor the product's dtype holds goes
    // into the BLAS call; other factors stay in a mul.
    void dot22Scalar_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<QString>("expected");  // Dot22Scalar, Dot22, Mul left
        QTest::newRow("2.5 * (A @ B)") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{b.constant(2.5) * dot22(mat(b, "A", 4, 3), mat(b, "B", 3, 5))};
        }) << "1 0 0";
        QTest::newRow("mul(A @ B, s[None, None], Z): Z stays a factor") << BuildFn([](GraphBuilder& b) {
            Var s = dimshuffle(b.input("s", DType::Float64, {}), {-1, -1});
            Var p = dot22(mat(b, "A", 4, 3), mat(b, "B", 3, 5));
            return std::vector<Var>{b.apply1(makeElemwise(ScalarOpCode::Mul), {p, s, mat(b, "Z", 4, 5)})};
        }) << "1 0 1";
        QTest::newRow("an int64 scalar into a float64 product") << BuildFn([](GraphBuilder& b) {
            Var k = b.input("k", DType::Int64, {1, 1});
            return std::vector<Var>{dot22(mat(b, "A", 4, 3), mat(b, "B", 3, 5)) * k};
        }) << "1 0 0";
        QTest::newRow("a float64 scalar stays out of a float32 product") << BuildFn([](GraphBuilder& b) {
            Var p = dot22(mat(b, "A", 4, 3, DType::Float32), mat(b, "B", 3, 5, DType::Float32));
            return std::vector<Var>{p * b.input("s", DType::Float64, {})};
        }) << "0 1 1";
        QTest::newRow("a row is no scalar") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{dot22(mat(b, "A", 4, 3), mat(b, "B", 3, 5)) * mat(b, "r", 1, 5)};
        }) << "0 1 1";
        QTest::newRow("a sum of a product is no product") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{dot22(mat(b, "A", 4, 3), mat(b, "B", 3, 5)) + b.constant(2.5)};
        }) << "0 1 0";
    }
    void dot22Scalar() {
        QFETCH(BuildFn, graph);
        QFETCH(QString, expected);
        RewriteOutcome r = rewriteAndCompare(*buildGraph(graph), singleRewrite(localDot22ToDot22Scalar()));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        const int muls = countMuls(*r.after);
        QCOMPARE(QString("%1 %2 %3").arg(countOps(*r.after, OpKind::Dot22Scalar)).arg(countOps(*r.after, OpKind::Dot22)).arg(muls),
                 expected);
    }

    // What each rewrite says when it does not fire, for the GUI's explanations.
    void reasons() {
        GraphBuilder b;
        Var d = dot(mat(b, "A", 4, 3, DType::Int64), mat(b, "B", 3, 5, DType::Int64));
        auto g = b.finish({d});
        const Node* dotNode = g->outputs()[0]->owner();
        QCOMPARE(std::string(localDotToDot22().match(*dotNode, {}).whyNot()), std::string("not a float product"));
        GraphBuilder c;
        Var p = dot22(mat(c, "A", 4, 3), mat(c, "B", 3, 5));
        auto h = c.finish({p});
        QCOMPARE(std::string(localDot22ToGerOrGemv().match(*h->outputs()[0]->owner(), {}).whyNot()),
                 std::string("no dimension of static length 1 makes it a vector product"));
    }
};

TL_TEST_SUITE(TestRwBlas)
#include "tst_rw_blas.moc"
