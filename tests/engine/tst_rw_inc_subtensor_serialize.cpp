// local_IncSubtensor_serialize: the increments in a sum become one chain on the sum
// of the rest, as PyTensor's rewrite. Each case is run before and after on seeded
// inputs; in the pipeline the zeros of a gradient-like sum then add away.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/AdvancedIndexing.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;

Var in(GraphBuilder& b, const char* name, StaticShape s) { return b.input(name, DType::Float64, std::move(s)); }

// x[rows] += y (AdvancedIncSubtensor).
Var incRows(Var x, std::vector<double> rows, Var y) {
    GraphBuilder& b = x.builder();
    const int64_t n = static_cast<int64_t>(rows.size());
    Var ilist = b.constant(NDArray::fromVector(DType::Int64, {n}, rows));
    return incSubtensor(getItem(x, {AnyIdx(ilist)}), y);
}

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"gradient of a[0:2] and a[2:4]", [] {
             GraphBuilder b;
             Var a = in(b, "a", {4}), g = in(b, "g", {2}), h = in(b, "h", {2});
             Var zeros = zerosLike(a);
             return b.finish({incSubtensor(zeros, g, {Slice{0, 2}}) + incSubtensor(zeros, h, {Slice{2, 4}})});
         }},
        {"a plain term beside an increment", [] {
             GraphBuilder b;
             Var x = in(b, "x", {4}), base = in(b, "b", {4}), c = in(b, "c", {2});
             return b.finish({x + incSubtensor(base, c, {Slice{std::nullopt, 2}})});
         }},
        {"rows of a matrix by an index list", [] {
             GraphBuilder b;
             Var x = in(b, "x", {3, 4}), base = in(b, "b", {3, 4}), c = in(b, "c", {2, 4});
             return b.finish({x + incRows(base, {0, 2}, c)});
         }},
        {"a set, not an increment", [] {
             GraphBuilder b;
             Var x = in(b, "x", {4}), base = in(b, "b", {4}), c = in(b, "c", {2});
             return b.finish({x + setSubtensor(base, c, {Slice{std::nullopt, 2}})});
         }},
        {"an increment read twice", [] {
             GraphBuilder b;
             Var x = in(b, "x", {4}), base = in(b, "b", {4}), c = in(b, "c", {2});
             Var inc = incSubtensor(base, c, {Slice{std::nullopt, 2}});
             return b.finish({x + inc, inc * 2.0});
         }},
        {"an increment smaller than the sum", [] {
             GraphBuilder b;
             Var x = in(b, "x", {3, 4}), base = in(b, "b", {1, 4}), c = in(b, "c", {2});
             return b.finish({x + incSubtensor(base, c, {0, Slice{std::nullopt, 2}})});
         }},
    };
    return m;
}

// The op of the graph's first output, and of what its first input is, down to a graph input.
QStringList chain(const Graph& g) {
    QStringList ops;
    for (const Variable* v = g.output(0); v->owner(); v = v->owner()->input(0))
        ops << QString::fromStdString(v->owner()->op().name());
    return ops;
}

} // namespace

class TestIncSubtensorSerialize : public QObject {
    Q_OBJECT
private slots:
    void serialize_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("steps");
        QTest::addColumn<QStringList>("chainAfter");
        QTest::newRow("two increments of zeros") << "gradient of a[0:2] and a[2:4]" << 1
                                                 << QStringList{"IncSubtensor{start:stop}", "IncSubtensor{start:stop}", "Add", "Alloc"};
        QTest::newRow("x + inc(b, c)") << "a plain term beside an increment" << 1
                                       << QStringList{"IncSubtensor{:stop}", "Add"};
        QTest::newRow("AdvancedIncSubtensor") << "rows of a matrix by an index list" << 1
                                              << QStringList{"AdvancedIncSubtensor", "Add"};
        QTest::newRow("not a set_subtensor") << "a set, not an increment" << 0 << QStringList{"Add"};
        QTest::newRow("not an increment with another reader") << "an increment read twice" << 0 << QStringList{"Add"};
        QTest::newRow("not an increment the sum broadcasts") << "an increment smaller than the sum" << 0
                                                               << QStringList{"Add"};
    }
    void serialize() {
        QFETCH(QString, graph);
        QFETCH(int, steps);
        QFETCH(QStringList, chainAfter);
        auto g = graphs().at(graph)();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localIncSubtensorSerialize()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_IncSubtensor_serialize"), steps);
        QCOMPARE(chain(*out.after), chainAfter);
        QCOMPARE(out.after->output(0)->type(), g->output(0)->type());
    }

    // In the pipeline the chain starts from one array of zeros: the sum of the two
    // zeros folds away, and no Add is left.
    void zerosAddAwayInThePipeline() {
        auto g = graphs().at("gradient of a[0:2] and a[2:4]")();
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QVERIFY(out.stepsOf("local_IncSubtensor_serialize") >= 1);
        QCOMPARE(countOps(*out.after, OpKind::IncSubtensor), 2);
        QCOMPARE(countOps(*out.after, OpKind::Elemwise), 0);
    }
};

TL_TEST_SUITE(TestIncSubtensorSerialize)
#include "tst_rw_inc_subtensor_serialize.moc"
