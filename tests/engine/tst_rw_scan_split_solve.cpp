// scan_split_non_sequence_decomposition_and_solve: a loop step's solve whose matrix
// comes from non_sequences only is split into a factorization and solves with it, and
// scan_push_out_non_seq (which now takes nodes of several outputs, as LUFactor is)
// moves the factorization out of the loop. Each case, split or not, is run before
// and after on the same inputs.
#include "TestSuites.h"
#include "LinalgRewriteTestUtil.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Linalg.h"
#include "builder/Math.h"
#include "builder/Scan.h"
#include "ops/ScanOp.h"
#include "rewrite/EquilibriumDriver.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;
using namespace tl::linalg;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;
constexpr int64_t N = 3;
constexpr int64_t kSteps = 5;

Var eye(GraphBuilder& b, double diagonal) {
    std::vector<double> v(N * N, 0.0);
    for (int64_t i = 0; i < N; ++i) v[static_cast<size_t>(i * (N + 1))] = diagonal;
    return b.constant(NDArray::fromVector(DType::Float64, {N, N}, v));
}

// A loop over the rows of fs with state x and non_sequences A and K; `step` gets
// (s, f_t, x, A, K) and returns x' and a per-step output.
using Step = std::function<std::pair<Var, Var>(GraphBuilder&, Var f, Var x, Var a, Var k)>;
std::unique_ptr<Graph> loop(const Step& step) {
    GraphBuilder b;
    Var fs = b.input("fs", DType::Float64, {kSteps, N});
    Var x0 = b.input("x0", DType::Float64, {N});
    Var a = b.input("A", DType::Float64, {N, N});
    Var k = b.input("K", DType::Float64, {N, N});
    ScanResult r = scan(b, [&](GraphBuilder& s, const std::vector<Var>& in) -> StepResult {
        auto [next, out] = step(s, in[0], in[1], in[2], in[3]);
        return {{next, out}};
    }, ScanArgs{.sequences = {fs}, .outputsInfo = {OutputInfo(x0), OutputInfo::none()}, .nonSequences = {a, k}});
    return b.finish({r.outputs[0], r.outputs[1]});
}

// I - 0.1 A: well conditioned for A's seeded values.
Var implicitEuler(GraphBuilder& s, Var a) { return eye(s, 1.0) - 0.1 * a; }
// K K^T + 3 I: positive definite.
Var spdOf(GraphBuilder& s, Var k) { return dot(k, transpose(k)) + eye(s, 3.0); }

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"gen: matrix of a non_sequence", [] {
             return loop([](GraphBuilder& s, Var f, Var x, Var a, Var) {
                 Var next = solve(implicitEuler(s, a), x + f);
                 return std::pair{next, sum(next)};
             });
         }},
        {"pos: matrix of a non_sequence", [] {
             return loop([](GraphBuilder& s, Var f, Var x, Var, Var k) {
                 return std::pair{x + solve(spdOf(s, k), f, "pos"), sum(x)};
             });
         }},
        {"gen: the matrix and its transpose", [] {
             return loop([](GraphBuilder& s, Var f, Var x, Var a, Var) {
                 Var m = implicitEuler(s, a);
                 return std::pair{solve(m, x + f), solve(transpose(m), f)};
             });
         }},
        {"gen and pos in one step", [] {
             return loop([](GraphBuilder& s, Var f, Var x, Var a, Var k) {
                 return std::pair{solve(implicitEuler(s, a), x + f), solve(spdOf(s, k), f, "pos")};
             });
         }},
        {"matrix read from the state", [] {
             return loop([](GraphBuilder& s, Var f, Var x, Var a, Var) {
                 Var m = implicitEuler(s, a) + 0.01 * outer(x, x);
                 return std::pair{solve(m, x + f), sum(x)};
             });
         }},
        {"matrix read from the sequence", [] {
             return loop([](GraphBuilder& s, Var f, Var x, Var a, Var) {
                 Var m = implicitEuler(s, a) + 0.01 * outer(f, f);
                 return std::pair{solve(m, x), sum(x)};
             });
         }},
        {"tridiagonal", [] {
             return loop([](GraphBuilder& s, Var f, Var x, Var a, Var) {
                 return std::pair{solve(implicitEuler(s, a), x + f, "tridiagonal"), sum(x)};
             });
         }},
        {"sym: not factored", [] {
             return loop([](GraphBuilder& s, Var f, Var x, Var, Var k) {
                 return std::pair{x + solve(spdOf(s, k), f, "sym"), sum(x)};
             });
         }},
    };
    return m;
}

