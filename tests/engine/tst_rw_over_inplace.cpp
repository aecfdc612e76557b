// Rewrites on graphs that already overwrite values in place, as PyTensor's compiled
// graphs do (tensorlens rewrites those too, for `missed`): fusion, scan_merge and
// scan_merge_states must not make an overwritten value reach another reader. Each
// case runs before and after, and the pipeline's validation (destroy handler
// included) must pass; the same graph without the in-place reader is rewritten as usual.
#include "TestSuites.h"
#include "BuildCases.h"
#include "FusionTestUtil.h"
#include "RewriteCheck.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Scan.h"
#include "ops/Elemwise.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

// exp applied to `v`, overwriting it when `inPlace`.
Var expOf(GraphBuilder& b, Var v, bool inPlace) {
    return b.apply1(makeElemwise(ScalarOpCode::Exp, DType::Float64, inPlace ? InplacePattern{{0, 0}} : InplacePattern{}), {v});
}

// Two equal Composites of x with outputs (exp(-x), -x); the first one's -x is
// overwritten by an in-place exp, the second one's read. Fused into one output, the
// exp would overwrite what the graph's other output reads.
std::unique_ptr<Graph> siblingComposites(bool inPlace) {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {3});
    auto body = [](const std::vector<Var>& i) {
        Var n = -i[0];
        return std::vector<Var>{exp(n), n};
    };
    std::vector<Var> first = b.apply(compositeOp(1, body), {x});
    std::vector<Var> second = b.apply(compositeOp(1, body), {x});
    return b.finish({first[0], expOf(b, first[1], inPlace), expandDims(second[1], 0)});
}

// Two loops of 4 steps reading w and exp(w): the exp overwrites w when `inPlace`, so
// the loop reading w must run before it, and the one reading exp(w) after it.
std::unique_ptr<Graph> loopsAroundAnOverwrite(bool inPlace) {
    GraphBuilder b;
    Var s0 = b.input("s0", DType::Float64, {3});
    Var w = b.input("w", DType::Float64, {3}) * 1.0;  // a value of the graph's own, not an input
    auto step = [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[0] * 0.5 + a[1]}}; };
    ScanResult before = scan(b, step, ScanArgs{.outputsInfo = {OutputInfo(s0)}, .nonSequences = {w}, .nSteps = 4});
    Var e = expOf(b, w, inPlace);
    ScanResult after = scan(b, step, ScanArgs{.outputsInfo = {OutputInfo(s0)}, .nonSequences = {e}, .nSteps = 4});
    return b.finish({before.outputs[0], after.outputs[0]});
}

// One loop with two equal states from s0 (s' = s * 0.5 + 1); the second one's trace
// is overwritten by an in-place exp when `inPlace`, the first one's is a graph output.
std::unique_ptr<Graph> equalStatesOneOverwritten(bool inPlace) {
    GraphBuilder b;
    Var s0 = b.input("s0", DType::Float64, {3});
    ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
        return {{a[0] * 0.5 + 1.0, a[1] * 0.5 + 1.0}};
    }, ScanArgs{.outputsInfo = {OutputInfo(s0), OutputInfo(s0)}, .nSteps = 4});
    return b.finish({r.outputs[0], expOf(b, r.outputs[1], inPlace)});
}

int compositeOutputs(const Graph& g) {
    int n = 0;
    for (const Node* node : g.nodes())
        if (node->op().kind() == OpKind::Elemwise && static_cast<const Elemwise&>(node->op()).isComposite()) n += node->numOutputs();
    return n;
}

} // namespace

class TestRewritesOverInplace : public QObject {
    Q_OBJECT
private slots:
    // Fused, -x is computed once but given to the overwriter as an output of its own.
    void fusionGivesAnOverwrittenValueItsOwnOutput() {
        for (bool inPlace : {false, true}) {
            RewriteOutcome out = rewriteAndCompare(*siblingComposites(inPlace), singlePass("fusion", makeElemwiseFusion()));
            QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
            QCOMPARE(out.stepsOf("elemwise_fusion"), 1);
            QVERIFY(out.after->validate().empty());
            // exp(-x), -x for the ExpandDims, and -x once more for the overwriter.
            // (Without the overwrite, the exp joins the group instead.)
            if (inPlace) QCOMPARE(compositeOutputs(*out.after), 3);
        }
    }

    void scanMergeKeepsAReaderOfAnOverwrittenValueApart() {
        RewriteOutcome merged = rewriteAndCompare(*loopsAroundAnOverwrite(false), singlePass("scan_merge", makeScanMergePass()));
        QVERIFY2(merged.mismatch.empty(), merged.mismatch.c_str());
        QCOMPARE(countOps(*merged.after, OpKind::Scan), 1);
        RewriteOutcome apart = rewriteAndCompare(*loopsAroundAnOverwrite(true), singlePass("scan_merge", makeScanMergePass()));
        QVERIFY2(apart.mismatch.empty(), apart.mismatch.c_str());
        QCOMPARE(countOps(*apart.after, OpKind::Scan), 2);
        QVERIFY(apart.after->validate().empty());
    }

    void scanMergeStatesLeavesAnOverwrittenTraceApart() {
        const Pipeline mergeStates = singleRewrite(scanMergeStates());
        RewriteOutcome merged = rewriteAndCompare(*equalStatesOneOverwritten(false), mergeStates);
        QVERIFY2(merged.mismatch.empty(), merged.mismatch.c_str());
        QCOMPARE(merged.stepsOf("scan_merge_states"), 1);
        RewriteOutcome apart = rewriteAndCompare(*equalStatesOneOverwritten(true), mergeStates);
        QVERIFY2(apart.mismatch.empty(), apart.mismatch.c_str());
        QCOMPARE(apart.stepsOf("scan_merge_states"), 0);
        QVERIFY(apart.after->validate().empty());
    }
};

TL_TEST_SUITE(TestRewritesOverInplace)
#include "tst_rw_over_inplace.moc"
