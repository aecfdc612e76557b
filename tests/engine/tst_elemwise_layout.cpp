// Elemwise over real array layouts: NumPy broadcasting (static and at run time),
// strided and reversed views, partial blocks, inplace kernels (also when the
// output aliases an input another output still reads), output cell reuse, and
// type errors that name the node.
#include "TestSuites.h"
#include "ir/GraphAssembler.h"
#include "TestSupport.h"

#include "builder/Math.h"
#include "exec/ExecContext.h"
#include "ir/Graph.h"
#include "ops/Elemwise.h"
#include "ops/ScalarOp.h"

#include <QtTest>

#include <cmath>

using namespace tl;
using C = ScalarOpCode;

namespace {

std::vector<NDArray> run(const Op& op, std::vector<NDArray> ins, std::vector<NDArray> outs = {NDArray()}) {
    ExecContext ctx;
    op.perform(ins, outs);
    return outs;
}

NDArray iota(DType d, const Shape& s, double start = 0.5, double step = 1.25) {
    int64_t n = 1;
    for (int64_t v : s) n *= v;
    std::vector<double> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = start + step * static_cast<double>(i % 97);
    return NDArray::fromVector(d, s, v);
}

// a * 2 - b computed by index arithmetic with NumPy broadcasting (the reference).
NDArray referenceBroadcast(const NDArray& a, const NDArray& b, const Shape& out) {
    NDArray r = NDArray::zeros(DType::Float64, out);
    const int nd = static_cast<int>(out.size());
    std::vector<int64_t> idx(static_cast<size_t>(nd), 0), ia(idx), ib(idx);
    for (int64_t flat = 0; flat < r.size(); ++flat) {
        int64_t rem = flat;
        for (int d = nd - 1; d >= 0; --d) {
            idx[d] = rem % out[d];
            rem /= out[d];
            ia[d] = a.dim(d) == 1 ? 0 : idx[d];
            ib[d] = b.dim(d) == 1 ? 0 : idx[d];
        }
        r.set(idx, a.get(ia) * 2 - b.get(ib));
    }
    return r;
}

// Composite {o0 = exp(i0) - 5, o1 = i0 * 2}: o1 reads i0 after o0 is computed.
OpPtr twoOutputComposite(InplacePattern inplace = {}) {
    GraphBuilder b;
    Var i0 = b.placeholder(Type::scalar(DType::Float64));
    Var o0 = exp(i0) - 5.0;
    Var o1 = i0 * 2.0;
    return makeCompositeElemwise(*b.finish({o0, o1}), std::move(inplace));
}

} // namespace

class TestElemwiseLayout : public QObject {
    Q_OBJECT
private slots:
    void broadcasting_data() {
        QTest::addColumn<QList<qint64>>("a");
        QTest::addColumn<QList<qint64>>("b");
        QTest::addColumn<QList<qint64>>("out");
        QTest::newRow("(3,1)+(1,4)") << QList<qint64>{3, 1} << QList<qint64>{1, 4} << QList<qint64>{3, 4};
        QTest::newRow("(1,1)+(2,3)") << QList<qint64>{1, 1} << QList<qint64>{2, 3} << QList<qint64>{2, 3};
        QTest::newRow("0-d") << QList<qint64>{} << QList<qint64>{} << QList<qint64>{};
        QTest::newRow("(2,1,3)*(1,4,1)") << QList<qint64>{2, 1, 3} << QList<qint64>{1, 4, 1} << QList<qint64>{2, 4, 3};
        QTest::newRow("(600,)+(1,)") << QList<qint64>{600} << QList<qint64>{1} << QList<qint64>{600};
        QTest::newRow("(257,3)+(257,1)") << QList<qint64>{257, 3} << QList<qint64>{257, 1} << QList<qint64>{257, 3};
        QTest::newRow("(3,700)+(3,700)") << QList<qint64>{3, 700} << QList<qint64>{3, 700} << QList<qint64>{3, 700};
        QTest::newRow("(0,3)+(1,3)") << QList<qint64>{0, 3} << QList<qint64>{1, 3} << QList<qint64>{0, 3};
    }

