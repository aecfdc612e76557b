// local_specify_shape_lift: a SpecifyShape of an Elemwise moves onto the input that
// decides the specified lengths, as PyTensor's rewrite; each graph run before and
// after (the seeded inputs give unknown dims length 4).
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "exec/Executor.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;
constexpr int64_t U = kUnknownDim;

Var in(GraphBuilder& b, const char* name, StaticShape s) { return b.input(name, DType::Float64, std::move(s)); }

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"one input", [] {
             GraphBuilder b;
             return b.finish({specifyShape(exp(in(b, "x", {U})), {4}) * 2.0});
         }},
        {"first input decides", [] {
             GraphBuilder b;
             Var x = in(b, "x", {U, U});
             Var y = in(b, "y", {1, U});
             return b.finish({specifyShape(x + y, {4, 4}) * 2.0});
         }},
        {"second input decides", [] {
             GraphBuilder b;
             return b.finish({specifyShape(in(b, "x", {1, U}) + in(b, "y", {U, U}), {4, 4}) * 2.0});
         }},
        {"a None dim", [] {
             GraphBuilder b;
             return b.finish({specifyShape(in(b, "x", {1, U}) * in(b, "y", {U, U}), {std::nullopt, 4}) * 2.0});
         }},
        {"two Elemwise deep", [] {
             GraphBuilder b;
             return b.finish({specifyShape(exp(log(in(b, "x", {U}))), {4}) * 2.0});
         }},
        {"a graph input", [] {
             GraphBuilder b;
             return b.finish({specifyShape(in(b, "x", {U}), {4}) * 2.0});
         }},
        {"every input broadcastable somewhere", [] {
             GraphBuilder b;
             return b.finish({specifyShape(in(b, "x", {1, U}) + in(b, "y", {U, 1}), {4, 4}) * 2.0});
         }},
    };
    return m;
}

// The inputs of the SpecifyShape nodes left, by name ("x", "y") or op ("Elemwise").
QStringList specifiedInputs(const Graph& g) {
    QStringList names;
    for (const Node* n : g.toposort())
        if (n->kind() == OpKind::SpecifyShape) {
            const Variable* v = n->input(0);
            names << (v->owner() ? QString::fromStdString(v->owner()->op().name()) : QString::fromStdString(v->name()));
        }
    return names;
}

std::vector<NDArray> inputsOfShapes(const std::vector<std::vector<int64_t>>& shapes) {
    std::vector<NDArray> out;
    for (const auto& s : shapes) {
        NDArray a = NDArray::empty(DType::Float64, Shape(s.begin(), s.end()));
        for (int64_t r = 0; r < s[0]; ++r)
            for (int64_t c = 0; c < s[1]; ++c) a.set(std::vector<int64_t>{r, c}, 0.25 + 0.5 * static_cast<double>(r * s[1] + c));
        out.push_back(std::move(a));
    }
    return out;
}

} // namespace

class TestSpecifyShapeLift : public QObject {
    Q_OBJECT
private slots:
    void lift_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<QStringList>("specified");
        QTest::addColumn<int>("steps");
        QTest::newRow("exp(x): onto x") << "one input" << QStringList{"x"} << 1;
        QTest::newRow("x + y, y broadcastable: onto x") << "first input decides" << QStringList{"x"} << 1;
        QTest::newRow("x + y, x broadcastable: onto y") << "second input decides" << QStringList{"y"} << 1;
        QTest::newRow("a None dim does not count") << "a None dim" << QStringList{"x"} << 1;
        QTest::newRow("exp(log(x)): onto x in two steps") << "two Elemwise deep" << QStringList{"x"} << 2;
        QTest::newRow("not of a graph input") << "a graph input" << QStringList{"x"} << 0;
        QTest::newRow("not when no input decides every dim") << "every input broadcastable somewhere" << QStringList{"Add"} << 0;
    }
    void lift() {
        QFETCH(QString, graph);
        QFETCH(QStringList, specified);
        QFETCH(int, steps);
        auto g = graphs().at(graph)();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localSpecifyShapeLift()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_specify_shape_lift"), steps);
        QCOMPARE(specifiedInputs(*out.after), specified);
        // Readers keep the type they had: the lifted Elemwise knows the specified shape.
        QCOMPARE(out.after->output(0)->type(), g->output(0)->type());
    }

    // A specification that makes a dim broadcastable stays: each input would need its own.
    void notWhenItMakesADimBroadcastable() {
        GraphBuilder b;
        auto g = b.finish({specifyShape(in(b, "x", {U, U}) + in(b, "y", {U, U}), {1, 4}) * 2.0});
        const std::vector<NDArray> inputs = inputsOfShapes({{1, 4}, {1, 4}});
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localSpecifyShapeLift()), {}, 1, 1e-12, 0.0, &inputs);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_specify_shape_lift"), 0);
        QCOMPARE(specifiedInputs(*out.after), QStringList{"Add"});
    }

    // A wrong length is caught after the lift as before it.
    void wrongLengthStillFails() {
        auto g = graphs().at("first input decides")();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localSpecifyShapeLift()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        const std::vector<NDArray> wrong = inputsOfShapes({{3, 4}, {1, 4}});
        QVERIFY_THROWS_EXCEPTION(ExecError, runGraph(*g, wrong));
        QVERIFY_THROWS_EXCEPTION(ExecError, runGraph(*out.after, wrong));
        const std::vector<NDArray> right = inputsOfShapes({{4, 4}, {1, 4}});
        QCOMPARE(runGraph(*out.after, right).outputs.at(0).flatGet(5), runGraph(*g, right).outputs.at(0).flatGet(5));
    }

    // In the whole pipeline the Elemwise under the SpecifyShape fuses with its reader.
    void liftedElemwiseFuses() {
        auto g = graphs().at("two Elemwise deep")();
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QVERIFY(out.stepsOf("local_specify_shape_lift") >= 1);
        QCOMPARE(specifiedInputs(*out.after), QStringList{"x"});
        QCOMPARE(countOps(*out.after, OpKind::Elemwise), 1);
    }
};

TL_TEST_SUITE(TestSpecifyShapeLift)
#include "tst_rw_specify_shape_lift.moc"
