// The CAReduce family beyond Sum/Max/Prod (tst_alloc_reduce.cpp): Min, All, Any,
// ProdWithoutZeros, Prod{no_zeros_in_input}, CAReduce of any foldable scalar op and
// of a Composite (PyTensor's fused form op(i0, f(i1)) and tensorlens's several-input
// form), with PyTensor's names (checked with PyTensor 2.34), dtype and acc_dtype
// rules, hand-computed values, layouts (transposed, broadcast, merged dims), zero
// sizes, JSON params and errors, and the dprint round trip.
#include "TestSuites.h"
#include "ScalarRopCheck.h"
#include "ShapeOpsTestUtil.h"

#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Reductions.h"
#include "io/JsonGraph.h"
#include "ops/OpFactory.h"
#include "ops/Reduce.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace tl;
using namespace tl::test;

namespace {

QString str(const std::string& s) { return QString::fromStdString(s); }

NDArray arr(DType d, Shape s, std::vector<double> v) { return NDArray::fromVector(d, std::move(s), v); }

// A Composite of (acc, x...) -> body(acc, x...), all ScalarTypes of the given dtypes.
CompositePtr composite(std::vector<DType> dtypes, const std::function<Var(const std::vector<Var>&)>& body) {
    GraphBuilder b;
    std::vector<Var> ins;
    for (DType d : dtypes) ins.push_back(b.placeholder(Type::scalar(d)));
    auto g = b.finish({body(ins)});
    return std::make_shared<const Composite>(*g);
}

} // namespace

class TestReduceFamily : public QObject {
    Q_OBJECT
private slots:
    void names() {
        using K = ReduceKind;
        const std::vector<int> a1{1}, a02{0, 2};
        QCOMPARE(str(makeReduce(K::Min, a02)->name()), "Min{axes=[0, 2]}");
        QCOMPARE(str(makeReduce(K::All, std::nullopt)->name()), "All{axes=None}");
        QCOMPARE(str(makeReduce(K::Any, a1)->name()), "Any{axis=1}");
        QCOMPARE(str(makeReduce(K::ProdWithoutZeros, a1)->name()), "ProdWithoutZeros{axis=1}");
        ReduceParams nz;
        nz.noZerosInInput = true;
        // PyTensor's Prod.__str__ text, its stray parenthesis included.
        QCOMPARE(str(makeReduce(K::Prod, a1, nz)->name()), "Prod{axis=1, no_zeros_in_input})");
        QCOMPARE(str(makeCAReduce(ScalarOpCode::Maximum, a1)->name()), "CAReduce{maximum, axis=1}");
        auto c = composite({DType::Float64, DType::Float64}, [](const std::vector<Var>& i) { return i[0] + sqr(i[1]); });
        QCOMPARE(str(makeCAReduce(c, a1)->name()), "CAReduce{Composite{(i0 + sqr(i1))}, axis=1}");
        QCOMPARE(str(makeCAReduce(c, std::nullopt)->name()), "CAReduce{Composite{(i0 + sqr(i1))}, axes=None}");
        QVERIFY(errorOf([] { makeCAReduce(ScalarOpCode::Sub, std::nullopt); }).contains("commutative"));
        QVERIFY(errorOf([] { makeReduce(K::Sum, std::nullopt, ReduceParams{std::nullopt, std::nullopt, true}); })
                    .contains("no_zeros_in_input"));
    }

