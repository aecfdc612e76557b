// A replacement that knows less of a shape than the variable it replaces goes in
// through SpecifyShape, for every rewrite the pipeline runs (PyTensor's
// FunctionGraph.replace and TensorType.convert_variable); trace replay applies the
// recorded edits without converting again. And the Reshapes rewrites build carry the
// static shape their entries fold to, so they need no such conversion; nor does a
// Blockwise unbatched into its core op, which keeps the Blockwise's static dims.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Linalg.h"
#include "builder/Math.h"
#include "ops/Blockwise.h"
#include "ops/Convolve1d.h"
#include "ops/SpecifyShape.h"
#include "rewrite/ConvertVariable.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

// out = SpecifyShape(x: (?,), 4) * 2: the SpecifyShape's output is (4,), x is not.
std::unique_ptr<Graph> specifiedVector() {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {kUnknownDim});
    Var s = b.apply1(makeSpecifyShape(), {x, b.constant(4, DType::Int64)});
    return b.finish({s * 2.0});
}

Node* ownerOfKind(const Graph& g, OpKind kind) {
    for (Node* n : g.nodes())
        if (n->kind() == kind) return n;
    return nullptr;
}

// Blockwise{Convolve1d, (n),(k),()->(o)}, as pt.signal.convolve1d builds it, of two
// vectors: no batch dims, so local_useless_unbatched_blockwise makes it the core op.
Var convolve(Var x, Var k, Var mode) {
    return x.builder().apply1(makeBlockwise(makeConvolve1d(), "(n),(k),()->(o)"), {x, k, mode});
}

std::unique_ptr<Graph> unbatchedConvolution(bool full) {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {12});
    Var k = b.input("k", DType::Float64, {4});
    Var mode = b.constant(full ? 1.0 : 0.0, DType::Bool);
    return b.finish({convolve(x * 2.0, k, mode) + 1.0});
}

} // namespace

class TestConvertReplacement : public QObject {
    Q_OBJECT
private slots:
    // With the rewrite layer's converter, replacing the (4,) variable with x puts
    // SpecifyShape(x, 4) in its place; the reader keeps its (4,) input.
    void lessSpecificReplacementIsConverted() {
        auto g = specifiedVector();
        Node* spec = ownerOfKind(*g, OpKind::SpecifyShape);
        Node* mul = g->output(0)->owner();
        Rewriter rw(*g);
        rw::convertLessSpecificReplacements(rw);
        rw.replace(spec->output(0), spec->input(0));
        QCOMPARE(countOps(*g, OpKind::SpecifyShape), 1);
        QCOMPARE(mul->input(0)->owner()->kind(), OpKind::SpecifyShape);
        QCOMPARE(mul->input(0)->type().shape, StaticShape{4});
        QCOMPARE(mul->input(0)->owner()->input(1)->type().dtype, DType::Int8);
        QVERIFY(g->validate().empty());
    }

    // Without one (the trace replayer's Rewriter), replace takes the variable as it is.
    void withoutConverterReplacementIsTakenAsIs() {
        auto g = specifiedVector();
        Node* spec = ownerOfKind(*g, OpKind::SpecifyShape);
        Variable* x = spec->input(0);
        Node* mul = g->output(0)->owner();
        Rewriter rw(*g);
        rw.replace(spec->output(0), x);
        QCOMPARE(countOps(*g, OpKind::SpecifyShape), 0);
        QCOMPARE(mul->input(0), x);
    }

    // A replacement at least as specific is never wrapped.
    void moreSpecificReplacementIsNotConverted() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {kUnknownDim});
        Var y = b.input("y", DType::Float64, {4});
        auto g = b.finish({x * 2.0, y});
        Node* mul = g->output(0)->owner();
        Rewriter rw(*g);
        rw::convertLessSpecificReplacements(rw);
        rw.replace(mul->input(0), g->output(1));
        QCOMPARE(countOps(*g, OpKind::SpecifyShape), 0);
        QCOMPARE(mul->input(0), g->output(1));
    }

    // PyTensor's Convolve1d reads its mode through as_scalar (a ScalarFromTensor, no
    // constant), and the core node keeps the static length its Blockwise had (PyTensor's
    // Blockwise took its core dims from the core op's make_node): nothing to convert.
    void unbatchedConvolutionKeepsItsLength_data() {
        QTest::addColumn<bool>("full");
        QTest::addColumn<int64_t>("length");
        QTest::newRow("full: 12 + 4 - 1") << true << int64_t{15};
        QTest::newRow("valid: 12 - 4 + 1") << false << int64_t{9};
    }
    void unbatchedConvolutionKeepsItsLength() {
        QFETCH(bool, full);
        QFETCH(int64_t, length);
        auto g = unbatchedConvolution(full);
        QCOMPARE(g->output(0)->type().shape, StaticShape{length});
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localUselessUnbatchedBlockwise()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_useless_unbatched_blockwise"), 1);
        QCOMPARE(countOps(*out.after, OpKind::Blockwise), 0);
        const Node* core = ownerOfKind(*out.after, OpKind::Convolve1d);
        QVERIFY(core);
        QCOMPARE(core->input(2)->owner()->kind(), OpKind::ScalarFromTensor);
        QCOMPARE(core->output(0)->type().shape, StaticShape{length});
        QCOMPARE(countOps(*out.after, OpKind::SpecifyShape), 0);
        QCOMPARE(out.after->output(0)->type(), g->output(0)->type());
    }

    // A mode that is not a constant leaves nothing to convert: the lengths agree.
    void unbatchedConvolutionOfUnknownModeNeedsNoConversion() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {12});
        Var k = b.input("k", DType::Float64, {4});
        Var mode = b.input("full", DType::Bool, {});
        auto g = b.finish({convolve(x, k, mode) + 1.0});
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localUselessUnbatchedBlockwise()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, OpKind::Convolve1d), 1);
        QCOMPARE(countOps(*out.after, OpKind::SpecifyShape), 0);
    }

    // x: (2, 3, 4) @ y: (4, 5) becomes Reshape(Dot(Reshape(x, [-1, 4]), y), [2, 3, 5]):
    // both Reshapes have the static shape PyTensor's make_node gives them, and the
    // result replaces the Matmul without SpecifyShape.
    void batchedMatmulReshapesAreStatic() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {2, 3, 4});
        Var y = b.input("y", DType::Float64, {4, 5});
        auto g = b.finish({matmul(x, y) * 2.0});
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localBatchedMatmulToCoreMatmulWithReshape()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_batched_matmul_to_core_matmul_with_reshape"), 1);
        QCOMPARE(countOps(*out.after, OpKind::SpecifyShape), 0);
        int reshapes = 0;
        for (const Node* n : out.after->nodes()) {
            if (n->kind() != OpKind::Reshape) continue;
            ++reshapes;
            const StaticShape& s = n->output(0)->type().shape;
            QVERIFY2(s == StaticShape({6, 4}) || s == StaticShape({2, 3, 5}), n->output(0)->type().toString().c_str());
        }
        QCOMPARE(reshapes, 2);
    }

    // The whole pipeline on the unbatched convolution: the core Convolve1d reading its
    // mode through ScalarFromTensor, as PyTensor compiles it, of the Blockwise's length.
    void wholePipeline() {
        auto g = unbatchedConvolution(true);
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, OpKind::Convolve1d), 1);
        QCOMPARE(countOps(*out.after, OpKind::ScalarFromTensor), 1);
        QCOMPARE(out.after->output(0)->type().shape, StaticShape{15});
    }
};

TL_TEST_SUITE(TestConvertReplacement)
#include "tst_rw_convert_replacement.moc"
