// The matrix functions (Expm in each of its Pade degrees, the bilinear discrete
// Lyapunov solver) and the structural BlockDiagonal and KroneckerProduct against
// SciPy's and NumPy's numbers; their names, dtypes and static types.
#include "TestSuites.h"
#include "LinalgTestUtil.h"

#include "builder/Linalg.h"
#include "ops/Linalg.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {
QString str(const std::string& s) { return QString::fromStdString(s); }
} // namespace

class TestLinalgFunctions : public QObject {
    Q_OBJECT
private slots:
    void expm_data() {
        QTest::addColumn<QString>("refName");
        QTest::newRow("norm below theta_3 (degree 3)") << "expm_small";
        QTest::newRow("degree 7 or 9") << "expm_medium";
        QTest::newRow("degree 13 with squaring") << "expm_large";
        QTest::newRow("a rate matrix") << "expm_rate";
    }
    void expm() {
        QFETCH(QString, refName);
        const RefCase r = refCase(refName.toStdString());
        TL_COMPARE_REF(runNode(makeExpm(), {r.inputs.at("a")})[0], r.outputs[0], 1e-12);
        TL_COMPARE_REF(runNode(makeExpm(), {r.inputs.at("a").astype(DType::Float32)})[0], r.outputs[0], 1e-5);
    }

    void expmTypes() {
        QCOMPARE(str(makeExpm()->name()), "Expm");
        const Type t = Type::tensor(DType::Int16, {3, 3});
        const Type* ts[] = {&t};
        // PyTensor: matrix(dtype=A.dtype), no static shape.
        QCOMPARE(str(makeExpm()->inferTypes(ts)[0].toString()), "Matrix(int16, shape=(?, ?))");
        // expm(0) = I, in the input's dtype.
        const NDArray z = runNode(makeExpm(), {NDArray::zeros(DType::Int64, {2, 2})})[0];
        TL_COMPARE_ARRAYS(z, NDArray::fromVector(DType::Int64, {2, 2}, {1, 0, 0, 1}), 0, 0);
        QVERIFY(errorMessage([] { runNode(makeExpm(), {NDArray::zeros(DType::Float64, {2, 3})}); }).find("square") != std::string::npos);
    }

    void lyapunov() {
        const RefCase r = refCase("lyapunov");
        const NDArray x = runNode(makeBilinearSolveDiscreteLyapunov(), {r.inputs.at("a"), r.inputs.at("q")})[0];
        TL_COMPARE_REF(x, r.outputs[0], 1e-12);
        // It solves A X A^T - X + Q = 0.
        const NDArray& a = r.inputs.at("a");
        const NDArray axat = refMatmul(refMatmul(a, x), refTranspose(a));
        NDArray residual = axat.copy();
        for (int64_t i = 0; i < residual.size(); ++i)
            residual.data<double>()[i] += r.inputs.at("q").flatGet(i) - x.flatGet(i);
        TL_COMPARE_REF(residual, NDArray::zeros(DType::Float64, residual.shape()), 1e-12);
        QCOMPARE(str(makeBilinearSolveDiscreteLyapunov()->name()), "BilinearSolveDiscreteLyapunov");
        // A + I singular: the inverse in the bilinear transform fails, naming the node.
        const NDArray minusI = NDArray::fromVector(DType::Float64, {2, 2}, {-1, 0, 0, 2});
        const std::string e = errorMessage([&] { runNode(makeBilinearSolveDiscreteLyapunov(), {minusI, minusI}); });
        QVERIFY2(e.find("BilinearSolveDiscreteLyapunov#") != std::string::npos && e.find("Singular") != std::string::npos, e.c_str());
    }

