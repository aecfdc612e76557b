// local_careduce_fusion: a Sum or Prod of an Elemwise becomes one CAReduce{Composite}.
// Cases where it fires and where it must not, side by side; every one runs before
// and after (rewriteAndCompare) and checks what PyTensor 2.34 prints for it.
#include "TestSuites.h"
#include "RewriteCheck.h"

#include "builder/Indexing.h"
#include "builder/Math.h"
#include "io/DPrint.h"
#include "ops/Reduce.h"
#include "rewrite/EquilibriumDriver.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

using Build = std::function<std::vector<Var>(GraphBuilder&)>;

// elemwise_fusion then local_careduce_fusion, as the fusion phase runs them.
Pipeline fusionPhase() {
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(makeElemwiseFusion());
    passes.push_back(std::make_unique<EquilibriumDriver>("local_careduce_fusion", std::vector<std::string>{"fast_run", "fusion"},
                                                         std::vector<const NodeRewrite*>{&localCareduceFusion()}));
    return singlePhase("fusion", std::move(passes));
}

std::vector<std::string> reductionNames(const Graph& g) {
    std::vector<std::string> names;
    for (const Node* n : g.toposort())
        if (n->op().kind() == OpKind::Reduce) names.push_back(n->op().name());
    return names;
}

} // namespace

Q_DECLARE_METATYPE(Build)

class TestRwCareduceFusion : public QObject {
    Q_OBJECT
private slots:
    void cases_data() {
        QTest::addColumn<Build>("graph");
        QTest::addColumn<QString>("reductions");  // the reductions after the phase, as printed
        QTest::addColumn<int>("steps");
        // ---- fires
        QTest::newRow("sum of a single-input Elemwise") << Build([](GraphBuilder& b) {
            return std::vector<Var>{sum(exp(b.input("x", DType::Float64, {4, 5})))};
        }) << "CAReduce{Composite{(i0 + exp(i1))}, axes=None}" << 1;
        QTest::newRow("sum of squares along an axis") << Build([](GraphBuilder& b) {
            return std::vector<Var>{sum(sqr(b.input("x", DType::Float64, {4, 5})), std::vector<int>{1})};
        }) << "CAReduce{Composite{(i0 + sqr(i1))}, axis=1}" << 1;
        QTest::newRow("prod of abs") << Build([](GraphBuilder& b) {
            return std::vector<Var>{prod(abs(b.input("x", DType::Float64, {3, 2})))};
        }) << "CAReduce{Composite{(i0 * Abs(i1))}, axes=None}" << 1;
        QTest::newRow("sum((x - y)**2, axis=1): two inputs") << Build([](GraphBuilder& b) {
            Var x = b.input("x", DType::Float64, {6, 7}), y = b.input("y", DType::Float64, {6, 7});
            return std::vector<Var>{sum(sqr(x - y), std::vector<int>{1})};
        }) << "CAReduce{Composite{(i0 + sqr((i1 - i2)))}, axis=1}" << 1;
        QTest::newRow("a broadcast row vector") << Build([](GraphBuilder& b) {
            Var x = b.input("x", DType::Float64, {6, 7}), v = b.input("v", DType::Float64, {7});
            return std::vector<Var>{sum(x * v, std::vector<int>{1})};
        }) << "CAReduce{Composite{(i0 + (i1 * i2))}, axis=1}" << 1;
        QTest::newRow("float32: accumulated in float64") << Build([](GraphBuilder& b) {
            return std::vector<Var>{sum(sqr(b.input("x", DType::Float32, {5, 3})), std::vector<int>{0})};
        }) << "CAReduce{Composite{(i0 + sqr(i1))}, axis=0}" << 1;
        QTest::newRow("sum of a comparison: int64 accumulator") << Build([](GraphBuilder& b) {
            return std::vector<Var>{sum(gt(b.input("x", DType::Float64, {9}), 0.5))};
        }) << "CAReduce{Composite{(i0 + GT(i1, 0.5))}, axes=None}" << 1;
        // ---- must not fire
        QTest::newRow("max is not add or mul") << Build([](GraphBuilder& b) {
            return std::vector<Var>{tl::max(exp(b.input("x", DType::Float64, {4})))};
        }) << "Max{axes=None}" << 0;
        QTest::newRow("the Elemwise's result is read twice") << Build([](GraphBuilder& b) {
            Var e = exp(b.input("x", DType::Float64, {4}));
            return std::vector<Var>{sum(e), e};
        }) << "Sum{axes=None}" << 0;
        QTest::newRow("a multi-output Composite") << Build([](GraphBuilder& b) {
            Var x = b.input("x", DType::Float64, {4});
            Var e = exp(x);
            return std::vector<Var>{sum(e * 2.5), e - 1};
        }) << "Sum{axes=None}" << 0;
        QTest::newRow("not an Elemwise") << Build([](GraphBuilder& b) {
            return std::vector<Var>{sum(transpose(b.input("x", DType::Float64, {2, 3})), std::vector<int>{0})};
        }) << "Sum{axis=0}" << 0;
    }

    void cases() {
        QFETCH(Build, graph);
        QFETCH(QString, reductions);
        QFETCH(int, steps);
        GraphBuilder b;
        auto g = b.finish(graph(b));
        RewriteOutcome r = rewriteAndCompare(*g, fusionPhase(), {}, 7, 1e-12, 0.0);
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(r.stepsOf("local_careduce_fusion"), steps);
        const auto names = reductionNames(*r.after);
        QCOMPARE(names.size(), size_t(1));
        QCOMPARE(QString::fromStdString(names[0]), reductions);
    }

    // The fused reduction keeps the Sum's dtype and the accumulator PyTensor uses, as
    // PyTensor prints them (a float32 result over a float64 accumulator).
    void fusedDTypes() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float32, {5, 3});
        auto g = b.finish({sum(sqr(x), std::vector<int>{1})});
        RewriteOutcome r = rewriteAndCompare(*g, fusionPhase(), {}, 3, 1e-6, 0.0);
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        DPrintOptions o;
        o.printType = true;
        const std::string text = dprint(*r.after, o);
        const std::string want = "CAReduce{Composite{(i0 + sqr(i1))}, axis=1} [id A] <Vector(float32, shape=(5,))>\n"
                                 " └─ x [id B] <Matrix(float32, shape=(5, 3))>\n"
                                 "\n"
                                 "Inner graphs:\n"
                                 "\n"
                                 "CAReduce{Composite{(i0 + sqr(i1))}, axis=1} [id A]\n"
                                 " ← add [id C] <float64> 'o0'\n"
                                 "    ├─ i0 [id D] <float64>\n"
                                 "    └─ sqr [id E] <float32>\n"
                                 "       └─ i1 [id F] <float32>\n";
        QCOMPARE(QString::fromStdString(text), QString::fromStdString(want));
    }

    // With --explain, a refusal says why.
    void explainsRefusal() {
        GraphBuilder b;
        Var e = exp(b.input("x", DType::Float64, {4}));
        Var s = sum(e);
        auto g = b.finish({s, e});
        RewriteOptions o;
        o.explain = true;
        const MatchResult m = localCareduceFusion().match(*s->owner(), o);
        QVERIFY(!m);
        QVERIFY2(std::string(m.whyNot()).find("2 readers") != std::string::npos, std::string(m.whyNot()).c_str());
    }
};

TL_TEST_SUITE(TestRwCareduceFusion)
#include "tst_rw_careduce_fusion.moc"
