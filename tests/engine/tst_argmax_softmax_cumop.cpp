// Argmax (and argmin as PyTensor builds it), Softmax, LogSoftmax, SoftmaxGrad and
// CumOp: PyTensor's names (checked with PyTensor 2.34), types, kernels against hand
// values (softmax values computed in double with Python's math module), the axis
// forms (negative, None), errors naming the op, forward derivatives against central
// differences, JSON and the dprint round trip.
#include "TestSuites.h"
#include "ScalarRopCheck.h"
#include "ShapeOpsTestUtil.h"

#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Reductions.h"
#include "io/JsonGraph.h"
#include "ops/Argmax.h"
#include "ops/CumOp.h"
#include "ops/OpFactory.h"
#include "ops/Softmax.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace tl;
using namespace tl::test;

namespace {

QString str(const std::string& s) { return QString::fromStdString(s); }

NDArray arr(DType d, Shape s, std::vector<double> v) { return NDArray::fromVector(d, std::move(s), v); }

// Runs one-output f on x of dtype d and shape s.
NDArray run(const std::function<Var(Var)>& f, DType d, Shape s, const std::vector<double>& v) {
    GraphBuilder b;
    StaticShape st(s.begin(), s.end());
    Var x = b.input("x", d, st);
    auto g = b.finish({f(x)});
    return runGraph(*g, std::vector<NDArray>{arr(d, s, v)}).outputs.at(0);
}

// The tangent of y = f(x) (the node making y) against central differences, for any output shape.
void checkReductionRop(const std::vector<double>& xv, Shape shape, const std::function<Var(Var)>& f) {
    GraphBuilder b;
    StaticShape st(shape.begin(), shape.end());
    Var x = b.input("x", DType::Float64, st);
    Var dx = b.input("dx", DType::Float64, st);
    Var y = f(x);
    std::vector<Variable*> tv(static_cast<size_t>(y->owner()->numInputs()), nullptr);
    tv[0] = dx.get();
    std::vector<Variable*> r = ropOfNode(b, *y->owner(), tv);
    QVERIFY(r.at(0));
    auto g = b.finish({y, b.wrap(r[0])});
    std::vector<double> d;
    for (size_t k = 0; k < xv.size(); ++k) d.push_back(0.3 + 0.17 * static_cast<double>(k));
    const double h = 1e-6;
    auto eval = [&](double sgn) {
        std::vector<double> v = xv;
        for (size_t k = 0; k < v.size(); ++k) v[k] += sgn * h * d[k];
        return runGraph(*g, std::vector<NDArray>{arr(DType::Float64, shape, v), arr(DType::Float64, shape, d)}).outputs;
    };
    const auto at = eval(0), plus = eval(1), minus = eval(-1);
    for (int64_t k = 0; k < at[0].size(); ++k)
        QVERIFY2(std::fabs(at[1].flatGet(k) - (plus[0].flatGet(k) - minus[0].flatGet(k)) / (2 * h)) < 1e-6, "tangent");
}

} // namespace

class TestArgmaxSoftmaxCumOp : public QObject {
    Q_OBJECT
private slots:
    void names() {
        QCOMPARE(str(makeArgmax(std::vector<int>{1})->name()), "Argmax{axis=(1,)}");
        QCOMPARE(str(makeArgmax(std::vector<int>{2, 0})->name()), "Argmax{axis=(0, 2)}");
        QCOMPARE(str(makeArgmax(std::nullopt)->name()), "Argmax{axis=None}");
        QCOMPARE(str(makeSoftmax(-1)->name()), "Softmax{axis=-1}");
        QCOMPARE(str(makeSoftmax(std::nullopt)->name()), "Softmax{axis=None}");
        QCOMPARE(str(makeLogSoftmax(0)->name()), "LogSoftmax{axis=0}");
        QCOMPARE(str(makeSoftmaxGrad(1)->name()), "SoftmaxGrad{axis=1}");
        QCOMPARE(str(makeCumOp(0, CumMode::Add)->name()), "CumOp{0, add}");
        QCOMPARE(str(makeCumOp(std::nullopt, CumMode::Mul)->name()), "CumOp{None, mul}");
        QCOMPARE(str(makeCumOp(-1, CumMode::Add)->name()), "CumOp{-1, add}");
    }

