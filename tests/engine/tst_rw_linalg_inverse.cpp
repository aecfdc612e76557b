// The rewrites that take inverses and general solves to cheaper forms, as PyTensor's:
// inv_as_solve (a product with inv(A) is a solve), generic_solve_to_solve_triangular
// (a general solve with a Cholesky factor is a triangular one) and
// transinv_to_invtrans (inv(X).T is inv(X.T)). Each case, firing or not, is run
// before and after on the same inputs.
#include "TestSuites.h"
#include "LinalgRewriteTestUtil.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/ArrayOps.h"
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

Var in(GraphBuilder& b, const char* name, StaticShape s, DType dtype = DType::Float64) {
    return b.input(name, dtype, std::move(s));
}

// The Blockwise nodes of `g` whose core op is `kind`.
std::vector<const PropsOp*> coresOf(const Graph& g, OpKind kind) {
    std::vector<const PropsOp*> found;
    for (const Node* n : g.nodes())
        if (n->kind() == OpKind::Blockwise && static_cast<const BlockwiseOp&>(n->op()).core().kind() == kind)
            found.push_back(static_cast<const PropsOp*>(&static_cast<const BlockwiseOp&>(n->op()).core()));
    return found;
}

const std::map<QString, GraphFn>& graphs() {
    using namespace linalg;
    static const std::map<QString, GraphFn> m = {
        {"inv(A) . b", [] {
             GraphBuilder b;
             return b.finish({dot(inv(in(b, "A", {N, N})), in(b, "b", {N}))});
         }},
        {"inv(A) . B", [] {
             GraphBuilder b;
             return b.finish({dot(inv(in(b, "A", {N, N})), in(b, "B", {N, 3}))});
         }},
        {"B . inv(A)", [] {
             GraphBuilder b;
             return b.finish({dot(in(b, "B", {3, N}), inv(in(b, "A", {N, N})))});
         }},
        {"b . inv(A), b a vector", [] {
             GraphBuilder b;
             return b.finish({dot(in(b, "b", {N}), inv(in(b, "A", {N, N})))});
         }},
        {"pinv(A) . B", [] {
             GraphBuilder b;
             return b.finish({dot(pinv(in(b, "A", {N, N})), in(b, "B", {N, 3}))});
         }},
        {"float32 inv(A) . float64 B", [] {
             GraphBuilder b;
             return b.finish({dot(inv(in(b, "A", {N, N}, DType::Float32)), in(b, "B", {N, 3}))});
         }},
        {"solve(cholesky(S), b), lower", [] {
             GraphBuilder b;
             return b.finish({solve(cholesky(spdInput(b, "X", N)), in(b, "b", {N}))});
         }},
        {"solve(cholesky(S), B), upper", [] {
             GraphBuilder b;
             return b.finish({solve(cholesky(spdInput(b, "X", N), false), in(b, "B", {N, 2}))});
         }},
        {"solve{pos}(cholesky(S), b)", [] {
             GraphBuilder b;
             Var l = cholesky(spdInput(b, "X", N));
             return b.finish({solve(dot(l, transpose(l)), in(b, "b", {N}), "pos")});
         }},
        {"solve(S, b)", [] {
             GraphBuilder b;
             return b.finish({solve(spdInput(b, "X", N), in(b, "b", {N}))});
         }},
        {"inv(A).T", [] {
             GraphBuilder b;
             return b.finish({transpose(inv(in(b, "A", {N, N}))) * 2.0});
         }},
        {"batched inv(A) transposed", [] {
             GraphBuilder b;
             return b.finish({transpose(inv(in(b, "A", {3, N, N})), std::vector<int>{0, 2, 1}) * 2.0});
         }},
        {"batched inv(A), batch axis moved", [] {
             GraphBuilder b;
             return b.finish({transpose(inv(in(b, "A", {3, N, N})), std::vector<int>{1, 0, 2}) * 2.0});
         }},
        {"inv(inv(A))", [] {
             GraphBuilder b;
             return b.finish({inv(inv(in(b, "A", {N, N}))) * 2.0});
         }},
        {"pinv(inv(A))", [] {
             GraphBuilder b;
             return b.finish({pinv(inv(in(b, "A", {N, N}))) * 2.0});
         }},
        {"inv(pinv(R)), R not square", [] {
             GraphBuilder b;
             return b.finish({pinv(pinv(in(b, "R", {N, 3}))) * 2.0});
         }},
        {"inv(exp(A))", [] {
             GraphBuilder b;
             return b.finish({inv(exp(in(b, "A", {N, N}))) * 2.0});
         }},
        {"inv(eye)", [] {
             GraphBuilder b;
             return b.finish({inv(eye(b, N)) + in(b, "A", {N, N})});
         }},
        {"pinv(eye)", [] {
             GraphBuilder b;
             return b.finish({pinv(eye(b, N)) + in(b, "A", {N, N})});
         }},
        {"inv(eye with k=1 + I)", [] {
             GraphBuilder b;
             return b.finish({inv(eye(b, N, std::nullopt, 1) + eye(b, N)) + in(b, "A", {N, N})});
         }},
        {"exp(A).T", [] {
             GraphBuilder b;
             return b.finish({transpose(exp(in(b, "A", {N, N}))) * 2.0});
         }},
    };
    return m;
}

