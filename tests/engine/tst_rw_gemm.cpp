// gemm_optimizer, local_gemm_to_gemv and local_gemm_to_ger (phase blas): a sum with a
// Dot22 term becomes one Gemm, and a Gemm of a row or a column the Gemv or Ger BLAS
// has for it. Each graph is run before and after on the same inputs.
#include "TestSuites.h"
#include "BuildCases.h"
#include "RewriteCheck.h"

#include "builder/Indexing.h"
#include "builder/Linalg.h"
#include "builder/Math.h"
#include "ops/BlasOps.h"
#include "ops/Elemwise.h"
#include "rewrite/EquilibriumDriver.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

Var mat(GraphBuilder& b, const char* name, int64_t m, int64_t n, DType d = DType::Float64) { return b.input(name, d, {m, n}); }
Var vec(GraphBuilder& b, const char* name, int64_t n, DType d = DType::Float64) { return b.input(name, d, {n}); }
Var product(GraphBuilder& b, DType d = DType::Float64) { return dot22(mat(b, "A", 4, 3, d), mat(b, "B", 3, 5, d)); }

// "Gemm 1, Dot22 0": the op counts a test compares.
QString counts(const Graph& g, const std::vector<std::pair<OpKind, const char*>>& kinds) {
    return QString::fromStdString(opCountsText(g, kinds));
}

// The value of Gemm input `k` (a or b), which the tests build as constants or from s.
const Variable* gemmInput(const Graph& g, int k) {
    for (const Node* n : g.nodes())
        if (n->kind() == OpKind::Gemm) return n->input(k);
    return nullptr;
}

} // namespace