    void argmax() {
        const std::vector<double> v = {1, 5, 5, 7, 2, 7};
        TL_COMPARE_ARRAYS(run([](Var x) { return tl::argmax(x, std::vector<int>{1}); }, DType::Float64, {2, 3}, v),
                          arr(DType::Int64, {2}, {1, 0}), 0, 0);  // ties: the first
        TL_COMPARE_ARRAYS(run([](Var x) { return tl::argmax(x, std::vector<int>{0}); }, DType::Int8, {2, 3}, v),
                          arr(DType::Int64, {3}, {1, 0, 1}), 0, 0);
        QCOMPARE(run([](Var x) { return tl::argmax(x); }, DType::Float64, {2, 3}, v).itemInt(), int64_t{3});
        QCOMPARE(run([](Var x) { return tl::argmax(x); }, DType::Float64, {4}, {1, std::nan(""), 9, std::nan("")}).itemInt(), int64_t{1});
        // Several axes count the reduced elements in C order: x[i, j, k] over (0, 2).
        std::vector<double> t(24);
        for (size_t i = 0; i < t.size(); ++i) t[i] = static_cast<double>((i * 7) % 24);
        const NDArray r = run([](Var x) { return tl::argmax(x, std::vector<int>{0, 2}); }, DType::Float64, {2, 3, 4}, t);
        for (int j = 0; j < 3; ++j) {
            int64_t best = 0;
            double bv = -1;
            for (int i = 0; i < 2; ++i)
                for (int k = 0; k < 4; ++k)
                    if (t[static_cast<size_t>(i * 12 + j * 4 + k)] > bv) {
                        bv = t[static_cast<size_t>(i * 12 + j * 4 + k)];
                        best = i * 4 + k;
                    }
            QCOMPARE(r.flatGet(j), static_cast<double>(best));
        }
        // keepdims, argmin as argmax(-x) / argmax(255 - x) / argmax(~x).
        Var k;
        TL_COMPARE_ARRAYS(run([&](Var x) { return k = tl::argmax(x, std::vector<int>{-1}, true); }, DType::Float64, {2, 3}, v),
                          arr(DType::Int64, {2, 1}, {1, 0}), 0, 0);
        TL_COMPARE_ARRAYS(run([](Var x) { return argmin(x, std::vector<int>{1}); }, DType::Float64, {2, 3}, v),
                          arr(DType::Int64, {2}, {0, 1}), 0, 0);
        TL_COMPARE_ARRAYS(run([](Var x) { return argmin(x, std::vector<int>{1}); }, DType::UInt8, {2, 3}, v),
                          arr(DType::Int64, {2}, {0, 1}), 0, 0);
        TL_COMPARE_ARRAYS(run([](Var x) { return argmin(x); }, DType::Bool, {3}, {1, 0, 1}), NDArray::scalar(DType::Int64, 1), 0, 0);
        QVERIFY(errorOf([] { run([](Var x) { return tl::argmax(x); }, DType::Float64, {0}, {}); }).contains("empty"));
        GraphBuilder b;
        QVERIFY(errorOf([&] { tl::argmax(b.input("m", DType::Float64, {2, 2}), std::vector<int>{2}); }).contains("out of bounds"));
    }

