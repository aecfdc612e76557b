// The linear-algebra rewrites that replace a factorization or a solve by elementwise
// work, as PyTensor's: scalar_solve_to_division (a solve with a 1x1 matrix is a
// division) and local_det_chol (a determinant whose matrix's Cholesky factor is
// computed anyway is the squared product of the factor's diagonal). Each case,
// firing or not, is run before and after on the same inputs.
#include "TestSuites.h"
#include "LinalgRewriteTestUtil.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Linalg.h"
#include "builder/Math.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;
using namespace tl::linalg;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;
constexpr int64_t N = 4;

Var in(GraphBuilder& b, const char* name, StaticShape s) { return b.input(name, DType::Float64, std::move(s)); }

// a*a + 0.5: a 1x1 "matrix" that is never 0 (or negative, for a Cholesky factor's square).
Var positive(GraphBuilder& b, const char* name, StaticShape s) {
    Var a = in(b, name, std::move(s));
    return a * a + 0.5;
}

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"solve 1x1, vector b", [] {
             GraphBuilder b;
             return b.finish({solve(positive(b, "A", {1, 1}), in(b, "b", {1}))});
         }},
        {"solve 1x1, matrix b", [] {
             GraphBuilder b;
             return b.finish({solve(positive(b, "A", {1, 1}), in(b, "B", {1, 3}))});
         }},
        {"solve 1x1, batched", [] {
             GraphBuilder b;
             return b.finish({solve(positive(b, "A", {5, 1, 1}), in(b, "B", {5, 1, 2}))});
         }},
        {"solve_triangular 1x1", [] {
             GraphBuilder b;
             return b.finish({solveTriangular(positive(b, "A", {1, 1}), in(b, "b", {1}), 0, true)});
         }},
        {"solve_triangular 1x1, unit diagonal", [] {
             GraphBuilder b;
             return b.finish({solveTriangular(positive(b, "A", {1, 1}), in(b, "B", {1, 2}), 0, true, true)});
         }},
        {"cho_solve 1x1", [] {
             GraphBuilder b;
             return b.finish({choSolve(positive(b, "C", {1, 1}), true, in(b, "b", {1}))});
         }},
        {"solve 4x4", [] {
             GraphBuilder b;
             return b.finish({solve(spdInput(b, "X", N), in(b, "b", {N}))});
         }},
        {"solve, length unknown", [] {
             GraphBuilder b;
             Var a = b.input("A", DType::Float64, {kUnknownDim, kUnknownDim});
             return b.finish({solve(a * a + 0.5, b.input("b", DType::Float64, {kUnknownDim}))});
         }},
        {"det and cholesky", [] {
             GraphBuilder b;
             Var s = spdInput(b, "X", N);
             return b.finish({det(s), cholesky(s)});
         }},
        {"batched det and cholesky", [] {
             GraphBuilder b;
             Var x = in(b, "X", {3, N, N});
             Var s = matmul(x, transpose(x, std::vector<int>{0, 2, 1})) + 4.0;
             return b.finish({det(s), cholesky(s, false)});
         }},
        {"det alone", [] {
             GraphBuilder b;
             return b.finish({det(spdInput(b, "X", N))});
         }},
        {"det, cholesky of another matrix", [] {
             GraphBuilder b;
             return b.finish({det(spdInput(b, "X", N)), cholesky(spdInput(b, "Y", N))});
         }},
    };
    return m;
}

RewriteOutcome checked(const QString& graph, const Pipeline& pipeline) {
    auto g = graphs().at(graph)();
    return rewriteAndCompare(*g, pipeline, {}, 1, 1e-9, 1e-12);
}

} // namespace

class TestRewriteLinalgScalarDet : public QObject {
    Q_OBJECT
private slots:
    void scalarSolve_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<bool>("fires");
        for (const char* g : {"solve 1x1, vector b", "solve 1x1, matrix b", "solve 1x1, batched", "solve_triangular 1x1",
                              "solve_triangular 1x1, unit diagonal", "cho_solve 1x1"})
            QTest::newRow(g) << g << true;
        QTest::newRow("solve 4x4") << "solve 4x4" << false;
        QTest::newRow("solve, length unknown") << "solve, length unknown" << false;
    }
    void scalarSolve() {
        QFETCH(QString, graph);
        QFETCH(bool, fires);
        RewriteOutcome out = checked(graph, singleRewrite(scalarSolveToDivision()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("scalar_solve_to_division"), fires ? 1 : 0);
        const int solves = countCore(*out.after, OpKind::Solve) + countCore(*out.after, OpKind::SolveTriangular) +
                           countCore(*out.after, OpKind::CholeskySolve);
        QCOMPARE(solves, fires ? 0 : 1);
    }

    void detChol_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<bool>("fires");
        QTest::newRow("det and cholesky") << "det and cholesky" << true;
        QTest::newRow("batched, upper factor") << "batched det and cholesky" << true;
        QTest::newRow("det alone") << "det alone" << false;
        QTest::newRow("cholesky of another matrix") << "det, cholesky of another matrix" << false;
    }
    void detChol() {
        QFETCH(QString, graph);
        QFETCH(bool, fires);
        RewriteOutcome out = checked(graph, singleRewrite(localDetChol()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_det_chol"), fires ? 1 : 0);
        QCOMPARE(countCore(*out.after, OpKind::Det), fires ? 0 : 1);
    }

    // The whole pipeline keeps both and the numbers.
    void pipeline_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("det");
        QTest::addColumn<int>("solves");
        QTest::newRow("det and cholesky") << "det and cholesky" << 0 << 0;
        QTest::newRow("cho_solve 1x1") << "cho_solve 1x1" << 0 << 0;
        QTest::newRow("det alone") << "det alone" << 1 << 0;
    }
    void pipeline() {
        QFETCH(QString, graph);
        QFETCH(int, det);
        QFETCH(int, solves);
        RewriteOutcome out = checked(graph, Pipeline::fastRun());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countCore(*out.after, OpKind::Det), det);
        QCOMPARE(countCore(*out.after, OpKind::CholeskySolve), solves);
    }
};

TL_TEST_SUITE(TestRewriteLinalgScalarDet)
#include "tst_rw_linalg_scalar_det.moc"
