// Functions of their own inverses and of Allocs: local_exp_log, local_exp_log_nan_switch,
// local_sqrt_sqr, local_log_sqrt and local_alloc_unary. Each case runs the graph before
// and after on the same inputs, where the rewrite fires and where it must not; the
// switches' cases also run on inputs outside the inverse's domain, where both are NaN.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "rewrite/Pipeline.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;

Var in(GraphBuilder& b, const char* name, StaticShape s = {4}, DType d = DType::Float64) {
    return b.input(name, d, std::move(s));
}

// Each graph reads one input x of four entries.
const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"log(exp(x))", [] { GraphBuilder b; return b.finish({log(exp(in(b, "x")))}); }},
        {"log1p(expm1(x))", [] { GraphBuilder b; return b.finish({log1p(expm1(in(b, "x")))}); }},
        {"exp(softplus(x))", [] { GraphBuilder b; return b.finish({exp(softplus(in(b, "x")))}); }},
        {"expm1(softplus(x))", [] { GraphBuilder b; return b.finish({expm1(softplus(in(b, "x")))}); }},
        {"log(exp(int k))", [] { GraphBuilder b; return b.finish({log(exp(in(b, "k", {4}, DType::Int32)))}); }},
        {"log(expm1(x))", [] { GraphBuilder b; return b.finish({log(expm1(in(b, "x")))}); }},
        {"exp(log(x))", [] { GraphBuilder b; return b.finish({exp(log(in(b, "x")))}); }},
        {"exp(log1p(x))", [] { GraphBuilder b; return b.finish({exp(log1p(in(b, "x")))}); }},
        {"expm1(log(x))", [] { GraphBuilder b; return b.finish({expm1(log(in(b, "x")))}); }},
        {"expm1(log1p(x))", [] { GraphBuilder b; return b.finish({expm1(log1p(in(b, "x")))}); }},
        {"exp(log1mexp(x))", [] { GraphBuilder b; return b.finish({exp(log1mexp(in(b, "x")))}); }},
        {"expm1(log1mexp(x))", [] { GraphBuilder b; return b.finish({expm1(log1mexp(in(b, "x")))}); }},
        {"softplus(log(x))", [] { GraphBuilder b; return b.finish({softplus(log(in(b, "x")))}); }},
        {"log1mexp(log(x))", [] { GraphBuilder b; return b.finish({log1mexp(log(in(b, "x")))}); }},
        {"exp(log(int k))", [] { GraphBuilder b; return b.finish({exp(log(in(b, "k", {4}, DType::Int64)))}); }},
        {"exp(log(float32 x))", [] { GraphBuilder b; return b.finish({exp(log(in(b, "x", {4}, DType::Float32)))}); }},
        {"exp(log2(x))", [] { GraphBuilder b; return b.finish({exp(log2(in(b, "x")))}); }},
        {"sqrt(sqr(x))", [] { GraphBuilder b; return b.finish({sqrt(sqr(in(b, "x")))}); }},
        {"sqr(sqrt(x))", [] { GraphBuilder b; return b.finish({sqr(sqrt(in(b, "x")))}); }},
        {"sqrt(sqr(int k))", [] { GraphBuilder b; return b.finish({sqrt(sqr(in(b, "k", {4}, DType::Int16)))}); }},
        {"sqrt(abs(x))", [] { GraphBuilder b; return b.finish({sqrt(abs(in(b, "x")))}); }},
        {"log(sqrt(x))", [] { GraphBuilder b; return b.finish({log(sqrt(in(b, "x")))}); }},
        {"log(sqrt(float32 x))", [] { GraphBuilder b; return b.finish({log(sqrt(in(b, "x", {4}, DType::Float32)))}); }},
        {"log(sqrt(int k))", [] { GraphBuilder b; return b.finish({log(sqrt(in(b, "k", {4}, DType::Int64)))}); }},
        {"log(x + sqrt(x))", [] { GraphBuilder b; Var x = in(b, "x"); return b.finish({log(x + sqrt(x))}); }},
        {"exp(alloc(x, 3, 4))", [] { GraphBuilder b; return b.finish({exp(alloc(in(b, "x"), {3, 4}))}); }},
        {"cast(alloc(k, 2, 4))", [] {
             GraphBuilder b;
             return b.finish({cast(alloc(in(b, "k", {4}, DType::Int32), {2, 4}), DType::Float32)});
         }},
        {"exp(x) of no alloc", [] { GraphBuilder b; return b.finish({exp(in(b, "x") * 2.0)}); }},
        {"alloc(x) * x", [] { GraphBuilder b; Var x = in(b, "x"); return b.finish({alloc(x, {2, 4}) * x}); }},
    };
    return m;
}

const NodeRewrite& rewriteNamed(const QString& name) {
    for (const NodeRewrite* r : {&localExpLog(), &localExpLogNanSwitch(), &localSqrtSqr(), &localLogSqrt(), &localAllocUnary()})
        if (QString::fromStdString(std::string(r->name())) == name) return *r;
    throw std::logic_error("no rewrite " + name.toStdString());
}