    void softmaxFamily() {
        const std::vector<double> v = {1, 2, 3, 1, 1, 1};
        auto sm = [](std::optional<int> a) { return [a](Var x) { return softmax(x, a); }; };
        auto lsm = [](std::optional<int> a) { return [a](Var x) { return logSoftmax(x, a); }; };
        TL_COMPARE_ARRAYS(run(sm(1), DType::Float64, {2, 3}, v),
                          arr(DType::Float64, {2, 3}, {0.09003057317038046, 0.24472847105479767, 0.6652409557748219, 1.0 / 3, 1.0 / 3, 1.0 / 3}),
                          1e-15, 0);
        TL_COMPARE_ARRAYS(run(sm(-1), DType::Float64, {2, 3}, v), run(sm(1), DType::Float64, {2, 3}, v), 0, 0);
        TL_COMPARE_ARRAYS(run(sm(0), DType::Float64, {2, 3}, v),
                          arr(DType::Float64, {2, 3}, {0.5, 0.7310585786300049, 0.8807970779778824, 0.5, 0.2689414213699951, 0.11920292202211755}),
                          1e-15, 0);
        TL_COMPARE_ARRAYS(run(sm(std::nullopt), DType::Float64, {2, 3}, v),
                          arr(DType::Float64, {2, 3},
                              {0.0708850957669681, 0.19268566773192858, 0.5237739492001988, 0.0708850957669681, 0.0708850957669681, 0.0708850957669681}),
                          1e-15, 0);
        TL_COMPARE_ARRAYS(run(lsm(1), DType::Float64, {2, 3}, v),
                          arr(DType::Float64, {2, 3}, {-2.4076059644443806, -1.4076059644443804, -0.4076059644443804, -1.0986122886681098,
                                                       -1.0986122886681098, -1.0986122886681098}),
                          1e-15, 0);
        TL_COMPARE_ARRAYS(run(lsm(std::nullopt), DType::Float32, {2, 3}, v),
                          arr(DType::Float32, {2, 3}, {-2.6466950823946482, -1.6466950823946482, -0.6466950823946482, -2.6466950823946482,
                                                       -2.6466950823946482, -2.6466950823946482}),
                          1e-6, 0);
        // Large inputs do not overflow: the largest element is subtracted first.
        TL_COMPARE_ARRAYS(run(sm(0), DType::Float64, {3}, {1000, 1000, 1000}), arr(DType::Float64, {3}, {1.0 / 3, 1.0 / 3, 1.0 / 3}), 1e-15, 0);
        // SoftmaxGrad(dy, sm) = dy * sm - sum(dy * sm) * sm.
        GraphBuilder b;
        Var dy = b.input("dy", DType::Float64, {3});
        Var s = b.input("sm", DType::Float64, {3});
        auto g = b.finish({softmaxGrad(dy, s, 0)});
        const auto r = runGraph(*g, std::vector<NDArray>{arr(DType::Float64, {3}, {0.5, -1.0, 2.0}),
                                                        arr(DType::Float64, {3}, {0.09003057317038046, 0.24472847105479767, 0.6652409557748219})});
        TL_COMPARE_ARRAYS(r.outputs[0], arr(DType::Float64, {3}, {-0.056788470036966965, -0.5214597727496748, 0.5782482427866417}), 1e-14, 0);
        // Errors naming the op: integer inputs, axes out of range.
        GraphBuilder e;
        QVERIFY(errorOf([&] { softmax(e.input("i", DType::Int64, {3}), 0); }).contains("float32 or float64"));
        QVERIFY(errorOf([&] { logSoftmax(e.input("m", DType::Float64, {2, 2}), -3); }).contains("out of bounds"));
    }

    void cumulative() {
        const std::vector<double> v = {1, 2, 3, 4, 5, 6};
        TL_COMPARE_ARRAYS(run([](Var x) { return cumsum(x, 0); }, DType::Float64, {2, 3}, v), arr(DType::Float64, {2, 3}, {1, 2, 3, 5, 7, 9}), 0, 0);
        TL_COMPARE_ARRAYS(run([](Var x) { return cumsum(x, -1); }, DType::Int16, {2, 3}, v), arr(DType::Int16, {2, 3}, {1, 3, 6, 4, 9, 15}), 0, 0);
        const NDArray flat = run([](Var x) { return cumsum(x); }, DType::Float64, {2, 3}, v);
        TL_COMPARE_ARRAYS(flat, arr(DType::Float64, {6}, {1, 3, 6, 10, 15, 21}), 0, 0);
        TL_COMPARE_ARRAYS(run([](Var x) { return cumprod(x); }, DType::Float64, {2, 3}, v), arr(DType::Float64, {6}, {1, 2, 6, 24, 120, 720}), 0, 0);
        TL_COMPARE_ARRAYS(run([](Var x) { return cumprod(x, 1); }, DType::Float32, {2, 3}, v), arr(DType::Float32, {2, 3}, {1, 2, 6, 4, 20, 120}), 0, 0);
        // In the input's dtype, as PyTensor's C code: int8 wraps, bool adds as `or`.
        TL_COMPARE_ARRAYS(run([](Var x) { return cumsum(x); }, DType::Int8, {2}, {100, 100}), arr(DType::Int8, {2}, {100, -56}), 0, 0);
        TL_COMPARE_ARRAYS(run([](Var x) { return cumsum(x); }, DType::Bool, {3}, {0, 1, 0}), arr(DType::Bool, {3}, {0, 1, 1}), 0, 0);
        GraphBuilder b;
        Var m = b.input("m", DType::Float64, {2, kUnknownDim});
        QCOMPARE(cumsum(m).type().toString(), std::string("Vector(float64, shape=(?,))"));
        QCOMPARE(cumsum(b.input("s", DType::Float64, {2, 3})).type().toString(), std::string("Vector(float64, shape=(6,))"));
        QVERIFY(errorOf([&] { cumsum(m, 2); }).contains("out of bounds"));
    }

