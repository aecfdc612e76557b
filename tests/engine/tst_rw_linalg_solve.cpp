// The rewrites that change how a linear system is solved, as PyTensor's:
// reuse_decomposition_multiple_solves (the solves of one matrix share one LU or
// Cholesky factorization) and batched_vector_b_solve_to_matrix_b_solve (a batch of
// vector right-hand sides becomes one matrix of them). Each case, firing or not, is
// run before and after on the same inputs.
#include "TestSuites.h"
#include "LinalgRewriteTestUtil.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Linalg.h"
#include "builder/Math.h"
#include "ops/Blockwise.h"
#include "ops/PropsOp.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;
constexpr int64_t N = 4;

Var in(GraphBuilder& b, const char* name, StaticShape s) { return b.input(name, DType::Float64, std::move(s)); }


const std::map<QString, GraphFn>& graphs() {
    using namespace linalg;
    static const std::map<QString, GraphFn> m = {
        {"gen: a vector and a matrix", [] {
             GraphBuilder b;
             Var a = in(b, "A", {N, N});
             return b.finish({solve(a, in(b, "b", {N})), solve(a, in(b, "B", {N, 3}))});
         }},
        {"gen: A and its transpose", [] {
             GraphBuilder b;
             Var a = in(b, "A", {N, N});
             return b.finish({solve(a, in(b, "b", {N})), solve(transpose(a), in(b, "c", {N}))});
         }},
        {"gen: A and an ExpandDims of it", [] {
             GraphBuilder b;
             Var a = in(b, "A", {N, N});
             return b.finish({solve(a, in(b, "b", {N})), solve(expandDims(a, 0), in(b, "B", {2, N, 3}))});
         }},
        {"gen: one solve reads another", [] {
             GraphBuilder b;
             Var a = in(b, "A", {N, N});
             return b.finish({solve(a, solve(a, in(b, "b", {N})))});
         }},
        {"gen: batched A", [] {
             GraphBuilder b;
             Var a = in(b, "A", {3, N, N});
             Var rhs = in(b, "b", {3, N});
             return b.finish({solve(a, rhs, "gen", false, false, 1), solve(transpose(a, std::vector<int>{0, 2, 1}), rhs * 2.0, "gen", false, false, 1)});
         }},
        {"gen: batched b, one A", [] {
             GraphBuilder b;
             Var a = in(b, "A", {N, N});
             return b.finish({solve(a, in(b, "b", {5, N}), "gen", false, false, 1), solve(transpose(a), in(b, "c", {5, N}), "gen", false, false, 1)});
         }},
        {"gen: one solve broadcast over b's batch", [] {
             GraphBuilder b;
             return b.finish({solve(in(b, "A", {1, N, N}), in(b, "b", {5, N}), "gen", false, false, 1)});
         }},
        {"gen: one solve", [] {
             GraphBuilder b;
             return b.finish({solve(in(b, "A", {N, N}), in(b, "b", {N}))});
         }},
        {"pos: two solves", [] {
             GraphBuilder b;
             Var a = spdInput(b, "X", N);
             return b.finish({solve(a, in(b, "b", {N}), "pos", true), solve(a, in(b, "B", {N, 2}), "pos")});
         }},
        {"sym: two solves", [] {
             GraphBuilder b;
             Var a = spdInput(b, "X", N);
             return b.finish({solve(a, in(b, "b", {N}), "sym"), solve(a, in(b, "c", {N}), "sym")});
         }},
        {"gen and pos solves of one matrix", [] {
             GraphBuilder b;
             Var a = spdInput(b, "X", N);
             return b.finish({solve(a, in(b, "b", {N})), solve(a, in(b, "c", {N}), "pos")});
         }},
        {"b_ndim=1 batch, one A", [] {
             GraphBuilder b;
             return b.finish({solve(in(b, "A", {N, N}), in(b, "b", {5, N}), "gen", false, false, 1)});
         }},
        {"b_ndim=1 batch of batches", [] {
             GraphBuilder b;
             return b.finish({solveTriangular(in(b, "A", {N, N}), in(b, "b", {2, 3, N}), 0, true, false, 1)});
         }},
        {"b_ndim=1 batch, broadcast A", [] {
             GraphBuilder b;
             Var c = cholesky(spdInput(b, "X", N));
             return b.finish({choSolve(expandDims(c, 0), true, in(b, "b", {5, N}), 1)});
         }},
        {"b_ndim=1, A batched too", [] {
             GraphBuilder b;
             return b.finish({solve(in(b, "A", {3, N, N}), in(b, "b", {3, N}), "gen", false, false, 1)});
         }},
        {"b_ndim=2 batch", [] {
             GraphBuilder b;
             return b.finish({solve(in(b, "A", {N, N}), in(b, "b", {5, N, 2}), "gen", false, false, 2)});
         }},
    };
    return m;
}

RewriteOutcome checked(const QString& graph, const Pipeline& pipeline) {
    auto g = graphs().at(graph)();
    return rewriteAndCompare(*g, pipeline, {}, 1, 1e-9, 1e-12);
}

} // namespace

