// Alloc, AllocEmpty, Sum/Max/Prod and Dot: static types from constant dims, kernels
// on every dtype against straightforward reference loops, errors, printed names,
// JSON params and forward derivatives.
#include "TestSuites.h"
#include "builder/rop/OpRop.h"
#include "ops/OpFactory.h"
#include "ShapeOpsTestUtil.h"
#include "TestSupport.h"

#include "builder/Indexing.h"
#include "builder/Math.h"
#include "exec/Executor.h"
#include "ops/Alloc.h"
#include "ops/DimShuffle.h"
#include "ops/Dot.h"
#include "ops/Reduce.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace tl;
using namespace tl::test;

namespace {
constexpr DType kAllDTypes[] = {DType::Bool,  DType::Int8,    DType::Int16,  DType::Int32,
                                DType::Int64, DType::UInt8, DType::Float32, DType::Float64};

QString str(const std::string& s) { return QString::fromStdString(s); }

/// Reference reduction of a 3-d array over the axes in `mask`, in double (exact for the small test values).
NDArray referenceReduce(ReduceKind kind, const NDArray& x, const std::vector<bool>& mask, DType outDType) {
    Shape outShape;
    for (int d = 0; d < 3; ++d)
        if (!mask[d]) outShape.push_back(x.dim(d));
    int64_t outSize = 1;
    for (int64_t d : outShape) outSize *= d;
    std::vector<double> acc(static_cast<size_t>(outSize), kind == ReduceKind::Sum ? 0.0 : kind == ReduceKind::Prod ? 1.0 : -INFINITY);
    for (int64_t i = 0; i < x.dim(0); ++i)
        for (int64_t j = 0; j < x.dim(1); ++j)
            for (int64_t k = 0; k < x.dim(2); ++k) {
                const int64_t idx[] = {i, j, k};
                int64_t o = 0;
                for (int d = 0; d < 3; ++d)
                    if (!mask[d]) o = o * x.dim(d) + idx[d];
                const double v = x.get(idx);
                if (kind == ReduceKind::Sum) acc[o] += v;
                else if (kind == ReduceKind::Prod) acc[o] *= v;
                else acc[o] = std::max(acc[o], v);
            }
    return NDArray::fromVector(outDType, outShape, acc);
}

/// Reference product of a (m,k) or (k) by (k,n) or (k), in double.
NDArray referenceDot(const NDArray& a, const NDArray& b, DType outDType) {
    const int64_t m = a.ndim() == 2 ? a.dim(0) : 1, k = b.dim(0), n = b.ndim() == 2 ? b.dim(1) : 1;
    std::vector<double> c(static_cast<size_t>(m * n), 0.0);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j)
            for (int64_t p = 0; p < k; ++p) {
                const double av = a.ndim() == 2 ? a.get(std::vector<int64_t>{i, p}) : a.get(std::vector<int64_t>{p});
                const double bv = b.ndim() == 2 ? b.get(std::vector<int64_t>{p, j}) : b.get(std::vector<int64_t>{p});
                c[i * n + j] += av * bv;
            }
    Shape s;
    if (a.ndim() == 2) s.push_back(m);
    if (b.ndim() == 2) s.push_back(n);
    return NDArray::fromVector(outDType, s, c);
}
} // namespace

