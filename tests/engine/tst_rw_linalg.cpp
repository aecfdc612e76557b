// The rewrites of products and linear algebra, and the pipeline on graphs holding
// destroying BLAS ops: blas_opt_inplace, blockwise_inplace,
// local_useless_unbatched_blockwise, constant folding that never folds a value a
// destroyer overwrites, and the Scan step graph's mutable inputs (PyTensor's updated
// mit_mot taps). Firing and non-firing cases side by side, each run before and after.
#include "TestSuites.h"
#include "BuildCases.h"
#include "FusionTestUtil.h"
#include "RewriteCheck.h"

#include "analysis/DestroyHandler.h"
#include "builder/Indexing.h"
#include "builder/Linalg.h"
#include "builder/Math.h"
#include "ops/BlasOps.h"
#include "ops/Blockwise.h"
#include "ops/Linalg.h"
#include "rewrite/EquilibriumDriver.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

Pipeline passes(std::vector<std::unique_ptr<GraphPass>> list) { return singlePhase("inplace", std::move(list)); }

Var mat(GraphBuilder& b, const char* name, int64_t m, int64_t n) { return b.input(name, DType::Float64, {m, n}); }
Var vec(GraphBuilder& b, const char* name, int64_t n) { return b.input(name, DType::Float64, {n}); }
Var one(GraphBuilder& b) { return b.constant(1.0); }
Var zero(GraphBuilder& b) { return b.constant(0.0); }

// A batch of well-conditioned matrices as a graph value: exp(x) * 0.1 + 3 I.
Var conditioned(GraphBuilder& b, Var x) {
    const int64_t n = x.type().shape.back();
    std::vector<double> eye(static_cast<size_t>(n * n), 0.0);
    for (int64_t i = 0; i < n; ++i) eye[static_cast<size_t>(i * n + i)] = 3.0;
    return exp(x) * 0.1 + b.constant(NDArray::fromVector(DType::Float64, {n, n}, eye));
}

int count(const Graph& g, OpKind k) { return countOps(g, k); }

} // namespace