    // scipy.linalg.solve_continuous_lyapunov: A X + X A^T = Q, in float64 and float32.
    void continuousLyapunov() {
        const RefCase r = refCase("continuous_lyapunov");
        const NDArray &a = r.inputs.at("a"), &q = r.inputs.at("q");
        const NDArray x = runNode(makeSolveContinuousLyapunov(), {a, q})[0];
        TL_COMPARE_REF(x, r.outputs[0], 1e-12);
        NDArray residual = refMatmul(a, x).copy();
        const NDArray xat = refMatmul(x, refTranspose(a));
        for (int64_t i = 0; i < residual.size(); ++i) residual.data<double>()[i] += xat.flatGet(i) - q.flatGet(i);
        TL_COMPARE_REF(residual, NDArray::zeros(DType::Float64, residual.shape()), 1e-12);
        const NDArray x32 = runNode(makeSolveContinuousLyapunov(), {a.astype(DType::Float32), q.astype(DType::Float32)})[0];
        QCOMPARE(x32.dtype(), DType::Float32);
        TL_COMPARE_REF(x32, r.outputs[0], 1e-5);
        QCOMPARE(str(makeSolveContinuousLyapunov()->name()), "SolveContinuousLyapunov");
        QCOMPARE(gufuncSignature(*makeSolveContinuousLyapunov()), std::string("(m,m),(m,m)->(m,m)"));
        const NDArray none = NDArray::empty(DType::Float64, {0, 0});
        QCOMPARE(runNode(makeSolveContinuousLyapunov(), {none, none})[0].shape(), (Shape{0, 0}));
        const std::string e = errorMessage([&] { runNode(makeSolveContinuousLyapunov(), {a, NDArray::zeros(DType::Float64, {2, 2})}); });
        QVERIFY2(e.find("same shape") != std::string::npos, e.c_str());
        // The builder batches it as pt.linalg.solve_continuous_lyapunov does.
        GraphBuilder b;
        Var va = b.input("a", DType::Float64, {a.dim(0), a.dim(1)}), vq = b.input("q", DType::Float64, {q.dim(0), q.dim(1)});
        Var vx = linalg::solveContinuousLyapunov(va, vq);
        QCOMPARE(vx.get()->owner()->op().kind(), OpKind::Blockwise);
        auto g = b.finish({vx});
        TL_COMPARE_REF(runGraph(*g, std::vector<NDArray>{a, q}).outputs.at(0), r.outputs[0], 1e-12);
    }

    // scipy.linalg.solve_discrete_are, also where SciPy balances the pencil; the residual
    // of the Riccati equation; float32; SciPy's errors.
    void discreteRiccati_data() {
        QTest::addColumn<QString>("refName");
        QTest::newRow("3 states, 2 inputs") << "dare";
        QTest::newRow("balanced pencil") << "dare_balanced";
    }
    void discreteRiccati() {
        QFETCH(QString, refName);
        const RefCase r = refCase(refName.toStdString());
        const NDArray &a = r.inputs.at("a"), &b = r.inputs.at("b"), &q = r.inputs.at("q"), &rr = r.inputs.at("r");
        OpPtr op = makeSolveDiscreteARE();
        const NDArray x = runNode(op, {a, b, q, rr})[0];
        TL_COMPARE_REF(x, r.outputs[0], 1e-9);
        // A^T X A - X - (A^T X B)(R + B^T X B)^-1 (B^T X A) + Q = 0, checked through the gain
        // K = (R + B^T X B)^-1 B^T X A: A^T X A - X - (A^T X B) K + Q.
        const NDArray at = refTranspose(a), bt = refTranspose(b);
        const NDArray atxb = refMatmul(refMatmul(at, x), b);
        NDArray inner = refMatmul(refMatmul(bt, x), b).copy();
        for (int64_t i = 0; i < inner.size(); ++i) inner.data<double>()[i] += rr.flatGet(i);
        const NDArray gain = runNode(makeSolve("gen", false, true, 2), {inner, refMatmul(refMatmul(bt, x), a)})[0];
        NDArray residual = refMatmul(refMatmul(at, x), a).copy();
        const NDArray correction = refMatmul(atxb, gain);
        double scale = 0.0;
        for (int64_t i = 0; i < residual.size(); ++i) {
            residual.data<double>()[i] += q.flatGet(i) - x.flatGet(i) - correction.flatGet(i);
            scale = std::max(scale, std::fabs(x.flatGet(i)));
        }
        TL_COMPARE_REF(residual, NDArray::zeros(DType::Float64, residual.shape()), 1e-9 * scale);
        const NDArray x32 = runNode(op, {a.astype(DType::Float32), b.astype(DType::Float32), q.astype(DType::Float32), rr.astype(DType::Float32)})[0];
        QCOMPARE(x32.dtype(), DType::Float32);
        TL_COMPARE_REF(x32, r.outputs[0], 1e-5 * scale);
    }
    void discreteRiccatiErrors() {
        const RefCase r = refCase("dare");
        const NDArray &a = r.inputs.at("a"), &b = r.inputs.at("b"), &q = r.inputs.at("q"), &rr = r.inputs.at("r");
        OpPtr op = makeSolveDiscreteARE();
        QCOMPARE(str(op->name()), "SolveDiscreteARE{enforce_Q_symmetric=False}");
        QCOMPARE(gufuncSignature(*op), std::string("(m,m),(m,n),(m,m),(n,n)->(m,m)"));
        checkJsonRoundTrip(op);
        NDArray skew = q.copy();
        skew.data<double>()[1] += 0.5;
        QVERIFY(errorMessage([&] { runNode(op, {a, b, skew, rr}); }).find("Matrix q should be symmetric") != std::string::npos);
        // enforce_Q_symmetric solves with (Q + Q^T) / 2.
        NDArray sym = skew.copy();
        sym.data<double>()[1] -= 0.25;
        sym.data<double>()[3] += 0.25;
        TL_COMPARE_REF(runNode(makeSolveDiscreteARE(true), {a, b, skew, rr})[0], runNode(op, {a, b, sym, rr})[0], 1e-12);
        const std::string shape = errorMessage([&] { runNode(op, {a, b, q, q}); });
        QVERIFY2(shape.find("R n x n") != std::string::npos, shape.c_str());
        // No stabilizing solution: A unstable and B zero (nothing controls it); SciPy's words.
        const NDArray unstable = NDArray::fromVector(DType::Float64, {1, 1}, {2.0});
        const NDArray none = NDArray::zeros(DType::Float64, {1, 1}), one = NDArray::fromVector(DType::Float64, {1, 1}, {1.0});
        const std::string e = errorMessage([&] { runNode(op, {unstable, none, one, one}); });
        QVERIFY2(e.find("SolveDiscreteARE: Failed to find a finite solution.") != std::string::npos, e.c_str());
        // The builder batches it as pt.linalg.solve_discrete_are does.
        GraphBuilder g;
        Var va = g.input("a", DType::Float64, {3, 3}), vb = g.input("b", DType::Float64, {3, 2});
        Var vq = g.input("q", DType::Float64, {3, 3}), vr = g.input("r", DType::Float64, {2, 2});
        Var vx = linalg::solveDiscreteAre(va, vb, vq, vr);
        QCOMPARE(vx.get()->owner()->op().kind(), OpKind::Blockwise);
        auto graph = g.finish({vx});
        TL_COMPARE_REF(runGraph(*graph, std::vector<NDArray>{a, b, q, rr}).outputs.at(0), r.outputs[0], 1e-9);
    }