class TestAllocReduce : public QObject {
    Q_OBJECT

private slots:
    void allocTypes() {
        GraphBuilder b;
        Var v = b.input("v", DType::Float32, {7});
        Var n = b.input("n", DType::Int64, {});
        Var a = alloc(v, {2, 7});
        QCOMPARE(str(a->owner()->op().name()), "Alloc");
        QCOMPARE(str(a.type().toString()), "Matrix(float32, shape=(2, 7))");
        QCOMPARE(str(a->owner()->input(1)->type().toString()), "Scalar(int8, shape=())");
        // The value's non-broadcastable dims fill unknown target dims.
        QCOMPARE(str(alloc(v, {n, n}).type().toString()), "Matrix(float32, shape=(?, 7))");
        QCOMPARE(str(alloc(b.constant(0.0), {n, 300}).type().toString()), "Matrix(float64, shape=(?, 300))");
        QCOMPARE(str(alloc(b.constant(0.0), {n, 300})->owner()->input(2)->type().toString()), "Scalar(int16, shape=())");
        QVERIFY(errorOf([&] { alloc(v, {2, 6}); }).contains("Alloc#"));
        QVERIFY(errorOf([&] { alloc(v, {}); }).contains("more dimensions"));
        QVERIFY(errorOf([&] { alloc(v, {-2, 7}); }).contains("dim 0 is negative"));
        QVERIFY(errorOf([&] { alloc(v, {b.constant(2.0), 7}); }).contains("alloc dim must be an integer scalar"));
        checkJsonRoundTrip(makeAlloc());

        Var e = allocEmpty(b, DType::Int32, {n, 3});
        QCOMPARE(str(e->owner()->op().name()), "AllocEmpty{dtype='int32'}");
        QCOMPARE(str(e.type().toString()), "Matrix(int32, shape=(?, 3))");
        QCOMPARE(str(allocEmpty(b, DType::Float64, {2, 7}).type().toString()), "Matrix(float64, shape=(2, 7))");
        checkJsonRoundTrip(makeAllocEmpty(DType::UInt8));
        QVERIFY(errorOf([] { makeOp(OpKind::AllocEmpty, {{"dtype", "complex64"}}, nullptr); }).contains("\"dtype\""));
    }

    void allocKernels() {
        for (DType dt : kAllDTypes) {
            const NDArray row = iota(dt, {3}, 1);
            const NDArray out = perform(*makeAlloc(), {row, i64(2), i64(3)})[0];
            QCOMPARE(out.dtype(), dt);
            QCOMPARE(out.shape(), (Shape{2, 3}));
            for (int64_t i = 0; i < 6; ++i) QCOMPARE(out.flatGet(i), row.flatGet(i % 3));
            const NDArray fill = perform(*makeAlloc(), {NDArray::scalar(dt, 1), i64(4)})[0];
            for (int64_t i = 0; i < 4; ++i) QCOMPARE(fill.flatGet(i), 1.0);
            const NDArray empty = perform(*makeAllocEmpty(dt), {i64(0), NDArray::scalar(DType::Int8, 5)})[0];
            QCOMPARE(empty.dtype(), dt);
            QCOMPARE(empty.shape(), (Shape{0, 5}));
        }
        // A column broadcasts along the rows.
        const NDArray col = iota(DType::Float64, {2, 1});
        const NDArray out = perform(*makeAlloc(), {col, i64(2), i64(3)})[0];
        for (int64_t i = 0; i < 6; ++i) QCOMPARE(out.flatGet(i), double(i / 3));
        QVERIFY(errorOf([&] { perform(*makeAlloc(), {iota(DType::Float64, {3}), i64(2), i64(4)}); })
                    .contains("cannot broadcast shape (3,) to (2, 4)"));
        QVERIFY(errorOf([&] { perform(*makeAllocEmpty(DType::Float64), {i64(-1)}); }).contains("dim 0 is negative"));
        // The previous output is reused when nothing else holds it (PyTensor's storage cells).
        ExecContext ctx;
        std::vector<NDArray> cell(1);
        std::vector<NDArray> in{i64(4), i64(5)};
        makeAllocEmpty(DType::Float64)->perform(in, cell);
        const void* first = cell[0].rawData();
        makeAllocEmpty(DType::Float64)->perform(in, cell);
        QCOMPARE(cell[0].rawData(), first);
        const NDArray keep = cell[0];  // now shared: a new array must be made
        makeAllocEmpty(DType::Float64)->perform(in, cell);
        QVERIFY(!cell[0].sharesStorageWith(keep));
    }