    // PyTensor's output and accumulator dtypes.
    void dtypes() {
        GraphBuilder b;
        Var i8 = b.input("i8", DType::Int8, {2, 3});
        Var f32 = b.input("f32", DType::Float32, {2, 3});
        Var bl = b.input("bl", DType::Bool, {2, 3});
        QCOMPARE(reduce(ReduceKind::Min, i8, std::nullopt).dtype(), DType::Int8);
        QCOMPARE(reduce(ReduceKind::ProdWithoutZeros, i8, std::nullopt).dtype(), DType::Int64);
        QCOMPARE(reduce(ReduceKind::Prod, bl, std::nullopt).dtype(), DType::Int64);
        QCOMPARE(all(i8).dtype(), DType::Bool);
        QCOMPARE(any(f32, std::vector<int>{0}).type().toString(), std::string("Vector(bool, shape=(3,))"));
        QCOMPARE(careduce(ScalarOpCode::Xor, i8, std::nullopt).dtype(), DType::Int8);
        // dtype= and acc_dtype= as PyTensor's.
        QCOMPARE(reduce(ReduceKind::Sum, i8, std::nullopt, ReduceParams{DType::Float32, std::nullopt, false}).dtype(), DType::Float32);
        const auto& sumF32 = static_cast<const ReduceOp&>(reduce(ReduceKind::Sum, f32, std::nullopt)->owner()->op());
        QCOMPARE(sumF32.accumulatorDType(std::vector<DType>{DType::Float32}), DType::Float64);
        QVERIFY(errorOf([&] { reduce(ReduceKind::Sum, b.input("f64", DType::Float64, {2}), std::nullopt,
                                     ReduceParams{std::nullopt, DType::Float32, false}); })
                    .contains("precision would be lost"));
        // keepdims: ExpandDims of the reduced axes.
        Var k = reduce(ReduceKind::Max, f32, std::vector<int>{-1}, {}, true);
        QCOMPARE(str(k->owner()->op().name()), "ExpandDims{axis=1}");
        QCOMPARE(k.type().toString(), std::string("Matrix(float32, shape=(2, 1))"));
    }

    void values() {
        // x = [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], [[0, -1, 2, 0], [3, 0, 0, 0], [-4, 5, 6, 7]]]
        const NDArray x = arr(DType::Float64, {2, 3, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, -1, 2, 0, 3, 0, 0, 0, -4, 5, 6, 7});
        using K = ReduceKind;
        TL_COMPARE_ARRAYS(perform(*makeReduce(K::Min, std::vector<int>{0, 2}), {x})[0], arr(DType::Float64, {3}, {-1, 0, -4}), 0, 0);
        TL_COMPARE_ARRAYS(perform(*makeReduce(K::Min, std::vector<int>{1}), {x})[0],
                          arr(DType::Float64, {2, 4}, {1, 2, 3, 4, -4, -1, 0, 0}), 0, 0);
        // ProdWithoutZeros skips zeros; a group of zeros only gives 0 (its identity).
        TL_COMPARE_ARRAYS(perform(*makeReduce(K::ProdWithoutZeros, std::vector<int>{2}), {x})[0],
                          arr(DType::Float64, {2, 3}, {24, 1680, 11880, -2, 3, -840}), 0, 0);
        TL_COMPARE_ARRAYS(perform(*makeReduce(K::ProdWithoutZeros, std::nullopt), {arr(DType::Float64, {3}, {0, 0, 0})})[0],
                          NDArray::scalar(DType::Float64, 0), 0, 0);
        // All / Any of x != 0.
        TL_COMPARE_ARRAYS(perform(*makeReduce(K::All, std::vector<int>{2}), {x})[0], arr(DType::Bool, {2, 3}, {1, 1, 1, 0, 0, 1}), 0, 0);
        TL_COMPARE_ARRAYS(perform(*makeReduce(K::Any, std::vector<int>{0}), {arr(DType::Int8, {2, 3}, {0, 2, 0, 0, 0, -3})})[0],
                          arr(DType::Bool, {3}, {0, 1, 1}), 0, 0);
        QCOMPARE(perform(*makeReduce(K::All, std::nullopt), {arr(DType::Float64, {0}, {})})[0].item(), 1.0);
        // CAReduce of bit ops on integers, and of maximum.
        TL_COMPARE_ARRAYS(perform(*makeCAReduce(ScalarOpCode::Xor, std::nullopt), {arr(DType::Int8, {3}, {5, 3, 12})})[0],
                          NDArray::scalar(DType::Int8, 10), 0, 0);
        TL_COMPARE_ARRAYS(perform(*makeCAReduce(ScalarOpCode::And, std::vector<int>{0}), {arr(DType::UInt8, {2, 2}, {12, 255, 10, 7})})[0],
                          arr(DType::UInt8, {2}, {8, 7}), 0, 0);
        TL_COMPARE_ARRAYS(perform(*makeCAReduce(ScalarOpCode::Maximum, std::vector<int>{1}), {x})[0],
                          arr(DType::Float64, {2, 4}, {9, 10, 11, 12, 3, 5, 6, 7}), 0, 0);
        // NaN wins in Max and Min; Min refuses a zero-size reduction as PyTensor.
        const NDArray withNaN = arr(DType::Float64, {4}, {1, std::nan(""), -3, 2});
        QVERIFY(std::isnan(perform(*makeReduce(K::Min, std::nullopt), {withNaN})[0].item()));
        QVERIFY(errorOf([] { perform(*makeReduce(K::Min, std::nullopt), {arr(DType::Float64, {0}, {})}); }).contains("zero-size"));
        // int8 sums accumulate in int64; float32 sums in float64.
        QCOMPARE(perform(*makeReduce(K::Sum, std::nullopt), {arr(DType::Int8, {3}, {127, 1, 100})})[0].itemInt(), int64_t{228});
        QCOMPARE(perform(*makeReduce(K::Sum, std::nullopt), {arr(DType::Float32, {4}, {1e8, 1, -1e8, 1})})[0].item(), 2.0);
        // dtype=float32 of an int16 sum: accumulated in int64, then converted.
        ReduceParams toF32{DType::Float32, std::nullopt, false};
        const NDArray s = perform(*makeReduce(K::Sum, std::nullopt, toF32), {arr(DType::Int16, {3}, {30000, 30000, 30000})})[0];
        QCOMPARE(s.dtype(), DType::Float32);
        QCOMPARE(s.item(), 90000.0);
    }

