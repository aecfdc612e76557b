// The rewrites of matrices assembled from smaller ones, as PyTensor's:
// rewrite_diag_blockdiag, rewrite_det_blockdiag, rewrite_diag_kronecker,
// rewrite_det_kronecker (canonicalize, stabilize) and local_lift_through_linalg
// (specialize), for pt.linalg.block_diag and pt.linalg.kron. Each case, firing or not,
// is run before and after on the same inputs: among those that do not fire are the
// forms where PyTensor's rewrite would change the value (an off-main diagonal, blocks
// that are not square, a batch whose product PyTensor's determinant would multiply).
#include "TestSuites.h"
#include "LinalgRewriteTestUtil.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/ArrayOps.h"
#include "builder/Indexing.h"
#include "builder/Linalg.h"
#include "builder/Math.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>
#include <optional>

using namespace tl;
using namespace tl::test;
using namespace tl::linalg;

namespace {

// An input of static shape `s` (a plain matrix, not square when the lengths differ).
Var matrixInput(GraphBuilder& b, const char* name, StaticShape s) { return b.input(name, DType::Float64, std::move(s)); }

// A batch of 2 well-conditioned 3 x 3 matrices: X X^T + 3 I per batch element.
Var spdBatch(GraphBuilder& b) {
    Var x = b.input("Xb", DType::Float64, {2, 3, 3});
    return matmul(x, transpose(x, std::vector<int>{0, 2, 1})) + eye(b, 3) * 3.0;
}

Var blocks(GraphBuilder& b) { return blockDiag({spdInput(b, "A", 3), spdInput(b, "B", 2), spdInput(b, "C", 4)}); }
Var kronOfSpd(GraphBuilder& b) { return kron(spdInput(b, "A", 3), spdInput(b, "B", 2)); }

struct Case {
    std::function<Var(GraphBuilder&)> make;  // the graph's one output
    const NodeRewrite* rewrite;
    const char* rewriteName;
    bool fires;
};

const std::map<QString, Case>& cases() {
    static const std::map<QString, Case> m = {
        // rewrite_diag_blockdiag
        {"diag of block_diag", {[](GraphBuilder& b) { return diag(blocks(b)); }, &rewriteDiagBlockdiag(), "rewrite_diag_blockdiag", true}},
        {"diag(k=1) of block_diag",
         {[](GraphBuilder& b) { return diag(blocks(b), 1); }, &rewriteDiagBlockdiag(), "rewrite_diag_blockdiag", false}},
        {"diag of block_diag of non-square blocks",
         {[](GraphBuilder& b) { return diag(blockDiag({matrixInput(b, "P", {2, 3}), matrixInput(b, "Q", {3, 2})})); },
          &rewriteDiagBlockdiag(), "rewrite_diag_blockdiag", false}},
        {"diagonal of a batched block_diag",
         {[](GraphBuilder& b) { return diagonal(blockDiag({spdBatch(b), spdInput(b, "B", 2)}), 0, 1, 2); },
          &rewriteDiagBlockdiag(), "rewrite_diag_blockdiag", false}},
        // rewrite_det_blockdiag
        {"det of block_diag", {[](GraphBuilder& b) { return det(blocks(b)); }, &rewriteDetBlockdiag(), "rewrite_det_blockdiag", true}},
        {"det of a batched block_diag",
         {[](GraphBuilder& b) { return det(blockDiag({spdBatch(b), spdInput(b, "B", 2)})); }, &rewriteDetBlockdiag(),
          "rewrite_det_blockdiag", false}},
        {"det of block_diag of non-square blocks",
         {[](GraphBuilder& b) { return det(blockDiag({matrixInput(b, "P", {2, 3}), matrixInput(b, "Q", {3, 2})})); },
          &rewriteDetBlockdiag(), "rewrite_det_blockdiag", false}},
        {"det of a plain matrix",
         {[](GraphBuilder& b) { return det(spdInput(b, "A", 3)); }, &rewriteDetBlockdiag(), "rewrite_det_blockdiag", false}},
        // rewrite_diag_kronecker
        {"diag of kron", {[](GraphBuilder& b) { return diag(kronOfSpd(b)); }, &rewriteDiagKronecker(), "rewrite_diag_kronecker", true}},
        {"diag of kron of integer matrices",
         {[](GraphBuilder& b) {
              return diag(kron(b.input("P", DType::Int32, {3, 3}), b.input("Q", DType::Int64, {2, 2})));
          },
          &rewriteDiagKronecker(), "rewrite_diag_kronecker", true}},
        {"det of kron of integer matrices",
         {[](GraphBuilder& b) { return det(kron(b.input("P", DType::Int32, {2, 2}), b.input("Q", DType::Int64, {2, 2}))); },
          &rewriteDetKronecker(), "rewrite_det_kronecker", true}},
        {"diag of block_diag of mixed dtypes",
         {[](GraphBuilder& b) {
              return diag(blockDiag({b.input("P", DType::Float32, {2, 2}), b.input("Q", DType::Int16, {3, 3})}));
          },
          &rewriteDiagBlockdiag(), "rewrite_diag_blockdiag", true}},
        {"diag(k=-1) of kron",
         {[](GraphBuilder& b) { return diag(kronOfSpd(b), -1); }, &rewriteDiagKronecker(), "rewrite_diag_kronecker", false}},
        {"diag of kron of non-square factors",
         {[](GraphBuilder& b) { return diag(kron(matrixInput(b, "P", {2, 3}), matrixInput(b, "Q", {3, 2}))); },
          &rewriteDiagKronecker(), "rewrite_diag_kronecker", false}},
        {"diag of kron of vector and matrix",
         {[](GraphBuilder& b) { return diag(kron(matrixInput(b, "v", {3}), spdInput(b, "B", 2))); }, &rewriteDiagKronecker(),
          "rewrite_diag_kronecker", false}},
        // rewrite_det_kronecker
        {"det of kron", {[](GraphBuilder& b) { return det(kronOfSpd(b)); }, &rewriteDetKronecker(), "rewrite_det_kronecker", true}},
        {"det of kron of float32",
         {[](GraphBuilder& b) {
              Var x = b.input("X", DType::Float32, {3, 3});
              Var y = b.input("Y", DType::Float32, {2, 2});
              return det(kron(x + eye(b, 3, std::nullopt, 0, DType::Float32) * 4.0f,
                              y + eye(b, 2, std::nullopt, 0, DType::Float32) * 4.0f));
          },
          &rewriteDetKronecker(), "rewrite_det_kronecker", true}},
        {"det of kron of non-square factors",
         {[](GraphBuilder& b) { return det(kron(matrixInput(b, "P", {2, 3}), matrixInput(b, "Q", {3, 2}))); },
          &rewriteDetKronecker(), "rewrite_det_kronecker", false}},
        // local_lift_through_linalg
        {"inv of block_diag", {[](GraphBuilder& b) { return inv(blocks(b)); }, &localLiftThroughLinalg(), "local_lift_through_linalg", true}},
        {"cholesky of block_diag",
         {[](GraphBuilder& b) { return cholesky(blocks(b)); }, &localLiftThroughLinalg(), "local_lift_through_linalg", true}},
        {"upper cholesky of block_diag",
         {[](GraphBuilder& b) { return cholesky(blocks(b), false); }, &localLiftThroughLinalg(), "local_lift_through_linalg", true}},
        {"pinv of block_diag",
         {[](GraphBuilder& b) { return pinv(blocks(b)); }, &localLiftThroughLinalg(), "local_lift_through_linalg", true}},
        {"inv of a batched block_diag",
         {[](GraphBuilder& b) { return inv(blockDiag({spdBatch(b), spdInput(b, "B", 2)})); }, &localLiftThroughLinalg(),
          "local_lift_through_linalg", true}},
        {"inv of kron", {[](GraphBuilder& b) { return inv(kronOfSpd(b)); }, &localLiftThroughLinalg(), "local_lift_through_linalg", true}},
        {"cholesky of kron",
         {[](GraphBuilder& b) { return cholesky(kronOfSpd(b)); }, &localLiftThroughLinalg(), "local_lift_through_linalg", true}},
        {"pinv of kron of non-square factors",
         {[](GraphBuilder& b) { return pinv(kron(matrixInput(b, "P", {2, 3}), matrixInput(b, "Q", {3, 2}))); },
          &localLiftThroughLinalg(), "local_lift_through_linalg", true}},
        {"inv of kron of three-axis arrays",
         {[](GraphBuilder& b) { return inv(kron(spdBatch(b), expandDims(spdInput(b, "B", 2), 0))); },
          &localLiftThroughLinalg(), "local_lift_through_linalg", false}},
        {"inv of a plain matrix",
         {[](GraphBuilder& b) { return inv(spdInput(b, "A", 3)); }, &localLiftThroughLinalg(), "local_lift_through_linalg", false}},
    };
    return m;
}

// Diagonals, determinants, inverses and factorizations reading a block_diag or a kron.
int readersOfAssembled(const Graph& g) {
    auto coreKind = [](const Node& n) {
        return n.kind() == OpKind::Blockwise ? static_cast<const BlockwiseOp&>(n.op()).core().kind() : n.kind();
    };
    int count = 0;
    for (const Node* node : g.nodes()) {
        const OpKind k = coreKind(*node);
        if (k != OpKind::ExtractDiag && k != OpKind::Det && k != OpKind::MatrixInverse && k != OpKind::Cholesky &&
            k != OpKind::MatrixPinv)
            continue;
        const Node* owner = node->input(0)->owner();
        count += owner && (coreKind(*owner) == OpKind::BlockDiagonal || owner->kind() == OpKind::KroneckerProduct);
    }
    return count;
}

} // namespace