std::unique_ptr<Graph> build(const QString& name) {
    auto it = graphs().find(name);
    if (it == graphs().end()) throw std::logic_error("no test graph " + name.toStdString());
    return it->second();
}

const Node* theLoop(const Graph& g) {
    for (const Node* n : g.nodes())
        if (n->kind() == OpKind::Scan) return n;
    return nullptr;
}
const Graph& stepOf(const Graph& g) { return *static_cast<const ScanOp&>(theLoop(g)->op()).inner(); }

// The split, then the push-out that takes the factorization out, as scan_pushout runs them.
Pipeline splitAndPushOut() {
    return singlePass("scan_pushout", std::make_unique<EquilibriumDriver>(
                                          "scan_pushout", std::vector<std::string>{"scan"},
                                          std::vector<const NodeRewrite*>{&scanSplitNonSequenceDecompositionAndSolve(),
                                                                          &scanPushOutNonSeq()}));
}

} // namespace

class TestRewriteScanSplitSolve : public QObject {
    Q_OBJECT
private slots:
    void split_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("factors");  // LUFactor + Cholesky in the step after the split
        QTest::addColumn<int>("solves");   // Solve left in the step
        for (const char* g : {"gen: matrix of a non_sequence", "pos: matrix of a non_sequence",
                              "gen: the matrix and its transpose"})
            QTest::newRow(g) << g << 1 << 0;
        QTest::newRow("gen and pos") << "gen and pos in one step" << 2 << 0;
        for (const char* g : {"matrix read from the state", "matrix read from the sequence", "tridiagonal",
                              "sym: not factored"})
            QTest::newRow(g) << g << 0 << 1;
    }
    void split() {
        QFETCH(QString, graph);
        QFETCH(int, factors);
        QFETCH(int, solves);
        RewriteOutcome out = rewriteAndCompare(*build(graph), singleRewrite(scanSplitNonSequenceDecompositionAndSolve()),
                                               {}, 1, 1e-10);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("scan_split_non_sequence_decomposition_and_solve"), factors > 0 ? 1 : 0);
        const Graph& step = stepOf(*out.after);
        QCOMPARE(countCore(step, OpKind::LUFactor) + countCore(step, OpKind::Cholesky), factors);
        QCOMPARE(countCore(step, OpKind::Solve), solves);
    }

    // After the split the factorization depends on non_sequences only, so it leaves
    // the loop: the step keeps only the solves with the factor.
    void factorizationLeavesTheLoop_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("factors");  // outside the loop
        QTest::newRow("gen") << "gen: matrix of a non_sequence" << 1;
        QTest::newRow("pos") << "pos: matrix of a non_sequence" << 1;
        QTest::newRow("transpose") << "gen: the matrix and its transpose" << 1;
        QTest::newRow("gen and pos") << "gen and pos in one step" << 2;
        QTest::newRow("state") << "matrix read from the state" << 0;
    }
    void factorizationLeavesTheLoop() {
        QFETCH(QString, graph);
        QFETCH(int, factors);
        RewriteOutcome out = rewriteAndCompare(*build(graph), splitAndPushOut(), {}, 1, 1e-10);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        const Graph& step = stepOf(*out.after);
        QCOMPARE(countCore(step, OpKind::LUFactor) + countCore(step, OpKind::Cholesky), 0);
        QCOMPARE(countCore(*out.after, OpKind::LUFactor) + countCore(*out.after, OpKind::Cholesky), factors);
    }

    // The whole pipeline: the loop's step ends with triangular solves only.
    void pipeline() {
        RewriteOutcome out = rewriteAndCompare(*build("gen and pos in one step"), Pipeline::fastRun(), {}, 1, 1e-10);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        const Graph& step = stepOf(*out.after);
        QCOMPARE(countCore(step, OpKind::Solve), 0);
        QCOMPARE(countCore(step, OpKind::LUFactor) + countCore(step, OpKind::Cholesky), 0);
        QCOMPARE(countCore(*out.after, OpKind::LUFactor), 1);
        QCOMPARE(countCore(*out.after, OpKind::Cholesky), 1);
    }
};

TL_TEST_SUITE(TestRewriteScanSplitSolve)
#include "tst_rw_scan_split_solve.moc"