    void blockDiagonal() {
        const RefCase r = refCase("block_diag");
        OpPtr op = makeBlockDiagonal(2);
        TL_COMPARE_REF(runNode(op, {r.inputs.at("a"), r.inputs.at("b")})[0], r.outputs[0], 0);
        QCOMPARE(str(op->name()), "BlockDiagonal{n_inputs=2}");
        QCOMPARE(gufuncSignature(*op), std::string("(m0,n0),(m1,n1)->(m,n)"));
        // dtype: the promotion of all inputs (bool with int8 is int8, uint8 with int8 int16).
        const Type b = Type::tensor(DType::Bool, {2, 2}), i8 = Type::tensor(DType::Int8, {1, 3}),
                   u8 = Type::tensor(DType::UInt8, {2, kUnknownDim});
        const Type* bi[] = {&b, &i8};
        const Type* ui[] = {&u8, &i8};
        QCOMPARE(str(op->inferTypes(bi)[0].toString()), "Matrix(int8, shape=(3, 5))");
        QCOMPARE(str(op->inferTypes(ui)[0].toString()), "Matrix(int16, shape=(3, ?))");
        const NDArray mixed = runNode(op, {NDArray::fromVector(DType::Bool, {1, 1}, {1}), NDArray::fromVector(DType::Int8, {1, 2}, {-3, 4})})[0];
        TL_COMPARE_ARRAYS(mixed, NDArray::fromVector(DType::Int8, {2, 3}, {1, 0, 0, 0, -3, 4}), 0, 0);
        checkJsonRoundTrip(op);
        QVERIFY(errorMessage([] { makeBlockDiagonal(0); }).find("greater than 0") != std::string::npos);
    }

    void kronecker() {
        const RefCase r = refCase("kron"), r3 = refCase("kron3");
        OpPtr op = makeKroneckerProduct();
        TL_COMPARE_REF(runNode(op, {r.inputs.at("a"), r.inputs.at("b")})[0], r.outputs[0], 1e-15);
        TL_COMPARE_REF(runNode(op, {r3.inputs.at("a"), r3.inputs.at("b")})[0], r3.outputs[0], 1e-15);
        QCOMPARE(str(op->name()), "KroneckerProduct{inline=False}");
        // Integers multiply exactly (wrapping as NumPy's int arithmetic).
        const NDArray a = NDArray::fromVector(DType::Int16, {1, 2}, {3, -2});
        const NDArray b = NDArray::fromVector(DType::Int16, {2, 1}, {5, 7});
        TL_COMPARE_ARRAYS(runNode(op, {a, b})[0], NDArray::fromVector(DType::Int16, {2, 2}, {15, -10, 21, -14}), 0, 0);
        // The builder pads the lower-rank input as pt.linalg.kron does.
        GraphBuilder g;
        Var m = g.input("m", DType::Float64, {2, 2}), v = g.input("v", DType::Float64, {3});
        Var k = linalg::kron(m, v);
        QCOMPARE(str(k.type().toString()), "Matrix(float64, shape=(?, ?))");
        QVERIFY(errorMessage([&] { linalg::kron(v, v); }).find("sum to 3 or more") != std::string::npos);
    }
};

TL_TEST_SUITE(TestLinalgFunctions)
#include "tst_linalg_functions.moc"