class TestRewriteLinalgStructured : public QObject {
    Q_OBJECT
private slots:
    void single_data() {
        QTest::addColumn<QString>("name");
        for (const auto& [name, c] : cases()) QTest::newRow(qPrintable(name)) << name;
    }
    void single() {
        QFETCH(QString, name);
        const Case& c = cases().at(name);
        GraphBuilder b;
        auto g = b.finish({c.make(b)});
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(*c.rewrite), {}, 1, 1e-6, 1e-9);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf(c.rewriteName), c.fires ? 1 : 0);
    }

    // With the factors' lengths unknown to the graph, the determinant of a kron takes
    // them from the factors at run time; the diagonal is not rewritten (a factor could
    // be non-square).
    void kronOfUnknownShapes() {
        GraphBuilder b;
        Var x = b.input("X", DType::Float64, {kUnknownDim, kUnknownDim});
        Var y = b.input("Y", DType::Float64, {kUnknownDim, kUnknownDim});
        Var k = kron(dot(x, transpose(x)), dot(y, transpose(y)));
        auto g = b.finish({det(k), diag(k)});
        const std::vector<NDArray> in{NDArray::fromVector(DType::Float64, {3, 3}, {2, 1, 0, -1, 3, 1, 0.5, 0, 2}),
                                      NDArray::fromVector(DType::Float64, {2, 2}, {1, 2, -1, 1.5})};
        RewriteOutcome det = rewriteAndCompare(*g, singleRewrite(rewriteDetKronecker()), {}, 1, 1e-6, 1e-9, &in);
        QVERIFY2(det.mismatch.empty(), det.mismatch.c_str());
        QCOMPARE(det.stepsOf("rewrite_det_kronecker"), 1);
        RewriteOutcome diagonal = rewriteAndCompare(*g, singleRewrite(rewriteDiagKronecker()), {}, 1, 1e-6, 1e-9, &in);
        QVERIFY2(diagonal.mismatch.empty(), diagonal.mismatch.c_str());
        QCOMPARE(diagonal.stepsOf("rewrite_diag_kronecker"), 0);
    }

    // FAST_RUN on every firing case at once: no determinant, inverse or factorization
    // reads the assembled matrix any more, and the values stay.
    void pipeline() {
        GraphBuilder b;
        Var d = blocks(b);
        Var k = kronOfSpd(b);
        auto g = b.finish({det(d), diag(d), det(k), diag(k), inv(d), cholesky(k), pinv(d), inv(k)});
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 1, 1e-6, 1e-9);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(readersOfAssembled(*out.before), 8);
        QCOMPARE(readersOfAssembled(*out.after), 0);
    }

    // The blocks' determinants (rewrite_det_blockdiag, canonicalize) meet the blocks'
    // Cholesky factors lifted out of the whole one's (specialize) and become products
    // of their diagonals (local_det_chol): the driver offers a determinant again when
    // its matrix gains a reader, as PyTensor's repeated sweeps do.
    void determinantsUseLiftedFactors() {
        GraphBuilder b;
        Var d = blocks(b);
        auto g = b.finish({det(d), cholesky(d)});
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 1, 1e-6, 1e-9);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("rewrite_det_blockdiag"), 1);
        QCOMPARE(out.stepsOf("local_lift_through_linalg"), 1);
        QCOMPARE(out.stepsOf("local_det_chol"), 3);
        QCOMPARE(countCore(*out.after, OpKind::Det), 0);
        QCOMPARE(countCore(*out.after, OpKind::Cholesky), 3);
    }

    // The Cholesky factors of a block_diag and of a kron of the same matrices are lifted
    // in specialize into factors of the same blocks twice; the merge after fusion
    // (PyTensor's merge2) leaves one node per block.
    void liftedFactorsAreOneNode() {
        GraphBuilder b;
        Var a = spdInput(b, "A", 3);
        Var c = spdInput(b, "B", 2);
        auto g = b.finish({cholesky(blockDiag({a, c})), cholesky(kron(a, c))});
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 1, 1e-6, 1e-9);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_lift_through_linalg"), 2);
        QCOMPARE(countCore(*out.after, OpKind::Cholesky), 2);
    }
};

TL_TEST_SUITE(TestRewriteLinalgStructured)
#include "tst_rw_linalg_structured.moc"