    void ropAlloc() {
        checkRopByFiniteDifferences({{3}}, [](GraphBuilder&, const std::vector<Var>& x) { return alloc(x[0], {2, 3}); });
    }

    void zerosLikeUsesStaticDimsOrShapeI() {
        GraphBuilder b;
        Var x = b.input("x", DType::Int16, {kUnknownDim, 3});
        Var z = zerosLike(x);
        QCOMPARE(str(z.type().toString()), "Matrix(int16, shape=(?, 3))");
        QCOMPARE(str(z->owner()->input(1)->owner()->op().name()), "Shape_i{0}");
        QVERIFY(z->owner()->input(2)->isConstant());
        auto g = b.finish({z});
        TL_COMPARE_ARRAYS(run(*g, {iota(DType::Int16, {5, 3}, 1)})[0], NDArray::zeros(DType::Int16, {5, 3}), 0, 0);
    }

    void reduceNames_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QList<int>>("axes");  // {-99} for None
        QTest::addColumn<QString>("name");
        QTest::newRow("sum all") << int(ReduceKind::Sum) << QList<int>{-99} << "Sum{axes=None}";
        QTest::newRow("sum one") << int(ReduceKind::Sum) << QList<int>{0} << "Sum{axis=0}";
        QTest::newRow("sum two") << int(ReduceKind::Sum) << QList<int>{0, 2} << "Sum{axes=[0, 2]}";
        QTest::newRow("max one") << int(ReduceKind::Max) << QList<int>{1} << "Max{axis=1}";
        QTest::newRow("prod all") << int(ReduceKind::Prod) << QList<int>{-99} << "Prod{axes=None}";
    }
    void reduceNames() {
        QFETCH(int, kind);
        QFETCH(QList<int>, axes);
        QFETCH(QString, name);
        std::optional<std::vector<int>> ax;
        if (axes != QList<int>{-99}) ax = std::vector<int>(axes.begin(), axes.end());
        OpPtr op = makeReduce(ReduceKind(kind), ax);
        QCOMPARE(str(op->name()), name);
        checkJsonRoundTrip(op);
    }

    void reduceTypes() {
        GraphBuilder b;
        Var x = b.input("x", DType::Int8, {2, kUnknownDim, 4});
        QCOMPARE(str(sum(x, std::vector<int>{-1})->owner()->op().name()), "Sum{axis=2}");
        QCOMPARE(str(sum(x, std::vector<int>{-1}).type().toString()), "Matrix(int64, shape=(2, ?))");
        QCOMPARE(str(tl::max(x, std::vector<int>{0, 2}).type().toString()), "Vector(int8, shape=(?,))");
        QCOMPARE(str(prod(x).type().toString()), "Scalar(int64, shape=())");
        QCOMPARE(str(sum(b.input("f", DType::Float32, {3})).type().toString()), "Scalar(float32, shape=())");
        // PyTensor's upcast_discrete_output: unsigned ints sum in uint64, signed in int64.
        QCOMPARE(str(sum(b.input("u", DType::UInt8, {3})).type().toString()), "Scalar(uint64, shape=())");
        QCOMPARE(str(prod(b.input("u32", DType::UInt32, {3})).type().toString()), "Scalar(uint64, shape=())");
        QCOMPARE(str(sum(b.input("u64", DType::UInt64, {3})).type().toString()), "Scalar(uint64, shape=())");
        QCOMPARE(str(sum(b.input("i16", DType::Int16, {3})).type().toString()), "Scalar(int64, shape=())");
        QCOMPARE(str(sum(b.input("c", DType::Bool, {3})).type().toString()), "Scalar(int64, shape=())");
        QVERIFY(errorOf([&] { b.apply1(makeReduce(ReduceKind::Sum, std::vector<int>{3}), {x}); }).contains("Sum{axis=3}#"));
        QVERIFY(errorOf([&] { b.apply1(makeReduce(ReduceKind::Sum, std::vector<int>{1, -2}), {x}); }).contains("repeated"));
        QVERIFY(errorOf([] { makeOp(OpKind::Reduce, {{"op", "Mean"}, {"axes", nullptr}}, nullptr); }).contains("\"op\""));
    }

    void reduceKernels() {
        const std::vector<std::vector<int>> axisSets = {{}, {0}, {1}, {2}, {0, 2}, {2, 0}, {0, 1, 2}};
        for (DType dt : kAllDTypes)
            for (ReduceKind kind : {ReduceKind::Sum, ReduceKind::Max, ReduceKind::Prod}) {
                // Small values so Prod stays exact; a transposed view checks strided input.
                const NDArray base = iota(dt, {4, 3, 2}, 1);
                NDArray x = perform(*makeDimShuffle(3, {2, 1, 0}), {base})[0];
                if (kind == ReduceKind::Prod && dt != DType::Bool) {
                    x = NDArray::empty(dt, {2, 3, 4});
                    for (int64_t i = 0; i < x.size(); ++i) x.set(std::vector<int64_t>{i / 12, (i / 4) % 3, i % 4}, double(1 + i % 3));
                }
                for (const auto& axes : axisSets) {
                    std::vector<bool> mask(3, false);
                    for (int a : axes) mask[a] = true;
                    std::optional<std::vector<int>> ax = axes.size() == 3 ? std::nullopt : std::optional(axes);
                    if (axes.empty()) ax = std::vector<int>{};
                    const NDArray got = perform(*makeReduce(kind, ax), {x})[0];
                    QCOMPARE(got.dtype(), reduceOutputDType(kind, dt));
                    TL_COMPARE_ARRAYS(got, referenceReduce(kind, x, mask, got.dtype()), 0, 0);
                }
            }
    }

    void reduceEdgeCases() {
        // float32 sums accumulate in float64 (PyTensor's acc_dtype).
        const NDArray f = NDArray::fromVector(DType::Float32, {3}, {1e8, 1, -1e8});
        QCOMPARE(perform(*makeReduce(ReduceKind::Sum, std::nullopt), {f})[0].item(), 1.0);
        // int64 wraps as NumPy.
        NDArray big = NDArray::empty(DType::Int64, {2});
        big.data<int64_t>()[0] = std::numeric_limits<int64_t>::max();
        big.data<int64_t>()[1] = 1;
        QCOMPARE(perform(*makeReduce(ReduceKind::Sum, std::nullopt), {big})[0].itemInt(), std::numeric_limits<int64_t>::min());
        // NaN propagates through Max wherever it sits.
        for (int at = 0; at < 3; ++at) {
            std::vector<double> v{1, 2, 3};
            v[at] = NAN;
            QVERIFY(std::isnan(perform(*makeReduce(ReduceKind::Max, std::nullopt), {NDArray::fromVector(DType::Float64, {3}, v)})[0].item()));
        }
        // Empty reductions: Sum 0, Prod 1, Max an error.
        const NDArray e = NDArray::empty(DType::Float64, {0, 3});
        TL_COMPARE_ARRAYS(perform(*makeReduce(ReduceKind::Sum, std::vector<int>{0}), {e})[0], NDArray::zeros(DType::Float64, {3}), 0, 0);
        QCOMPARE(perform(*makeReduce(ReduceKind::Prod, std::nullopt), {e})[0].item(), 1.0);
        QVERIFY(errorOf([&] { perform(*makeReduce(ReduceKind::Max, std::vector<int>{0}), {e}); }).contains("zero-size"));
        QCOMPARE(perform(*makeReduce(ReduceKind::Max, std::vector<int>{1}), {e})[0].shape(), (Shape{0}));
        // 0-d input: axis 0 is accepted (NumPy), the value passes through.
        QCOMPARE(perform(*makeReduce(ReduceKind::Sum, std::vector<int>{0}), {NDArray::scalar(DType::Float64, 2.5)})[0].item(), 2.5);
    }

    // pt.min and pt.mean as PyTensor builds them, run against hand computations.
    void minAndMean() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {2, 3});
        Var i = b.input("i", DType::Int32, {2, 3});
        Var u = b.input("u", DType::UInt8, {2, 3});
        Var q = b.input("q", DType::Float32, {kUnknownDim, 3});
        Var mnRows = tl::min(x, std::vector<int>{1});
        QCOMPARE(str(mnRows->owner()->op().name()), "Neg");
        QCOMPARE(str(mnRows->owner()->input(0)->owner()->op().name()), "Max{axis=1}");
        QCOMPARE(mnRows.dtype(), DType::Float64);
        Var mnInt = tl::min(i), mnUint = tl::min(u, std::vector<int>{0});
        QCOMPARE(mnInt.dtype(), DType::Int32);
        QCOMPARE(mnUint.dtype(), DType::UInt8);
        GraphBuilder other;  // an input made here would be one more graph input below
        QVERIFY(errorOf([&] { tl::min(other.input("c", DType::Bool, {3})); }).contains("bool"));
        Var meanAll = mean(x), meanCols = mean(x, std::vector<int>{0}), meanInt = mean(i, std::vector<int>{-1});
        Var meanQ = mean(q, std::vector<int>{0});
        QCOMPARE(meanInt.dtype(), DType::Float64);
        QCOMPARE(meanQ.dtype(), DType::Float32);
        auto g = b.finish({mnRows, mnInt, mnUint, meanAll, meanCols, meanInt, meanQ});

        const std::vector<double> xv{3, -1, 2, 0.5, 7, -4};
        const std::vector<double> iv{5, -2, 9, 4, 4, -7};
        const std::vector<double> uv{200, 3, 17, 250, 0, 90};
        const std::vector<double> qv{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // 4 rows: a length known at run time
        RunResult r = runGraph(*g, std::vector<NDArray>{NDArray::fromVector(DType::Float64, {2, 3}, xv), NDArray::fromVector(DType::Int32, {2, 3}, iv),
                                    NDArray::fromVector(DType::UInt8, {2, 3}, uv), NDArray::fromVector(DType::Float32, {4, 3}, qv)});
        TL_COMPARE_ARRAYS(r.outputs[0], NDArray::fromVector(DType::Float64, {2}, {-1, -4}), 0, 0);
        QCOMPARE(r.outputs[1].itemInt(), int64_t(-7));
        TL_COMPARE_ARRAYS(r.outputs[2], NDArray::fromVector(DType::UInt8, {3}, {200, 0, 17}), 0, 0);
        QCOMPARE(r.outputs[3].item(), (3 - 1 + 2 + 0.5 + 7 - 4) / 6.0);
        TL_COMPARE_ARRAYS(r.outputs[4], NDArray::fromVector(DType::Float64, {3}, {1.75, 3, -1}), 1e-15, 0);
        TL_COMPARE_ARRAYS(r.outputs[5], NDArray::fromVector(DType::Float64, {2}, {4, 1.0 / 3.0}), 1e-15, 0);
        TL_COMPARE_ARRAYS(r.outputs[6], NDArray::fromVector(DType::Float32, {3}, {5.5, 6.5, 7.5}), 0, 0);
    }

    void ropSum() {
        checkRopByFiniteDifferences({{2, 3, 4}}, [](GraphBuilder&, const std::vector<Var>& x) {
            return sum(x[0], std::vector<int>{0, -1});
        });
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {3});
        Var m = prod(x);  // PyTensor's Prod has no R_op
        QVERIFY(errorOf([&] { ropOfNode(b, *m->owner(), std::vector<Variable*>{x.get()}); })
                    .contains("no forward derivative"));
    }

    void dotTypes() {
        GraphBuilder b;
        Var m = b.input("m", DType::Float32, {2, 3});
        Var v = b.input("v", DType::Float64, {3});
        Var w = b.input("w", DType::Float32, {kUnknownDim, 4});
        QCOMPARE(str(dot(m, v)->owner()->op().name()), "Dot");
        QCOMPARE(str(dot(m, v).type().toString()), "Vector(float64, shape=(2,))");
        QCOMPARE(str(dot(m, w).type().toString()), "Matrix(float32, shape=(2, 4))");
        QCOMPARE(str(dot(v, v).type().toString()), "Scalar(float64, shape=())");
        QCOMPARE(str(dot(v, w).type().toString()), "Vector(float64, shape=(4,))");
        QVERIFY(errorOf([&] { dot(m, m); }).contains("Dot#"));
        QVERIFY(errorOf([&] { dot(m, b.input("t", DType::Float32, {3, 3, 3})); }).contains("vectors and matrices"));
        checkJsonRoundTrip(makeDot());
    }

    void dotKernels() {
        for (DType dt : {DType::Float64, DType::Float32, DType::Int64, DType::Int32, DType::Int16}) {
            const NDArray a = iota(dt, {3, 4}, 1);
            const NDArray bt = perform(*makeDimShuffle(2, {1, 0}), {iota(dt, {5, 4})})[0];  // strided (4, 5)
            const NDArray v4 = iota(dt, {4}, 2), v3 = iota(dt, {3}, 1);
            const std::vector<std::pair<NDArray, NDArray>> cases{{a, bt}, {a, v4}, {v3, a}, {v4, v4}};
            for (const auto& [l, r] : cases) {
                const NDArray got = perform(*makeDot(), {l, r})[0];
                QCOMPARE(got.dtype(), dt);
                TL_COMPARE_ARRAYS(got, referenceDot(l, r, dt), dt == DType::Float32 ? 1e-6 : 0, 0);
            }
        }
        // Mixed dtypes upcast; bool is or-of-ands.
        const NDArray got = perform(*makeDot(), {iota(DType::Int32, {2, 2}), iota(DType::Float32, {2})})[0];
        QCOMPARE(got.dtype(), DType::Float64);
        const NDArray bm = NDArray::fromVector(DType::Bool, {2, 2}, {1, 0, 0, 0});
        const NDArray bv = NDArray::fromVector(DType::Bool, {2}, {0, 1});
        TL_COMPARE_ARRAYS(perform(*makeDot(), {bm, bv})[0], NDArray::fromVector(DType::Bool, {2}, {0, 0}), 0, 0);
        TL_COMPARE_ARRAYS(perform(*makeDot(), {bv, bm})[0], NDArray::fromVector(DType::Bool, {2}, {0, 0}), 0, 0);
        QVERIFY(errorOf([] { perform(*makeDot(), {iota(DType::Float64, {2, 3}), iota(DType::Float64, {2})}); })
                    .contains("not aligned"));
    }

    void ropDot() {
        checkRopByFiniteDifferences({{2, 3}}, [](GraphBuilder& b, const std::vector<Var>& x) {
            return dot(x[0], b.constant(iota(DType::Float64, {3, 4})));
        });
        checkRopByFiniteDifferences({{3}}, [](GraphBuilder& b, const std::vector<Var>& x) {
            return dot(b.constant(iota(DType::Float64, {2, 3})), x[0]);
        });
        // Both vary: dot(da, b) + dot(a, db), for every pair of ranks.
        const std::vector<std::pair<StaticShape, StaticShape>> ranks{{{2, 3}, {3, 4}}, {{2, 3}, {3}}, {{3}, {3, 4}}, {{3}, {3}}};
        for (const auto& [sa, sb] : ranks) {
            checkRopByFiniteDifferences({sa, sb}, [](GraphBuilder&, const std::vector<Var>& x) { return dot(x[0], x[1]); });
            if (QTest::currentTestFailed()) return;
        }
    }
};

TL_TEST_SUITE(TestAllocReduce)
#include "tst_alloc_reduce.moc"