class TestRewriteLinalgSolve : public QObject {
    Q_OBJECT
private slots:
    void reuseDecomposition_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("solves");  // Solve nodes left
        QTest::addColumn<int>("factors");  // LUFactor or Cholesky nodes
        QTest::newRow("solve(A, b), solve(A, B) -> one LUFactor") << "gen: a vector and a matrix" << 1 << 0 << 1;
        QTest::newRow("solve(A, b), solve(A.T, c): the transposed factor") << "gen: A and its transpose" << 1 << 0 << 1;
        QTest::newRow("a solve of ExpandDims(A) counts") << "gen: A and an ExpandDims of it" << 1 << 0 << 1;
        QTest::newRow("solve(A, solve(A, b))") << "gen: one solve reads another" << 1 << 0 << 1;
        QTest::newRow("batched A: Blockwise permutations") << "gen: batched A" << 1 << 0 << 1;
        QTest::newRow("batched b, one A: rows taken past full slices") << "gen: batched b, one A" << 1 << 0 << 1;
        QTest::newRow("one solve whose A is broadcast over b's batch") << "gen: one solve broadcast over b's batch" << 1 << 0 << 1;
        QTest::newRow("one plain solve: kept") << "gen: one solve" << 0 << 1 << 0;
        QTest::newRow("pos: one Cholesky, two CholeskySolves") << "pos: two solves" << 1 << 0 << 1;
        QTest::newRow("sym: not factored") << "sym: two solves" << 0 << 2 << 0;
        QTest::newRow("gen and pos of one matrix: neither has a partner") << "gen and pos solves of one matrix" << 0 << 2 << 0;
    }
    void reuseDecomposition() {
        QFETCH(QString, graph);
        QFETCH(int, steps);
        QFETCH(int, solves);
        QFETCH(int, factors);
        RewriteOutcome out = checked(graph, singleRewrite(reuseDecompositionMultipleSolves()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("reuse_decomposition_multiple_solves"), steps);
        QCOMPARE(countCore(*out.after, OpKind::Solve), solves);
        QCOMPARE(countCore(*out.after, OpKind::LUFactor) + countCore(*out.after, OpKind::Cholesky) -
                     countCore(*out.before, OpKind::Cholesky),
                 factors);
    }

    // A positive definite solve's factor is the triangle the first solve names.
    void choleskyTriangle() {
        RewriteOutcome out = checked("pos: two solves", singleRewrite(reuseDecompositionMultipleSolves()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        for (const Node* n : out.after->nodes()) {
            if (n->kind() != OpKind::Blockwise) continue;
            const Op& core = static_cast<const BlockwiseOp&>(n->op()).core();
            if (core.kind() == OpKind::Cholesky || core.kind() == OpKind::CholeskySolve)
                QVERIFY(static_cast<const PropsOp&>(core).boolProp("lower"));
        }
    }

    void vectorToMatrixB_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("reshapes");
        QTest::newRow("Solve(A, b: (5, n)) -> Solve{b_ndim=2}(A, b.T).T") << "b_ndim=1 batch, one A" << 1 << 0;
        QTest::newRow("b: (2, 3, n) flattened and restored") << "b_ndim=1 batch of batches" << 1 << 2;
        QTest::newRow("A: (1, n, n) squeezed (CholeskySolve)") << "b_ndim=1 batch, broadcast A" << 1 << 0;
        QTest::newRow("A batched too: kept") << "b_ndim=1, A batched too" << 0 << 0;
        QTest::newRow("b unbatched: kept") << "gen: one solve" << 0 << 0;
        QTest::newRow("b_ndim=2: kept") << "b_ndim=2 batch" << 0 << 0;
    }
    void vectorToMatrixB() {
        QFETCH(QString, graph);
        QFETCH(int, steps);
        QFETCH(int, reshapes);
        RewriteOutcome out = checked(graph, singleRewrite(batchedVectorBSolveToMatrixBSolve()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("batched_vector_b_solve_to_matrix_b_solve"), steps);
        QCOMPARE(countOps(*out.after, OpKind::Reshape), reshapes);
        if (steps == 0) return;
        for (const Node* n : out.after->nodes()) {
            if (n->kind() != OpKind::Blockwise) continue;
            const auto& op = static_cast<const BlockwiseOp&>(n->op());
            if (op.core().kind() != OpKind::Cholesky) QCOMPARE(op.signature().text, std::string("(m,m),(m,n)->(m,n)"));
        }
    }

    // FAST_RUN: the factor is computed once and the solves reach LAPACK's triangular
    // solves, as in PyTensor's compiled function.
    void pipeline_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("solves");
        QTest::addColumn<int>("factors");
        QTest::newRow("gen: A and its transpose") << "gen: A and its transpose" << 0 << 1;
        QTest::newRow("gen: batched b") << "gen: batched b, one A" << 0 << 1;
        QTest::newRow("pos") << "pos: two solves" << 0 << 1;
        QTest::newRow("one solve") << "gen: one solve" << 1 << 0;
    }
    void pipeline() {
        QFETCH(QString, graph);
        QFETCH(int, solves);
        QFETCH(int, factors);
        RewriteOutcome out = checked(graph, Pipeline::fastRun());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countCore(*out.after, OpKind::Solve), solves);
        QCOMPARE(countCore(*out.after, OpKind::LUFactor) + countCore(*out.after, OpKind::Cholesky), factors);
    }
};

TL_TEST_SUITE(TestRewriteLinalgSolve)
#include "tst_rw_linalg_solve.moc"