NDArray values(DType d, std::vector<double> v) { return NDArray::fromVector(d, {4}, std::move(v)); }

} // namespace

class TestInverseFunctions : public QObject {
    Q_OBJECT
private slots:
    void rewrites_data() {
        QTest::addColumn<QString>("rewrite");
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("steps");
        auto row = [](const char* rewrite, const char* graph, int steps) {
            QTest::newRow((QString(rewrite) + ": " + graph).toUtf8().constData()) << QString(rewrite) << QString(graph) << steps;
        };
        for (const char* g : {"log(exp(x))", "log1p(expm1(x))", "exp(softplus(x))", "expm1(softplus(x))", "log(exp(int k))"})
            row("local_exp_log", g, 1);
        for (const char* g : {"log(expm1(x))", "exp(log(x))"}) row("local_exp_log", g, 0);
        for (const char* g : {"exp(log(x))", "exp(log1p(x))", "expm1(log(x))", "expm1(log1p(x))", "exp(log1mexp(x))",
                              "expm1(log1mexp(x))", "softplus(log(x))", "log1mexp(log(x))", "exp(log(int k))",
                              "exp(log(float32 x))"})
            row("local_exp_log_nan_switch", g, 1);
        for (const char* g : {"exp(log2(x))", "log(exp(x))"}) row("local_exp_log_nan_switch", g, 0);
        for (const char* g : {"sqrt(sqr(x))", "sqr(sqrt(x))", "sqrt(sqr(int k))"}) row("local_sqrt_sqr", g, 1);
        row("local_sqrt_sqr", "sqrt(abs(x))", 0);
        for (const char* g : {"log(sqrt(x))", "log(sqrt(float32 x))"}) row("local_log_sqrt", g, 1);
        for (const char* g : {"log(sqrt(int k))", "log(x + sqrt(x))"}) row("local_log_sqrt", g, 0);
        for (const char* g : {"exp(alloc(x, 3, 4))", "cast(alloc(k, 2, 4))"}) row("local_alloc_unary", g, 1);
        for (const char* g : {"exp(x) of no alloc", "alloc(x) * x"}) row("local_alloc_unary", g, 0);
    }

    void rewrites() {
        QFETCH(QString, rewrite);
        QFETCH(QString, graph);
        QFETCH(int, steps);
        auto g = graphs().at(graph)();
        const DType d = g->inputs()[0]->type().dtype;
        const bool integer = !isFloat(d);
        const bool single = d == DType::Float32;
        // Inside and outside every inverse's domain: negative, below -1, zero, in (0, 1), above 1.
        const std::vector<std::vector<double>> cases =
            integer ? std::vector<std::vector<double>>{{0, 1, 3, 7}, {-2, -1, 2, 5}}
                    : std::vector<std::vector<double>>{{0.25, 0.5, 2.0, 3.5}, {-0.5, -2.0, 0.0, 0.75}, {-1.0, 1.0, -0.0, 30.0}};
        for (const auto& v : cases) {
            const std::vector<NDArray> inputs{values(d, v)};
            // 1e-13 / 1e-6 (float32): exp(log(x)) and its kin round where the rewrite is exact.
            RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(rewriteNamed(rewrite)), {}, 1,
                                                   single ? 1e-6 : 1e-13, 1e-15, &inputs);
            QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
            QCOMPARE(out.stepsOf(rewrite.toStdString()), steps);
        }
    }

    // Where the inverse overflows, the rewritten graph keeps the value: log(exp(800)) is
    // inf before local_exp_log and 800 after (PyTensor's result too).
    void logOfExpKeepsLargeValues() {
        auto g = graphs().at("log(exp(x))")();
        const std::vector<NDArray> inputs{values(DType::Float64, {800.0, -800.0, 1.0, 0.0})};
        Pipeline p = singleRewrite(localExpLog());
        RewriteOutcome out = rewriteAndCompare(*g, p, {}, 1, 0.0, 0.0, &inputs);
        QVERIFY(!out.mismatch.empty());  // inf and 0 before, 800 and -800 after
        QCOMPARE(out.outputsAfter[0].flatGet(0), 800.0);
        QCOMPARE(out.outputsAfter[0].flatGet(1), -800.0);
    }

    // Through FAST_RUN: a log-density's log(sqrt(v)) and exp(log(p)) end as one log and
    // a switch, with the same numbers.
    void inFastRun() {
        GraphBuilder b;
        Var v = in(b, "v");
        auto g = b.finish({log(sqrt(exp(v))) + exp(log(sigmoid(v)))});
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 2, 1e-13, 1e-15);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QVERIFY(out.stepsOf("local_log_sqrt") + out.stepsOf("local_exp_log") + out.stepsOf("local_exp_log_nan_switch") >= 2);
    }
};

TL_TEST_SUITE(TestInverseFunctions)
#include "tst_rw_inverse_functions.moc"