class TestRwLinalg : public QObject {
    Q_OBJECT
private slots:
    void blasInplace_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<QString>("destroyers");
        // ---- must go inplace
        QTest::newRow("CGemv into an AllocEmpty (beta = 0)") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{gemv(allocEmpty(b, DType::Float64, {5}), one(b), mat(b, "A", 5, 3), vec(b, "x", 3), zero(b))};
        }) << "CGemv{inplace} d={0: [0]}";
        QTest::newRow("CGer into an intermediate") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{ger(exp(mat(b, "A", 5, 3)), b.constant(0.5), vec(b, "x", 5), vec(b, "y", 3))};
        }) << "CGer{destructive} d={0: [0]}";
        QTest::newRow("Gemm into an intermediate") << BuildFn([](GraphBuilder& b) {
            Var z = exp(mat(b, "Z", 4, 2));
            return std::vector<Var>{gemm(z, b.constant(0.7), mat(b, "X", 4, 3), mat(b, "Y", 3, 2), b.constant(-1.5))};
        }) << "Gemm{inplace} d={0: [0]}";
        // ---- must not
        QTest::newRow("y is a graph input") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{gemv(vec(b, "y", 5), one(b), mat(b, "A", 5, 3), vec(b, "x", 3), one(b))};
        }) << "";
        QTest::newRow("y is read after the update") << BuildFn([](GraphBuilder& b) {
            Var y = exp(vec(b, "y", 5));
            return std::vector<Var>{gemv(y, one(b), mat(b, "A", 5, 3), vec(b, "x", 3), one(b)) + y};
        }) << "Add d={0: [0]}";
        QTest::newRow("A is also a graph output") << BuildFn([](GraphBuilder& b) {
            Var a = exp(mat(b, "A", 5, 3));
            return std::vector<Var>{a, ger(a, b.constant(0.5), vec(b, "x", 5), vec(b, "y", 3))};
        }) << "";
    }
    void blasInplace() {
        QFETCH(BuildFn, graph);
        QFETCH(QString, destroyers);
        std::vector<std::unique_ptr<GraphPass>> list;
        list.push_back(makeInplaceElemwise());
        list.push_back(makeInplaceBlas());
        RewriteOutcome r = rewriteAndCompare(*buildGraph(graph), passes(std::move(list)));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(QString::fromStdString(destroyersText(*r.after)), destroyers);
        QVERIFY(destroyHandlerProblems(*r.after).empty());
    }

    void blockwiseInplace_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<QString>("destroyMap");
        QTest::newRow("Solve overwrites a computed b") << BuildFn([](GraphBuilder& b) {
            Var as = b.input("As", DType::Float64, {3, 4, 4});
            return std::vector<Var>{linalg::solve(conditioned(b, as), exp(b.input("bs", DType::Float64, {3, 4})), "gen", false, false, 1)};
        }) << "{0: [1]}";
        QTest::newRow("Solve overwrites A when b is an input") << BuildFn([](GraphBuilder& b) {
            Var as = b.input("As", DType::Float64, {3, 4, 4});
            return std::vector<Var>{linalg::solve(conditioned(b, as), b.input("bs", DType::Float64, {3, 4}), "gen", false, false, 1)};
        }) << "{0: [0]}";
        QTest::newRow("Cholesky overwrites A") << BuildFn([](GraphBuilder& b) {
            Var as = b.input("As", DType::Float64, {2, 3, 3});
            Var spd = matmul(conditioned(b, as), transpose(conditioned(b, as), std::vector<int>{0, 2, 1}));
            return std::vector<Var>{linalg::cholesky(spd)};
        }) << "{0: [0]}";
        QTest::newRow("inputs are graph inputs") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{linalg::solve(b.input("As", DType::Float64, {3, 4, 4}), b.input("bs", DType::Float64, {3, 4}), "gen",
                                                  false, false, 1)};
        }) << "{}";
        QTest::newRow("a broadcast b is not overwritten") << BuildFn([](GraphBuilder& b) {
            Var as = b.input("As", DType::Float64, {3, 4, 4});
            Var bs = exp(b.input("bs", DType::Float64, {1, 4}));
            return std::vector<Var>{linalg::solve(as, bs, "gen", false, false, 1)};
        }) << "{}";
        QTest::newRow("MatrixInverse has no inplace form") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{linalg::inv(conditioned(b, b.input("As", DType::Float64, {2, 3, 3})))};
        }) << "{}";
    }
    void blockwiseInplace() {
        QFETCH(BuildFn, graph);
        QFETCH(QString, destroyMap);
        std::vector<std::unique_ptr<GraphPass>> list;
        list.push_back(makeBlockwiseInplace());
        RewriteOutcome r = rewriteAndCompare(*buildGraph(graph), passes(std::move(list)));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        std::string got = "{}";
        for (const Node* n : r.after->nodes())
            if (n->op().kind() == OpKind::Blockwise && !n->op().destroyMap().empty()) got = aliasMapText(n->op().destroyMap());
        QCOMPARE(QString::fromStdString(got), destroyMap);
        QVERIFY(destroyHandlerProblems(*r.after).empty());
    }

    void unbatchedBlockwise_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<bool>("fires");
        QTest::newRow("inverse of a matrix") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{linalg::inv(conditioned(b, mat(b, "A", 4, 4)))};
        }) << true;
        QTest::newRow("Matmul with length-1 batch dims") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{matmul(b.input("x", DType::Float64, {1, 3, 4}), b.input("y", DType::Float64, {1, 4, 2}))};
        }) << true;
        QTest::newRow("Solve of one system, b padded") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{linalg::solve(conditioned(b, mat(b, "A", 3, 3)), vec(b, "b", 3))};
        }) << true;
        QTest::newRow("a batch of three") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{linalg::inv(conditioned(b, b.input("As", DType::Float64, {3, 4, 4})))};
        }) << false;
        QTest::newRow("a batch of unknown length") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{linalg::det(conditioned(b, b.input("As", DType::Float64, {kUnknownDim, 2, 2})))};
        }) << false;
    }
    void unbatchedBlockwise() {
        QFETCH(BuildFn, graph);
        QFETCH(bool, fires);
        RewriteOutcome r = rewriteAndCompare(*buildGraph(graph), singleRewrite(localUselessUnbatchedBlockwise()));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(count(*r.after, OpKind::Blockwise), fires ? 0 : 1);
        QCOMPARE(r.stepsOf("local_useless_unbatched_blockwise"), fires ? 1 : 0);
    }

    // The failure PyTensor's compiled graphs hit: CGer{destructive}(Alloc(0.0, 4, 3), ...)
    // had its Alloc folded into a constant, which the CGer then destroyed.
    void constantFoldingKeepsDestroyedBuffers_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<int>("allocsLeft");
        QTest::newRow("CGer{destructive} on Alloc(0.0, 4, 3)") << BuildFn([](GraphBuilder& b) {
            Var buf = alloc(b.constant(0.0), {4, 3});
            return std::vector<Var>{ger(buf, b.constant(1.0), vec(b, "x", 4), vec(b, "y", 3), true)};
        }) << 1;
        QTest::newRow("CGer{non-destructive} on an Alloc: PyTensor's list") << BuildFn([](GraphBuilder& b) {
            Var buf = alloc(b.constant(0.0), {4, 3});
            return std::vector<Var>{ger(buf, b.constant(1.0), vec(b, "x", 4), vec(b, "y", 3), false)};
        }) << 1;
        QTest::newRow("a batched Blockwise lifts its Alloc") << BuildFn([](GraphBuilder& b) {
            Var twos = alloc(b.constant(2.0), {3, 1, 1});
            return std::vector<Var>{linalg::solve(twos, b.input("bs", DType::Float64, {3, 1}), "gen", false, false, 1)};
        }) << 1;
        QTest::newRow("Gemm's z is not in PyTensor's list: folded") << BuildFn([](GraphBuilder& b) {
            Var z = alloc(b.constant(0.0), {4, 2});
            return std::vector<Var>{gemm(z, b.constant(1.0), mat(b, "X", 4, 3), mat(b, "Y", 3, 2), b.constant(1.0))};
        }) << 0;
    }
    void constantFoldingKeepsDestroyedBuffers() {
        QFETCH(BuildFn, graph);
        QFETCH(int, allocsLeft);
        RewriteOutcome r = rewriteAndCompare(*buildGraph(graph), singleRewrite(constantFolding()));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(count(*r.after, OpKind::Alloc), allocsLeft);
        QVERIFY(destroyHandlerProblems(*r.after).empty());
    }

    // A node of constants whose value a destroyer overwrites stays computed, whatever its op.
    void constantFoldingKeepsAnyDestroyedValue() {
        GraphBuilder b;
        Var c = exp(b.constant(NDArray::fromVector(DType::Float64, {3}, {1, 2, 3})));
        auto g = b.finish({gemv(c, one(b), mat(b, "A", 3, 2), vec(b, "x", 2), one(b), true)});
        RewriteOutcome r = rewriteAndCompare(*g, singleRewrite(constantFolding()));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(count(*r.after, OpKind::Elemwise), 1);
        QVERIFY(destroyHandlerProblems(*r.after).empty());
    }

    // PyTensor's Scan lets its step overwrite a mit_mot tap that is also an output tap
    // (an input with an update): the grad loop's CGemv{inplace} on its accumulator.
    void scanMutableInputs() {
        ScanInfo info;
        info.nSeqs = 3;
        info.mitMotInTaps = {{0, 1}};
        info.mitMotOutTaps = {{1}};
        info.nNitSot = 1;
        info.nNonSeqs = 2;
        QCOMPARE(scanMutableInnerInputs(info), (std::vector<int>{4}));  // tap 1, after 3 sequences and tap 0
        info.mitMotOutTaps = {{0, 1}};
        QCOMPARE(scanMutableInnerInputs(info), (std::vector<int>{3, 4}));
        ScanInfo plain;
        plain.nSitSot = 1;
        QVERIFY(scanMutableInnerInputs(plain).empty());

        GraphBuilder b;
        Var acc = vec(b, "acc", 3), other = vec(b, "other", 3);
        auto g = b.finish({gemv(acc, one(b), mat(b, "W", 3, 2), vec(b, "v", 2), one(b), true),
                           gemv(other, one(b), mat(b, "U", 3, 2), vec(b, "u", 2), one(b), true)});
        QCOMPARE(static_cast<int>(destroyHandlerProblems(*g).size()), 2);
        const auto problems = destroyHandlerProblems(*g, {0});  // acc is mutable, other is not
        QCOMPARE(static_cast<int>(problems.size()), 1);
        QVERIFY2(problems[0].find("graph input 'other'") != std::string::npos, problems[0].c_str());
    }

    // The whole inplace phase of FAST_RUN on a batched solve: blockwise_inplace first,
    // then the unbatched Blockwise becomes its (inplace) core op.
    void inplacePhaseOrder() {
        GraphBuilder b;
        Var a = conditioned(b, mat(b, "A", 3, 3));
        auto g = b.finish({linalg::solve(a, exp(vec(b, "b", 3)))});
        std::vector<std::unique_ptr<GraphPass>> list;
        list.push_back(makeBlockwiseInplace());
        list.push_back(std::make_unique<EquilibriumDriver>("unbatched", std::vector<std::string>{"fast_run"},
                                                           std::vector<const NodeRewrite*>{&localUselessUnbatchedBlockwise()}));
        RewriteOutcome r = rewriteAndCompare(*g, passes(std::move(list)));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(count(*r.after, OpKind::Blockwise), 0);
        QCOMPARE(QString::fromStdString(destroyersText(*r.after)).left(40), QString("Solve{assume_a='gen', lower=False, check"));
        QVERIFY(destroyersText(*r.after).find("overwrite_b=True} d={0: [1]}") != std::string::npos);
    }
};

TL_TEST_SUITE(TestRwLinalg)
#include "tst_rw_linalg.moc"
