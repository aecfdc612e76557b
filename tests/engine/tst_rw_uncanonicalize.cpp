// The uncanonicalize phase: local_max_to_min turns pt.min's -max(-x) into Min, and
// leaves every near miss alone. Each case runs before and after; the int16 case shows
// the one place the values change (the wrap of -(-32768)).
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "ops/Reduce.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;

Var matrix(GraphBuilder& b, DType d = DType::Float64) { return b.input("x", d, {3, 4}); }

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"min(x)", [] { GraphBuilder b; return b.finish({min(matrix(b))}); }},
        {"min(x, axis=1)", [] { GraphBuilder b; return b.finish({min(matrix(b), std::vector<int>{1})}); }},
        {"min of int64, axis=0", [] { GraphBuilder b; return b.finish({min(matrix(b, DType::Int64), std::vector<int>{0})}); }},
        {"-max(x)", [] { GraphBuilder b; return b.finish({neg(max(matrix(b)))}); }},
        {"max(-x)", [] { GraphBuilder b; return b.finish({max(neg(matrix(b)))}); }},
        {"-sum(-x)", [] { GraphBuilder b; return b.finish({neg(sum(neg(matrix(b))))}); }},
        {"min of uint8 (invert, not neg)", [] { GraphBuilder b; return b.finish({min(matrix(b, DType::UInt8))}); }},
    };
    return m;
}

// Reduction classes of `g`'s nodes, sorted ("Max,Min").
QString reductions(const Graph& g) {
    QStringList names;
    for (const Node* n : g.nodes())
        if (n->op().kind() == OpKind::Reduce) names << reduceKindName(static_cast<const ReduceOp&>(n->op()).reduceKind());
    names.sort();
    return names.join(',');
}

} // namespace

class TestUncanonicalize : public QObject {
    Q_OBJECT
private slots:
    void maxToMin_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<QString>("after");  // reductions after
        QTest::addColumn<int>("steps");
        QTest::newRow("min(x) -> Min") << "min(x)" << "Min" << 1;
        QTest::newRow("min(x, axis=1) -> Min{axis=1}") << "min(x, axis=1)" << "Min" << 1;
        QTest::newRow("int64 min -> Min") << "min of int64, axis=0" << "Min" << 1;
        QTest::newRow("not -max(x)") << "-max(x)" << "Max" << 0;
        QTest::newRow("not max(-x)") << "max(-x)" << "Max" << 0;
        QTest::newRow("not -sum(-x)") << "-sum(-x)" << "Sum" << 0;
        QTest::newRow("not an unsigned min") << "min of uint8 (invert, not neg)" << "Max" << 0;
    }

    void maxToMin() {
        QFETCH(QString, graph);
        QFETCH(QString, after);
        QFETCH(int, steps);
        auto g = graphs().at(graph)();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localMaxToMin()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(reductions(*out.after), after);
        QCOMPARE(out.stepsOf("local_max_to_min"), steps);
        if (steps) QCOMPARE(countOps(*out.after, OpKind::Elemwise), 0);  // both negations gone
    }

    // int16: -max(-x) of [0, 5, -32768] wraps to 0; Min gives -32768, as PyTensor's FAST_RUN.
    void int16MinimumNoLongerWraps() {
        GraphBuilder b;
        auto g = b.finish({min(b.input("u", DType::Int16, {3}))});
        const std::vector<NDArray> inputs = {NDArray::fromVector(DType::Int16, {3}, {0, 5, -32768})};
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localMaxToMin()), {}, 1, 1e-12, 0.0, &inputs);
        QCOMPARE(out.stepsOf("local_max_to_min"), 1);
        QCOMPARE(out.outputsBefore.at(0).flatGet(0), 0.0);
        QCOMPARE(out.outputsAfter.at(0).flatGet(0), -32768.0);
    }

    // The FAST_RUN pipeline runs the phase after specialize. (A product such as
    // min(x) * 2 is not a case: canonicalize folds the outer neg into the constant.)
    void fastRunHasThePhase() {
        GraphBuilder b;
        auto g = b.finish({min(b.input("x", DType::Float64, {3, 4}), std::vector<int>{0})});
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_max_to_min"), 1);
        QCOMPARE(reductions(*out.after), QString("Min"));
    }
};

TL_TEST_SUITE(TestUncanonicalize)
#include "tst_rw_uncanonicalize.moc"
