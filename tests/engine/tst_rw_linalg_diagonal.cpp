// The rewrites of matrices that are diagonal by construction, as PyTensor's:
// rewrite_det_diag_to_prod_diag, rewrite_inv_diag_to_diag_reciprocal and
// rewrite_cholesky_diag_to_sqrt_diag, for pt.diag(v) and for products with an identity
// (a scalar, a row, a matrix, a batch). Each case, firing or not, is run before and
// after on the same inputs; the pipeline cases also meet an identity of constant size
// after constant folding has made it a constant.
#include "TestSuites.h"
#include "LinalgRewriteTestUtil.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/ArrayOps.h"
#include "builder/Indexing.h"
#include "builder/Linalg.h"
#include "builder/Math.h"
#include "ops/Elemwise.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;
using namespace tl::linalg;

namespace {

using MatrixFn = std::function<Var(GraphBuilder&)>;
constexpr int64_t N = 4;

// x*x + 0.5 of an input of shape `s`: positive entries, so every diagonal form
// factors, inverts and has a determinant away from 0.
Var positive(GraphBuilder& b, const char* name, StaticShape s) {
    Var x = b.input(name, DType::Float64, std::move(s));
    return x * x + 0.5;
}

// The matrices the three rewrites are offered; `diagonal` says whether it is one
// they recognise.
struct MatrixCase {
    MatrixFn make;
    bool diagonal;
};
const std::map<QString, MatrixCase>& matrices() {
    static const std::map<QString, MatrixCase> m = {
        {"diag(v)", {[](GraphBuilder& b) { return diag(positive(b, "v", {N})); }, true}},
        {"s * eye", {[](GraphBuilder& b) { return positive(b, "s", {}) * eye(b, N); }, true}},
        {"row * eye", {[](GraphBuilder& b) { return positive(b, "v", {N}) * eye(b, N); }, true}},
        {"column * eye", {[](GraphBuilder& b) { return eye(b, N) * expandDims(positive(b, "v", {N}), {1}); }, true}},
        {"X * eye", {[](GraphBuilder& b) { return positive(b, "X", {N, N}) * eye(b, N); }, true}},
        {"batch X * eye", {[](GraphBuilder& b) { return positive(b, "X", {3, N, N}) * eye(b, N); }, true}},
        {"X * eye(k=1) + I", {[](GraphBuilder& b) {
             return positive(b, "X", {N, N}) * eye(b, N, std::nullopt, 1) + eye(b, N) * 2.0;
         }, false}},
        {"(X * X) * eye", {[](GraphBuilder& b) {
             Var x = positive(b, "X", {N, N});
             return x * x * eye(b, N);
         }, true}},
        {"mul(X, X, eye)", {[](GraphBuilder& b) {
             Var x = positive(b, "X", {N, N});
             return b.apply1(makeElemwise(ScalarOpCode::Mul), {x, x, eye(b, N)});
         }, false}},
        {"spd", {[](GraphBuilder& b) { return spdInput(b, "X", N); }, false}},
    };
    return m;
}

using Apply = std::function<Var(Var)>;
const std::map<QString, std::pair<Apply, const NodeRewrite*>>& rewrites() {
    static const std::map<QString, std::pair<Apply, const NodeRewrite*>> m = {
        {"det", {[](Var a) { return det(a); }, &rewriteDetDiagToProdDiag()}},
        {"inv", {[](Var a) { return inv(a); }, &rewriteInvDiagToDiagReciprocal()}},
        {"pinv", {[](Var a) { return pinv(a); }, &rewriteInvDiagToDiagReciprocal()}},
        {"cholesky", {[](Var a) { return cholesky(a); }, &rewriteCholeskyDiagToSqrtDiag()}},
    };
    return m;
}

const char* rewriteName(const QString& op) {
    if (op == "det") return "rewrite_det_diag_to_prod_diag";
    if (op == "cholesky") return "rewrite_cholesky_diag_to_sqrt_diag";
    return "rewrite_inv_diag_to_diag_reciprocal";
}

std::unique_ptr<Graph> build(const QString& op, const QString& matrix) {
    GraphBuilder b;
    Var m = matrices().at(matrix).make(b);
    return b.finish({rewrites().at(op).first(m)});
}

OpKind coreKind(const QString& op) {
    if (op == "det") return OpKind::Det;
    if (op == "cholesky") return OpKind::Cholesky;
    return op == "inv" ? OpKind::MatrixInverse : OpKind::MatrixPinv;
}

// `pipeline`: canonicalize first makes (X * X) * eye the one product mul(X, X, eye),
// which is kept.
void addRows(bool pipeline) {
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("matrix");
    QTest::addColumn<bool>("fires");
    for (const auto& [op, unused] : rewrites())
        for (const auto& [matrix, c] : matrices())
            QTest::newRow(qPrintable(op + " of " + matrix))
                << op << matrix << (c.diagonal && !(pipeline && matrix == "(X * X) * eye"));
}

} // namespace

class TestRewriteLinalgDiagonal : public QObject {
    Q_OBJECT
private slots:
    void single_data() { addRows(false); }
    void single() {
        QFETCH(QString, op);
        QFETCH(QString, matrix);
        QFETCH(bool, fires);
        RewriteOutcome out = rewriteAndCompare(*build(op, matrix), singleRewrite(*rewrites().at(op).second), {}, 1, 1e-9, 1e-12);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf(rewriteName(op)), fires ? 1 : 0);
        QCOMPARE(countCore(*out.after, coreKind(op)), fires ? 0 : 1);
    }

    // A 1x1 matrix's Cholesky factor is its square root, whatever it is built from.
    void choleskyOfOneByOne() {
        GraphBuilder b;
        auto g = b.finish({cholesky(positive(b, "A", {2, 1, 1}), false)});
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(rewriteCholeskyDiagToSqrtDiag()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countCore(*out.after, OpKind::Cholesky), 0);
    }

    // Through the pipeline an identity of constant size is folded into a constant before
    // the rewrites reach its reader; they recognise the constant identity too.
    void pipeline_data() { addRows(true); }
    void pipeline() {
        QFETCH(QString, op);
        QFETCH(QString, matrix);
        QFETCH(bool, fires);
        RewriteOutcome out = rewriteAndCompare(*build(op, matrix), Pipeline::fastRun(), {}, 1, 1e-9, 1e-12);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countCore(*out.after, coreKind(op)), fires ? 0 : 1);
    }
};

TL_TEST_SUITE(TestRewriteLinalgDiagonal)
#include "tst_rw_linalg_diagonal.moc"
