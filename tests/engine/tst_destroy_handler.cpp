// The destroy handler (PyTensor's DestroyHandler): which destructions are unsafe,
// the orderings that make the safe ones work, and the incremental checker the
// inplace rewrites use. Each unsafe graph is reported; each safe one runs and
// gives the numbers of its non-destructive twin.
#include "TestSuites.h"
#include "FusionTestUtil.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "exec/Executor.h"
#include "io/JsonValues.h"
#include "analysis/DestroyChecker.h"
#include "analysis/DestroyHandler.h"
#include "ir/Rewriter.h"
#include "ops/IncSubtensor.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

using BuildFn = std::function<std::vector<Var>(GraphBuilder&)>;
Q_DECLARE_METATYPE(BuildFn)

namespace {

OpPtr inplace(ScalarOpCode code, int input = 0) { return makeElemwise(code, DType::Float64, {{0, input}}); }

std::unique_ptr<Graph> build(const BuildFn& f) {
    GraphBuilder b;
    std::vector<Var> outs = f(b);
    return b.finish(outs);
}

Var vec(GraphBuilder& b, const char* name) { return b.input(name, DType::Float64, {5}); }

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& p : v) s += (s.empty() ? "" : " | ") + p;
    return s;
}

// The same graph with every destroyer made non-destructive.
void stripInplace(Graph& g) {
    Rewriter rw(g);
    for (Node* n : g.toposort()) {
        if (const auto* e = dynamic_cast<const Elemwise*>(&n->op()); e && !e->inplacePattern().empty())
            rw.setOp(n, e->withInplace({}));
        if (const auto* inc = dynamic_cast<const IncSubtensorOp*>(&n->op()); inc && inc->inplace())
            rw.setOp(n, makeIncSubtensor(inc->entries(), inc->setInsteadOfInc(), false));
    }
    QVERIFY(destroyHandlerProblems(g).empty());
}

const Node* named(const Graph& g, const std::string& opName) {
    for (const Node* n : g.nodes())
        if (n->op().name() == opName) return n;
    return nullptr;
}

} // namespace

class TestDestroyHandler : public QObject {
    Q_OBJECT

private slots:
    void problems_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<QString>("problem");  // substring of the report; empty: valid