    void rop() {
        const std::vector<double> x = {-1.2, 0.3, 2.0, 0.7, -0.4, 1.1};
        checkRop({x}, {true}, [](const std::vector<Var>& a) { return softmax(a[0], 0); }, 1e-6);
        checkRop({x}, {true}, [](const std::vector<Var>& a) { return logSoftmax(a[0], -1); }, 1e-6);
        checkRop({x}, {true}, [](const std::vector<Var>& a) { return cumsum(a[0], 0); }, 1e-7);
        checkRop({x}, {true}, [](const std::vector<Var>& a) { return cumprod(a[0]); }, 1e-6);
        checkReductionRop(x, {2, 3}, [](Var a) { return sum(a, std::vector<int>{1}); });
        checkReductionRop(x, {2, 3}, [](Var a) { return tl::max(a, std::vector<int>{0}); });
        checkReductionRop(x, {3, 2}, [](Var a) { return tl::max(a, std::vector<int>{-1}); });
        // Argmax is integer-valued: no tangent.
        GraphBuilder b;
        Var v = b.input("v", DType::Float64, {3});
        Var dv = b.input("dv", DType::Float64, {3});
        Var am = tl::argmax(v);
        std::vector<Variable*> tv = {dv.get()};
        QCOMPARE(ropOfNode(b, *am->owner(), tv), std::vector<Variable*>{nullptr});
        Var g = softmaxGrad(v, v, 0);
        QVERIFY(errorOf([&] { std::vector<Variable*> t2 = {dv.get(), nullptr}; ropOfNode(b, *g->owner(), t2); }).contains("R_op"));
    }

    void jsonAndDprint() {
        for (const OpPtr& op : {makeArgmax(std::vector<int>{0, 2}), makeArgmax(std::nullopt), makeSoftmax(-1), makeLogSoftmax(std::nullopt),
                                makeSoftmaxGrad(1), makeCumOp(std::nullopt, CumMode::Mul), makeCumOp(-2, CumMode::Add)}) {
            OpPtr back = makeOp(op->kind(), op->params(), nullptr);
            QCOMPARE(str(back->name()), str(op->name()));
            QVERIFY(back->equals(*op));
        }
        QVERIFY(errorOf([] { makeOp(OpKind::CumOp, {{"axis", 0}, {"mode", "sub"}}, nullptr); }).contains("/mode"));
        QVERIFY(errorOf([] { makeOp(OpKind::Softmax, {{"axis", "x"}}, nullptr); }).contains("/axis"));
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {2, 3});
        Var s = softmax(x, -1);
        auto g = b.finish({tl::argmax(x, std::vector<int>{1}), tl::argmax(x), s, logSoftmax(x, std::nullopt), softmaxGrad(x, s, -1),
                           cumsum(x, 0), cumprod(x)});
        ::tl::test::dprintRoundTrip(*g, {arr(DType::Float64, {2, 3}, {0.5, -1, 2, 3, 0.25, -0.75})}, allOptions());
    }
};

TL_TEST_SUITE(TestArgmaxSoftmaxCumOp)
#include "tst_argmax_softmax_cumop.moc"