class TestRwGemm : public QObject {
    Q_OBJECT
private slots:
    void gemmOptimizer_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<QString>("expected");  // Gemm, Dot22 after
        // ---- become a Gemm
        QTest::newRow("A @ B + C") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{product(b) + mat(b, "C", 4, 5)};
        }) << "Gemm 1, Dot22 0";
        QTest::newRow("C + A @ B: the product second") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{mat(b, "C", 4, 5) + product(b)};
        }) << "Gemm 1, Dot22 0";
        QTest::newRow("2*C - s*(A @ B): scales as a and b") << BuildFn([](GraphBuilder& b) {
            Var s = b.input("s", DType::Float64, {});
            return std::vector<Var>{b.constant(2.0) * mat(b, "C", 4, 5) - s * product(b)};
        }) << "Gemm 1, Dot22 0";
        QTest::newRow("-(A @ B) + C") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{neg(product(b)) + mat(b, "C", 4, 5)};
        }) << "Gemm 1, Dot22 0";
        QTest::newRow("A @ B + C + 3*C: one term 4*C") << BuildFn([](GraphBuilder& b) {
            Var c = mat(b, "C", 4, 5);
            return std::vector<Var>{b.apply1(makeElemwise(ScalarOpCode::Add), {product(b), c, c * b.constant(3.0)})};
        }) << "Gemm 1, Dot22 0";
        QTest::newRow("A @ B + B' @ C': one product into the other") << BuildFn([](GraphBuilder& b) {
            Var other = dot22(mat(b, "P", 4, 2), mat(b, "Q", 2, 5));
            return std::vector<Var>{product(b) + other};
        }) << "Gemm 1, Dot22 1";
        QTest::newRow("an int matrix stays an addend") << BuildFn([](GraphBuilder& b) {
            Var sum = b.apply1(makeElemwise(ScalarOpCode::Add), {product(b), mat(b, "C", 4, 5), mat(b, "I", 4, 5, DType::Int32)});
            return std::vector<Var>{sum};
        }) << "Gemm 1, Dot22 0";
        QTest::newRow("exp(A @ B + C): inside an expression") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{exp(product(b) + mat(b, "C", 4, 5))};
        }) << "Gemm 1, Dot22 0";
        QTest::newRow("float32") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{product(b, DType::Float32) + mat(b, "C", 4, 5, DType::Float32)};
        }) << "Gemm 1, Dot22 0";
        QTest::newRow("a column of a product plus a vector") << BuildFn([](GraphBuilder& b) {
            Var p = dot22(mat(b, "A", 4, 3), mat(b, "c", 3, 1));
            return std::vector<Var>{squeeze(p, {1}) + vec(b, "v", 4)};
        }) << "Gemm 1, Dot22 0";
        // ---- stay as they are
        QTest::newRow("the product read elsewhere too") << BuildFn([](GraphBuilder& b) {
            Var p = product(b);
            return std::vector<Var>{p + mat(b, "C", 4, 5), exp(p)};
        }) << "Gemm 0, Dot22 1";
        QTest::newRow("a row added: not the product's broadcast pattern") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{product(b) + mat(b, "r", 1, 5)};
        }) << "Gemm 0, Dot22 1";
        QTest::newRow("a product of matrices is no scale") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{product(b) * mat(b, "C", 4, 5)};
        }) << "Gemm 0, Dot22 1";
        QTest::newRow("float32 product, float64 addend") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{product(b, DType::Float32) + mat(b, "C", 4, 5)};
        }) << "Gemm 0, Dot22 1";
        QTest::newRow("a product alone") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{b.constant(2.0) * product(b)};
        }) << "Gemm 0, Dot22 1";
    }
    void gemmOptimizer() {
        QFETCH(BuildFn, graph);
        QFETCH(QString, expected);
        const std::unique_ptr<Graph> g = buildGraph(graph);
        const double rtol = g->outputs()[0]->type().dtype == DType::Float32 ? 1e-5 : 1e-12;
        RewriteOutcome r = rewriteAndCompare(*g, singlePass("blas", makeGemmOptimizer()), {}, 1, rtol);
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(counts(*r.after, {{OpKind::Gemm, "Gemm"}, {OpKind::Dot22, "Dot22"}}), expected);
    }

    // What goes into a and b: 2*C - s*(A @ B) is Gemm(C, -s, A, B, 2), as PyTensor's.
    void gemmScales() {
        GraphBuilder b;
        Var s = b.input("s", DType::Float64, {});
        Var out = b.constant(2.0) * mat(b, "C", 4, 5) - s * product(b);
        RewriteOutcome r = rewriteAndCompare(*b.finish({out}), singlePass("blas", makeGemmOptimizer()));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        const Variable* a = gemmInput(*r.after, 1);
        const Variable* beta = gemmInput(*r.after, 4);
        QVERIFY(a && a->owner() && rw::plainElemwiseCode(*a->owner()) == ScalarOpCode::Neg);
        QCOMPARE(a->owner()->input(0)->name(), std::string("s"));
        QVERIFY(beta && rw::isConstantEqualTo(*beta, 2.0));
        QCOMPARE(beta->type().dtype, DType::Float64);
    }

    // The whole blas phase: a Gemm of a column or a row becomes a Gemv, of a column by
    // a row a Ger, as PyTensor compiles A @ v + b and outer(x, y) + C.
    void blasPhase_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<QString>("expected");
        QTest::newRow("A @ v + b: CGemv of b") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{squeeze(dot(mat(b, "A", 4, 3), expandDims(vec(b, "v", 3), 1)), {1}) + vec(b, "b", 4)};
        }) << "Gemm 0, Dot22 0, CGemv 1, CGer 0, Alloc 0";
        QTest::newRow("v @ B - b: CGemv of b") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{squeeze(dot(expandDims(vec(b, "v", 3), 0), mat(b, "B", 3, 5)), {0}) - vec(b, "b", 5)};
        }) << "Gemm 0, Dot22 0, CGemv 1, CGer 0, Alloc 0";
        QTest::newRow("outer(x, y) + C: CGer of C") << BuildFn([](GraphBuilder& b) {
            Var o = dot(expandDims(vec(b, "x", 4), 1), expandDims(vec(b, "y", 5), 0));
            return std::vector<Var>{o + mat(b, "C", 4, 5)};
        }) << "Gemm 0, Dot22 0, CGemv 0, CGer 1, Alloc 0";
        QTest::newRow("A @ B + C stays a Gemm") << BuildFn([](GraphBuilder& b) {
            return std::vector<Var>{product(b) + mat(b, "C", 4, 5)};
        }) << "Gemm 1, Dot22 0, CGemv 0, CGer 0, Alloc 0";
    }
    void blasPhase() {
        QFETCH(BuildFn, graph);
        QFETCH(QString, expected);
        RewriteOutcome r = rewriteAndCompare(*buildGraph(graph), singlePhase("blas", makeBlasPasses()));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(counts(*r.after, {{OpKind::Gemm, "Gemm"}, {OpKind::Dot22, "Dot22"}, {OpKind::CGemv, "CGemv"},
                                   {OpKind::CGer, "CGer"}, {OpKind::Alloc, "Alloc"}}),
                 expected);
    }

    // local_gemm_to_gemv and local_gemm_to_ger on Gemm nodes built directly.
    void gemmForms_data() {
        QTest::addColumn<BuildFn>("graph");
        QTest::addColumn<QString>("expected");
        auto gemm = [](GraphBuilder& b, Var z, Var x, Var y, Var beta) {
            return b.apply1(makeGemm(false), {z, b.constant(0.5), x, y, beta});
        };
        QTest::newRow("z and x rows: Gemv") << BuildFn([gemm](GraphBuilder& b) {
            return std::vector<Var>{gemm(b, mat(b, "z", 1, 5), mat(b, "x", 1, 3), mat(b, "Y", 3, 5), b.constant(2.0))};
        }) << "Gemm 0, Gemv 1, Ger 0, Alloc 0";
        QTest::newRow("z and y columns: Gemv") << BuildFn([gemm](GraphBuilder& b) {
            return std::vector<Var>{gemm(b, mat(b, "z", 4, 1), mat(b, "X", 4, 3), mat(b, "y", 3, 1), b.input("s", DType::Float64, {}))};
        }) << "Gemm 0, Gemv 1, Ger 0, Alloc 0";
        QTest::newRow("outer product, b = 1: Ger of z") << BuildFn([gemm](GraphBuilder& b) {
            return std::vector<Var>{gemm(b, mat(b, "z", 4, 5), mat(b, "x", 4, 1), mat(b, "y", 1, 5), b.constant(1.0))};
        }) << "Gemm 0, Gemv 0, Ger 1, Alloc 0";
        QTest::newRow("outer product, b = 0: Ger of zeros") << BuildFn([gemm](GraphBuilder& b) {
            return std::vector<Var>{gemm(b, exp(mat(b, "z", 4, 5)), mat(b, "x", 4, 1), mat(b, "y", 1, 5), b.constant(0.0))};
        }) << "Gemm 0, Gemv 0, Ger 1, Alloc 1";
        QTest::newRow("outer product, b = 2: stays") << BuildFn([gemm](GraphBuilder& b) {
            return std::vector<Var>{gemm(b, mat(b, "z", 4, 5), mat(b, "x", 4, 1), mat(b, "y", 1, 5), b.constant(2.0))};
        }) << "Gemm 1, Gemv 0, Ger 0, Alloc 0";
        QTest::newRow("outer product, b an input: stays") << BuildFn([gemm](GraphBuilder& b) {
            return std::vector<Var>{gemm(b, mat(b, "z", 4, 5), mat(b, "x", 4, 1), mat(b, "y", 1, 5), b.input("s", DType::Float64, {}))};
        }) << "Gemm 1, Gemv 0, Ger 0, Alloc 0";
        QTest::newRow("z a row, x not: stays") << BuildFn([gemm](GraphBuilder& b) {
            return std::vector<Var>{gemm(b, mat(b, "z", 1, 5), mat(b, "X", 2, 3), mat(b, "Y", 3, 5), b.constant(2.0))};
        }) << "Gemm 1, Gemv 0, Ger 0, Alloc 0";
    }
    void gemmForms() {
        QFETCH(BuildFn, graph);
        QFETCH(QString, expected);
        RewriteOutcome r = rewriteAndCompare(*buildGraph(graph), singlePhase("blas", [] {
            std::vector<std::unique_ptr<GraphPass>> passes;
            passes.push_back(std::make_unique<EquilibriumDriver>(
                "local_gemm_to_gemv", std::vector<std::string>{"fast_run", "blas"},
                std::vector<const NodeRewrite*>{&localGemmToGemv(), &localGemmToGer()}));
            return passes;
        }()));
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(counts(*r.after, {{OpKind::Gemm, "Gemm"}, {OpKind::Gemv, "Gemv"}, {OpKind::Ger, "Ger"}, {OpKind::Alloc, "Alloc"}}),
                 expected);
    }

    // An inplace Gemm already writes into z: neither form takes it.
    void inplaceGemmStays() {
        GraphBuilder b;
        Var g = b.apply1(makeGemm(true), {exp(mat(b, "z", 1, 5)), b.constant(0.5), mat(b, "x", 1, 3), mat(b, "Y", 3, 5), b.constant(1.0)});
        auto graph = b.finish({g});
        const Node* n = graph->outputs()[0]->owner();
        QCOMPARE(std::string(localGemmToGemv().match(*n, {}).whyNot()), std::string("an inplace Gemm"));
        QCOMPARE(std::string(localGemmToGer().match(*n, {}).whyNot()), std::string("an inplace Gemm"));
    }
};

TL_TEST_SUITE(TestRwGemm)
#include "tst_rw_gemm.moc"