RewriteOutcome checked(const QString& graph, const Pipeline& pipeline) {
    auto g = graphs().at(graph)();
    return rewriteAndCompare(*g, pipeline, {}, 1, 1e-9, 1e-12);
}

} // namespace

class TestRewriteLinalgInverse : public QObject {
    Q_OBJECT
private slots:
    void invAsSolve_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("steps");
        QTest::newRow("Dot(inv(A), b) -> Solve(A, b), b_ndim 1") << "inv(A) . b" << 1;
        QTest::newRow("Dot(inv(A), B) -> Solve(A, B)") << "inv(A) . B" << 1;
        QTest::newRow("Dot(B, inv(A)) -> Solve(A.T, B.T).T") << "B . inv(A)" << 1;
        QTest::newRow("a vector times inv(A): kept") << "b . inv(A), b a vector" << 0;
        QTest::newRow("pinv: kept") << "pinv(A) . B" << 0;
        QTest::newRow("mixed dtypes: kept") << "float32 inv(A) . float64 B" << 0;
    }
    void invAsSolve() {
        QFETCH(QString, graph);
        QFETCH(int, steps);
        RewriteOutcome out = checked(graph, singleRewrite(tl::invAsSolve()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("inv_as_solve"), steps);
        QCOMPARE(countOps(*out.after, OpKind::Dot), 1 - steps);
        const auto solves = coresOf(*out.after, OpKind::Solve);
        QCOMPARE(static_cast<int>(solves.size()), steps);
        for (const PropsOp* s : solves) {
            QCOMPARE(s->stringProp("assume_a"), std::string("gen"));
            QCOMPARE(s->intProp("b_ndim"), graph == "inv(A) . b" ? 1 : 2);
        }
    }

    void solveToTriangular_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("steps");
        QTest::addColumn<bool>("lower");
        QTest::newRow("Solve(cholesky(S), b) -> SolveTriangular{lower}") << "solve(cholesky(S), b), lower" << 1 << true;
        QTest::newRow("an upper factor, a matrix b") << "solve(cholesky(S), B), upper" << 1 << false;
        QTest::newRow("assume_a='pos': kept") << "solve{pos}(cholesky(S), b)" << 0 << false;
        QTest::newRow("not a factor: kept") << "solve(S, b)" << 0 << false;
    }
    void solveToTriangular() {
        QFETCH(QString, graph);
        QFETCH(int, steps);
        QFETCH(bool, lower);
        RewriteOutcome out = checked(graph, singleRewrite(genericSolveToSolveTriangular()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("generic_solve_to_solve_triangular"), steps);
        const auto tri = coresOf(*out.after, OpKind::SolveTriangular);
        QCOMPARE(static_cast<int>(tri.size()), steps);
        for (const PropsOp* s : tri) {
            QCOMPARE(s->boolProp("lower"), lower);
            QVERIFY(!s->boolProp("unit_diagonal"));
            QCOMPARE(s->intProp("b_ndim"), graph.contains("B") ? 2 : 1);
        }
    }

    void transinv_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("steps");
        QTest::newRow("inv(A).T -> inv(A.T)") << "inv(A).T" << 1;
        QTest::newRow("batched: the last two axes swapped") << "batched inv(A) transposed" << 1;
        QTest::newRow("the batch axis moved: kept") << "batched inv(A), batch axis moved" << 0;
        QTest::newRow("the transpose of another op: kept") << "exp(A).T" << 0;
    }
    void transinv() {
        QFETCH(QString, graph);
        QFETCH(int, steps);
        RewriteOutcome out = checked(graph, singleRewrite(transinvToInvtrans()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("transinv_to_invtrans"), steps);
        if (steps == 0) return;
        // The inverse now reads the transpose.
        for (const Node* n : out.after->nodes())
            if (n->kind() == OpKind::Blockwise) QCOMPARE(n->input(0)->owner()->kind(), OpKind::DimShuffle);
    }

    void invInv_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("steps");
        QTest::newRow("inv(inv(A)) -> A") << "inv(inv(A))" << 1;
        QTest::newRow("pinv(inv(A)) -> A") << "pinv(inv(A))" << 1;
        QTest::newRow("pinv(pinv(R)) -> R, R (4, 3)") << "inv(pinv(R)), R not square" << 1;
        QTest::newRow("the inverse of another op: kept") << "inv(exp(A))" << 0;
    }
    void invInv() {
        QFETCH(QString, graph);
        QFETCH(int, steps);
        RewriteOutcome out = checked(graph, singleRewrite(rewriteInvInv()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("rewrite_inv_inv"), steps);
        QCOMPARE(countOps(*out.after, OpKind::Blockwise), steps ? 0 : 1);
    }

    void invEye_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("steps");
        QTest::newRow("inv(eye(n)) -> eye(n)") << "inv(eye)" << 1;
        QTest::newRow("pinv(eye(n)) -> eye(n)") << "pinv(eye)" << 1;
        QTest::newRow("an eye shifted off the diagonal: kept") << "inv(eye with k=1 + I)" << 0;
        QTest::newRow("not an eye: kept") << "inv(exp(A))" << 0;
    }
    void invEye() {
        QFETCH(QString, graph);
        QFETCH(int, steps);
        RewriteOutcome out = checked(graph, singleRewrite(rewriteInvEyeToEye()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("rewrite_inv_eye_to_eye"), steps);
        QCOMPARE(countOps(*out.after, OpKind::Blockwise), steps ? 0 : 1);
    }

    // FAST_RUN: inv(A) . B is solved without an inverse; a Cholesky factor's general
    // solve becomes a triangular one.
    void pipeline() {
        RewriteOutcome out = checked("B . inv(A)", Pipeline::fastRun());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("inv_as_solve"), 1);
        QCOMPARE(countOps(*out.after, OpKind::MatrixInverse), 0);
        QCOMPARE(countOps(*out.after, OpKind::Solve), 1);

        RewriteOutcome tri = checked("solve(cholesky(S), b), lower", Pipeline::fastRun());
        QVERIFY2(tri.mismatch.empty(), tri.mismatch.c_str());
        QCOMPARE(tri.stepsOf("generic_solve_to_solve_triangular"), 1);
        QCOMPARE(countOps(*tri.after, OpKind::Solve), 0);
        QCOMPARE(countOps(*tri.after, OpKind::SolveTriangular), 1);
    }
};

TL_TEST_SUITE(TestRewriteLinalgInverse)
#include "tst_rw_linalg_inverse.moc"