        // ---- reported
        QTest::newRow("constant destroyed") << BuildFn([](GraphBuilder& b) {
            Var c = b.constant(NDArray::fromVector(DType::Float64, {5}, {1, 2, 3, 4, 5}));
            return std::vector<Var>{b.apply1(inplace(ScalarOpCode::Exp), {c})};
        }) << "destroys a constant";
        QTest::newRow("protected input destroyed") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{b.apply1(inplace(ScalarOpCode::Exp), {vec(b, "x")})};
        }) << "destroys protected graph input 'x'";
        QTest::newRow("view of an input destroyed") << BuildFn([](GraphBuilder& b) {
            Var m = b.input("m", DType::Float64, {3, 5});
            return std::vector<Var>{b.apply1(inplace(ScalarOpCode::Exp), {index(m, 0)})};
        }) << "destroys protected graph input 'm'";
        QTest::newRow("two destroyers") << BuildFn([](GraphBuilder& b) {
            Var a = exp(vec(b, "x"));
            return std::vector<Var>{b.apply1(inplace(ScalarOpCode::Sin), {a}), b.apply1(inplace(ScalarOpCode::Cos), {a})};
        }) << "both destroy";
        QTest::newRow("value read after destruction") << BuildFn([](GraphBuilder& b) {
            Var a = exp(vec(b, "x"));
            Var s = b.apply1(inplace(ScalarOpCode::Sin), {a});
            return std::vector<Var>{s + a};
        }) << "still reads after it";
        QTest::newRow("view read after destruction") << BuildFn([](GraphBuilder& b) {
            Var a = exp(b.input("m", DType::Float64, {3, 5}));
            Var s = b.apply1(inplace(ScalarOpCode::Sin), {a});
            return std::vector<Var>{transpose(s) + transpose(a)};
        }) << "still reads after it";
        QTest::newRow("destroyed value is a graph output") << BuildFn([](GraphBuilder& b) {
            Var a = exp(vec(b, "x"));
            return std::vector<Var>{a, b.apply1(inplace(ScalarOpCode::Sin), {a})};
        }) << "also a graph output";
        QTest::newRow("destroyed value read through another input") << BuildFn([](GraphBuilder& b) {
            Var a = exp(vec(b, "x"));
            return std::vector<Var>{b.apply1(inplace(ScalarOpCode::Add), {a, a})};
        }) << "which its input 1 also reads";
        QTest::newRow("orderings form a cycle without a data path") << BuildFn([](GraphBuilder& b) {
            // p overwrites a and reads c; q overwrites c and reads a: each must run first.
            Var a = exp(vec(b, "x")), c = exp(vec(b, "y"));
            Var p = b.apply1(inplace(ScalarOpCode::Add), {a, c});
            Var q = b.apply1(inplace(ScalarOpCode::Mul), {c, a});
            return std::vector<Var>{p, q};
        }) << "still reads after it";

        // ---- valid
        QTest::newRow("chain of destroyers") << BuildFn([](GraphBuilder& b) {
            Var a = exp(vec(b, "x"));
            return std::vector<Var>{b.apply1(inplace(ScalarOpCode::Cos), {b.apply1(inplace(ScalarOpCode::Sin), {a})})};
        }) << "";
        QTest::newRow("other reader ordered first") << BuildFn([](GraphBuilder& b) {
            Var a = exp(vec(b, "x"));
            return std::vector<Var>{b.apply1(inplace(ScalarOpCode::Sin), {a}) + cos(a)};
        }) << "";
        QTest::newRow("IncSubtensor into an Alloc") << BuildFn([](GraphBuilder& b) {
            Var buf = alloc(b.constant(0.0), {3, 5});
            return std::vector<Var>{incSubtensor(buf, vec(b, "v"), {1}, true)};
        }) << "";
    }

    void problems() {
        QFETCH(BuildFn, graph);
        QFETCH(QString, problem);
        auto g = build(graph);
        const std::string report = joined(destroyHandlerProblems(*g));
        if (problem.isEmpty()) {
            QVERIFY2(report.empty(), report.c_str());
            // It runs without copies, and gives what the same graph without destruction gives.
            QVERIFY(CompiledGraph(*g).protectedDestroyers().empty());
            auto plain = build(graph);
            stripInplace(*plain);
            const std::vector<NDArray> in = randomInputs(*g, 3);
            RunResult r = runGraph(*g, in), r0 = runGraph(*plain, in);
            QCOMPARE(r.outputs.size(), r0.outputs.size());
            for (size_t i = 0; i < r.outputs.size(); ++i) TL_COMPARE_ARRAYS(r.outputs[i], r0.outputs[i], 0.0, 0.0);
        } else {
            QVERIFY2(report.find(problem.toStdString()) != std::string::npos, report.c_str());
        }
    }

    void orderings() {
        // sin overwrites a; cos reads a, so cos runs first, whatever the toposort says.
        GraphBuilder b;
        Var x = vec(b, "x");
        Var a = exp(x);
        Var s = b.apply1(inplace(ScalarOpCode::Sin), {a});
        Var out = s + cos(a);
        auto g = b.finish({out});
        const Node* sinNode = named(*g, "Sin");
        const Node* cosNode = named(*g, "Cos");
        QVERIFY(sinNode && cosNode);
        const auto ord = destroyOrderings(*g);
        QCOMPARE(ord.size(), size_t(1));
        QCOMPARE(ord[0].first, cosNode);
        QCOMPARE(ord[0].second, sinNode);
        CompiledGraph cg(*g);
        const auto& order = cg.order();
        const auto at = [&](const Node* n) { return std::find(order.begin(), order.end(), n) - order.begin(); };
        QVERIFY(at(cosNode) < at(sinNode));
        QVERIFY(cg.protectedDestroyers().empty());
        // Numbers: sin(e^x) + cos(e^x).
        NDArray xv = NDArray::fromVector(DType::Float64, {5}, {0.1, -0.2, 0.3, 0.7, -1.5});
        RunResult r = runGraph(*g, std::vector<NDArray>{xv});
        for (int i = 0; i < 5; ++i) {
            const double e = std::exp(xv.flatGet(i));
            QCOMPARE(r.outputs[0].flatGet(i), std::sin(e) + std::cos(e));
        }
    }

    void whyCannotDestroyNamesTheReason() {
        GraphBuilder b;
        Var x = vec(b, "x");
        Var a = exp(x);
        Var t = sin(a);
        Var u = t + a;
        auto g = b.finish({u, cos(t)});
        const Node* expN = named(*g, "Exp");
        const Node* sinN = named(*g, "Sin");
        const Node* addN = named(*g, "Add");
        const Node* cosN = named(*g, "Cos");
        QVERIFY(whyCannotDestroy(*expN, 0).value_or("").find("protected") != std::string::npos);
        QVERIFY(whyCannotDestroy(*sinN, 0).value_or("").find("reads the value after this node") != std::string::npos);
        // add may overwrite a (sin reads it before) or t (cos does not need add, so it
        // can run first), and cos may overwrite t: each is fine on its own.
        QVERIFY(!whyCannotDestroy(*addN, 1).has_value());
        QVERIFY(!whyCannotDestroy(*addN, 0).has_value());
        QVERIFY(!whyCannotDestroy(*cosN, 0).has_value());
        // The checker remembers: once add overwrites t, cos may not.
        DestroyChecker checker(*g);
        QVERIFY(!checker.tryDestroy(*addN, 0).has_value());
        QVERIFY(checker.whyCannotDestroy(*cosN, 0).value_or("").find("already destroyed") != std::string::npos);
    }

    void checkerRefusesWhatClosesACycle() {
        // p may overwrite a (reading c); then q may not overwrite c (p reads c and q
        // reads a, which p overwrites: each would have to run first).
        GraphBuilder b;
        Var a = exp(vec(b, "x")), c = exp(vec(b, "y"));
        Var p = a + c, q = c * a;
        auto g = b.finish({p, q});
        DestroyChecker checker(*g);
        QVERIFY(!checker.tryDestroy(*p->owner(), 0).has_value());
        const auto why = checker.tryDestroy(*q->owner(), 0);
        QVERIFY(why.has_value());
        QVERIFY2(why->find("reads the value after this node") != std::string::npos, why->c_str());
    }
};

TL_TEST_SUITE(TestDestroyHandler)
#include "tst_destroy_handler.moc"