    // Strided and broadcast layouts, merged dims and a long reduced row in blocks.
    void layouts() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {3, 1000});
        Var t = transpose(x, std::vector<int>{1, 0});
        auto g = b.finish({sum(t, std::vector<int>{0}), sum(t, std::vector<int>{1}), sum(x), prod(x * 0 + 1, std::vector<int>{0}),
                           tl::max(t)});
        std::vector<double> v(3000);
        for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>((i * 37) % 101) - 50.0;
        const auto r = runGraph(*g, std::vector<NDArray>{arr(DType::Float64, {3, 1000}, v)});
        double rows[3] = {0, 0, 0}, all = 0, mx = -1e300;
        for (size_t i = 0; i < v.size(); ++i) {
            rows[i / 1000] += v[i];
            all += v[i];
            mx = std::max(mx, v[i]);
        }
        TL_COMPARE_ARRAYS(r.outputs[0], arr(DType::Float64, {3}, {rows[0], rows[1], rows[2]}), 1e-15, 0);
        QCOMPARE(r.outputs[1].shape(), (Shape{1000}));
        QCOMPARE(r.outputs[1].flatGet(7), v[7] + v[1007] + v[2007]);
        QCOMPARE(r.outputs[2].item(), all);
        TL_COMPARE_ARRAYS(r.outputs[3], NDArray::fromVector(DType::Float64, {1000}, std::vector<double>(1000, 1.0)), 0, 0);
        QCOMPARE(r.outputs[4].item(), mx);
    }

    // CAReduce{Composite}: PyTensor's fused form, tensorlens's several-input form with
    // broadcasting, and a Composite that is not op(i0, f(...)), folded as it stands.
    void compositeReductions() {
        const NDArray x = arr(DType::Float32, {2, 3}, {1, -2, 3, 0.5, 4, -1});
        auto fused = composite({DType::Float64, DType::Float32}, [](const std::vector<Var>& i) { return i[0] + sqr(i[1]); });
        ReduceParams p{DType::Float32, DType::Float64, false};
        const NDArray r = perform(*makeCAReduce(fused, std::vector<int>{1}, p), {x})[0];
        QCOMPARE(r.dtype(), DType::Float32);
        TL_COMPARE_ARRAYS(r, arr(DType::Float32, {2}, {14, 17.25}), 0, 0);
        // (acc, x, y) -> acc + (x - y)^2 with y broadcast along the rows.
        auto twoInputs = composite({DType::Float64, DType::Float64, DType::Float64},
                                   [](const std::vector<Var>& i) { return i[0] + sqr(i[1] - i[2]); });
        const NDArray a = arr(DType::Float64, {2, 3}, {1, 2, 3, 4, 5, 6}), yv = arr(DType::Float64, {1, 3}, {1, 1, 2});
        TL_COMPARE_ARRAYS(perform(*makeCAReduce(twoInputs, std::vector<int>{1}), {a, yv})[0], arr(DType::Float64, {2}, {2, 41}), 0, 0);
        TL_COMPARE_ARRAYS(perform(*makeCAReduce(twoInputs, std::vector<int>{0}), {a, yv})[0], arr(DType::Float64, {3}, {9, 17, 17}), 0, 0);
        // mul form: prod(|x|) folded as i0 * Abs(i1).
        auto prodAbs = composite({DType::Float64, DType::Float64}, [](const std::vector<Var>& i) { return i[0] * abs(i[1]); });
        QCOMPARE(perform(*makeCAReduce(prodAbs, std::nullopt), {a})[0].item(), 720.0);
        // Not op(i0, f(i1)): identity(i0 + i1) is folded as a binary op from the first element.
        auto generic = composite({DType::Float64, DType::Float64}, [](const std::vector<Var>& i) { return identity(i[0] + i[1]); });
        QCOMPARE(perform(*makeCAReduce(generic, std::nullopt), {a})[0].item(), 21.0);
        QVERIFY(errorOf([&] { perform(*makeCAReduce(generic, std::vector<int>{0}), {arr(DType::Float64, {0, 2}, {})}); })
                    .contains("no identity"));
        // The Composite's dtypes must be the inputs'.
        GraphBuilder b;
        Var i = b.input("i", DType::Int8, {3});
        QVERIFY(errorOf([&] { b.apply1(makeCAReduce(fused, std::nullopt), {i}); }).contains("the Composite takes float32"));
    }

    void jsonParams() {
        ReduceParams p{DType::Float32, DType::Float64, false};
        auto c = composite({DType::Float64, DType::Float32}, [](const std::vector<Var>& i) { return i[0] + sqr(i[1]); });
        for (const OpPtr& op : {makeReduce(ReduceKind::Min, std::vector<int>{0, 2}), makeReduce(ReduceKind::Sum, std::nullopt, p),
                                makeReduce(ReduceKind::Prod, std::vector<int>{1}, ReduceParams{std::nullopt, std::nullopt, true}),
                                makeCAReduce(ScalarOpCode::Or, std::nullopt), makeCAReduce(c, std::vector<int>{1}, p)}) {
            OpPtr back = makeOp(OpKind::Reduce, op->params(), op->innerGraph());
            QCOMPARE(str(back->name()), str(op->name()));
            QVERIFY(back->equals(*op));
            QCOMPARE(str(back->params().dump()), str(op->params().dump()));
        }
        QCOMPARE(str(makeCAReduce(c, std::vector<int>{1}, p)->params().dump()),
                 "{\"acc_dtype\":\"float64\",\"axes\":[1],\"dtype\":\"float32\",\"op\":\"CAReduce\",\"scalar_op\":\"composite\"}");
        auto err = [](nlohmann::json j) { return errorOf([&] { makeOp(OpKind::Reduce, j, nullptr); }); };
        QVERIFY(err({{"op", "Sum"}, {"axes", nullptr}, {"dtype", "complex64"}}).contains("/dtype: unknown dtype"));
        QVERIFY(err({{"op", "CAReduce"}, {"axes", nullptr}, {"scalar_op", "sub"}}).contains("commutative"));
        QVERIFY(err({{"op", "CAReduce"}, {"axes", nullptr}, {"scalar_op", "composite"}}).contains("inner scalar graph"));
        QVERIFY(err({{"op", "CAReduce"}, {"axes", nullptr}}).contains("scalar_op"));
    }

    // Every class prints, imports and prints back the same listing with the same numbers.
    void dprintRoundTrip() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {3, 4});
        Var f = b.input("f", DType::Float32, {3, 4});
        auto c = composite({DType::Float64, DType::Float32}, [](const std::vector<Var>& i) { return i[0] + exp(i[1]); });
        auto g = b.finish({reduce(ReduceKind::Min, x, std::vector<int>{1}), all(x), any(x, std::vector<int>{0}),
                           reduce(ReduceKind::ProdWithoutZeros, x, std::vector<int>{1}),
                           reduce(ReduceKind::Prod, x, std::nullopt, ReduceParams{std::nullopt, std::nullopt, true}),
                           careduce(ScalarOpCode::Maximum, x, std::vector<int>{0}),
                           b.apply1(makeCAReduce(c, std::vector<int>{1}, ReduceParams{DType::Float32, DType::Float64, false}), {f})});
        std::vector<double> v(12);
        for (size_t i = 0; i < v.size(); ++i) v[i] = 0.25 * static_cast<double>(i) - 1.0;
        ::tl::test::dprintRoundTrip(*g, {arr(DType::Float64, {3, 4}, v), arr(DType::Float32, {3, 4}, v)}, allOptions());
    }
};

TL_TEST_SUITE(TestReduceFamily)
#include "tst_reduce_family.moc"