    void broadcasting() {
        QFETCH(QList<qint64>, a);
        QFETCH(QList<qint64>, b);
        QFETCH(QList<qint64>, out);
        const NDArray x = iota(DType::Float64, Shape(a.begin(), a.end()));
        const NDArray y = iota(DType::Float64, Shape(b.begin(), b.end()), -3.0, 0.5);
        // Both the fused path (a Composite) and a plain Sub of a Mul.
        GraphBuilder gb;
        Var i0 = gb.placeholder(Type::scalar(DType::Float64)), i1 = gb.placeholder(Type::scalar(DType::Float64));
        OpPtr fused = makeCompositeElemwise(*gb.finish({i0 * 2 - i1}));
        const NDArray want = referenceBroadcast(x, y, Shape(out.begin(), out.end()));
        TL_COMPARE_ARRAYS(run(*fused, {x, y})[0], want, 0.0, 0.0);
        const NDArray twice = run(Elemwise(C::Mul), {x, NDArray::fromVector(DType::Float64, Shape(a.size(), 1), {2.0})})[0];
        TL_COMPARE_ARRAYS(run(Elemwise(C::Sub), {twice, y})[0], want, 0.0, 0.0);
    }

    void runtimeShapeMismatch() {
        const NDArray x = iota(DType::Float64, {3}), y = iota(DType::Float64, {4});
        try {
            run(Elemwise(C::Add), {x, y});
            QFAIL("expected ExecError");
        } catch (const ExecError& e) {
            const QString msg = e.what();
            QVERIFY2(msg.contains("Add") && msg.contains("(3,)") && msg.contains("(4,)"), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(ExecError, run(Elemwise(C::Add), {x, iota(DType::Float64, {1, 3})}));
    }

    void stridedViews() {
        const NDArray m = iota(DType::Float64, {4, 6});
        const NDArray t = m.view({6, 4}, {1, 6}, 0);                      // transpose
        const NDArray rev = m.view({4, 6}, {-6, -1}, 23);                 // m[::-1, ::-1]
        const NDArray col = m.view({4, 1}, {6, 1}, 2);                    // m[:, 2:3]
        const NDArray every = m.view({4, 3}, {6, 2}, 1);                  // m[:, 1::2]
        auto check = [&](const NDArray& a, const NDArray& b) {
            const NDArray got = run(Elemwise(C::Sub), {a, b})[0];
            const NDArray want = run(Elemwise(C::Sub), {a.copy(), b.copy()})[0];
            QVERIFY(got.isContiguous());
            TL_COMPARE_ARRAYS(got, want, 0.0, 0.0);
            if (a.shape() == b.shape())
                for (int64_t i = 0; i < got.size(); ++i) QCOMPARE(got.flatGet(i), a.flatGet(i) - b.flatGet(i));
        };
        check(t, t.copy());
        check(rev, m);
        check(col, m);
        check(every, rev.view({4, 3}, {-6, -2}, 23));
        // dtype conversion while gathering: an int8 strided view plus float64.
        const NDArray i8 = iota(DType::Int8, {4, 6}, 1.0, 1.0);
        const NDArray got = run(Elemwise(C::Add), {i8.view({6, 4}, {1, 6}, 0), t})[0];
        QCOMPARE(dtypeName(got.dtype()), std::string_view("float64"));
        for (int64_t r = 0; r < 6; ++r)
            for (int64_t c = 0; c < 4; ++c) QCOMPARE(got.get(std::vector<int64_t>{r, c}), i8.get(std::vector<int64_t>{c, r}) + m.get(std::vector<int64_t>{c, r}));
    }

    void inplace() {
        const NDArray x = iota(DType::Float64, {300});
        const NDArray before = x.copy();
        Elemwise op(C::Exp, DType::Float64, {{0, 0}});
        QCOMPARE(op.destroyMap(), (AliasMap{{0, {0}}}));
        const NDArray out = run(op, {x})[0];
        QVERIFY(out.rawData() == x.rawData());
        TL_COMPARE_ARRAYS(x, run(Elemwise(C::Exp), {before})[0], 0.0, 0.0);
        // Reversed strided input overwritten in place.
        const NDArray y = iota(DType::Float64, {5, 7});
        const NDArray yr = y.view({5, 7}, {-7, -1}, 34);
        const NDArray want = run(Elemwise(C::Sqr), {yr.copy()})[0];
        run(Elemwise(C::Sqr, DType::Float64, {{0, 0}}), {yr});
        TL_COMPARE_ARRAYS(yr, want, 0.0, 0.0);
        // The destroyed input is also read through another layout: x + x[::-1].
        const NDArray z = iota(DType::Float64, {9});
        const NDArray zr = z.view({9}, {-1}, 8);
        const NDArray sum = run(Elemwise(C::Add), {z.copy(), zr.copy()})[0];
        run(Elemwise(C::Add, DType::Float64, {{0, 0}}), {z, zr});
        TL_COMPARE_ARRAYS(z, sum, 0.0, 0.0);
    }

    // A multi-output Composite whose first output overwrites the input the second
    // output still reads: every block is read before it is written.
    void inplaceMultiOutput() {
        for (int64_t n : {7, 300, 1000}) {
            const NDArray x = iota(DType::Float64, {n}, -1.0, 0.01);
            const NDArray orig = x.copy();
            const std::vector<NDArray> outs = run(*twoOutputComposite({{0, 0}}), {x}, {NDArray(), NDArray()});
            QVERIFY(outs[0].rawData() == x.rawData());
            const std::vector<NDArray> want = run(*twoOutputComposite(), {orig}, {NDArray(), NDArray()});
            TL_COMPARE_ARRAYS(outs[0], want[0], 0.0, 0.0);
            TL_COMPARE_ARRAYS(outs[1], want[1], 0.0, 0.0);
            // Same through a lent output cell over the input (Scan's preallocation).
            const NDArray w = orig.copy();
            std::vector<NDArray> cells = {w.lend(), NDArray()};
            cells = run(*twoOutputComposite(), {w}, std::move(cells));
            TL_COMPARE_ARRAYS(w, want[0], 0.0, 0.0);
            TL_COMPARE_ARRAYS(cells[1], want[1], 0.0, 0.0);
        }
    }

    void inplaceTypeChecks() {
        const Type vec = Type::tensor(DType::Float64, {5}), one = Type::tensor(DType::Float64, {1});
        const Type ivec = Type::tensor(DType::Int8, {5});
        std::vector<const Type*> bcast{&one, &vec}, mixed{&ivec, &vec};
        QVERIFY_THROWS_EXCEPTION(OpTypeError, Elemwise(C::Add, DType::Float64, {{0, 0}}).inferTypes(bcast));
        QVERIFY_THROWS_EXCEPTION(OpTypeError, Elemwise(C::Add, DType::Float64, {{0, 0}}).inferTypes(mixed));
        QVERIFY_THROWS_EXCEPTION(OpTypeError, Elemwise(C::Add, DType::Float64, {{0, 2}}).inferTypes(bcast));
        QCOMPARE(Elemwise(C::Add, DType::Float64, {{0, 1}}).inferTypes(bcast).at(0), vec);
    }

    void outputReuse() {
        const NDArray x = iota(DType::Float64, {50});
        NDArray cell = NDArray::empty(DType::Float64, {50});
        const void* mem = cell.rawData();
        std::vector<NDArray> outs = {std::move(cell)};
        outs = run(Elemwise(C::Tanh), {x}, std::move(outs));
        QVERIFY(outs[0].rawData() == mem);
        TL_COMPARE_ARRAYS(outs[0], run(Elemwise(C::Tanh), {x})[0], 0.0, 0.0);
        // Referenced elsewhere: not reused, the other holder keeps its values.
        const NDArray held = outs[0];
        const NDArray keep = held.copy();
        outs = run(Elemwise(C::Exp), {x}, std::move(outs));
        QVERIFY(outs[0].rawData() != held.rawData());
        TL_COMPARE_ARRAYS(held, keep, 0.0, 0.0);
        // Wrong shape or dtype: a new array.
        std::vector<NDArray> wrong = {NDArray::empty(DType::Float32, {50})};
        QCOMPARE(dtypeName(run(Elemwise(C::Exp), {x}, std::move(wrong))[0].dtype()), std::string_view("float64"));
    }

    void staticShapes_data() {
        QTest::addColumn<QList<qint64>>("a");
        QTest::addColumn<QList<qint64>>("b");
        QTest::addColumn<QString>("out");  // "" = error
        const qint64 u = kUnknownDim;
        QTest::newRow("(?,1)+(1,7)") << QList<qint64>{u, 1} << QList<qint64>{1, 7} << "Matrix(float64, shape=(?, 7))";
        QTest::newRow("(1,)+(?,)") << QList<qint64>{1} << QList<qint64>{u} << "Vector(float64, shape=(?,))";
        QTest::newRow("(?,)+(5,)") << QList<qint64>{u} << QList<qint64>{5} << "Vector(float64, shape=(5,))";
        QTest::newRow("(?,)+(?,)") << QList<qint64>{u} << QList<qint64>{u} << "Vector(float64, shape=(?,))";
        QTest::newRow("(1,)+(1,)") << QList<qint64>{1} << QList<qint64>{1} << "Vector(float64, shape=(1,))";
        QTest::newRow("(3,)+(4,)") << QList<qint64>{3} << QList<qint64>{4} << "";
    }

    void staticShapes() {
        QFETCH(QList<qint64>, a);
        QFETCH(QList<qint64>, b);
        QFETCH(QString, out);
        GraphBuilder gb;
        Var x = gb.input("x", DType::Float64, StaticShape(a.begin(), a.end()));
        Var y = gb.input("y", DType::Float64, StaticShape(b.begin(), b.end()));
        if (out.isEmpty()) {
            try {
                (void)(x + y);
                QFAIL("expected a GraphError");
            } catch (const GraphError& e) {
                const QString msg = e.what();
                QVERIFY2(msg.startsWith("Add#") && msg.contains("Incompatible Elemwise input shapes [(3,), (4,)]") &&
                             msg.contains("dim 0"),
                         e.what());
            }
            return;
        }
        QCOMPARE(QString::fromStdString((x + y).type().toString()), out);
    }

    void typeErrorsNameTheNode() {
        GraphAssembler ga;
        Variable* v = ga.addInput(Type::tensor(DType::Float64, {3}), "v");
        Variable* m = ga.addInput(Type::tensor(DType::Float64, {2, 3}), "m");
        try {
            ga.addNode(makeElemwise(C::Mul), {v, m});
            QFAIL("expected a GraphError");
        } catch (const GraphError& e) {
            QVERIFY2(QString(e.what()).startsWith("Mul#0") && QString(e.what()).contains("different ranks"), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(GraphError, ga.addNode(makeElemwise(C::And), {v, v}));  // bit op on floats
        QVERIFY_THROWS_EXCEPTION(GraphError, ga.addNode(makeScalarOp(C::Exp), {v}));       // scalar op on a tensor
        QVERIFY_THROWS_EXCEPTION(GraphError, ga.addNode(makeElemwise(C::Exp), {v, v}));    // arity
    }
};

TL_TEST_SUITE(TestElemwiseLayout)
#include "tst_elemwise_layout.moc"
