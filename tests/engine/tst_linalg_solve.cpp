// The linear solvers and the inverse family against SciPy's and NumPy's numbers
// (tests/data/linalg_reference.json): Solve in every assume_a form, SolveTriangular,
// CholeskySolve, MatrixInverse, Det, SLogDet; PyTensor's output dtypes for every
// input dtype; the errors SciPy raises (singular, not positive definite, NaN under
// check_finite) naming the node; printed names and JSON params.
#include "TestSuites.h"
#include "LinalgTestUtil.h"

#include "ops/Linalg.h"

#include <QtTest>

#include <cmath>

using namespace tl;
using namespace tl::test;

namespace {
constexpr DType kAllDTypes[] = {DType::Bool,  DType::Int8,    DType::Int16,  DType::Int32,
                                DType::Int64, DType::UInt8, DType::Float32, DType::Float64};
QString str(const std::string& s) { return QString::fromStdString(s); }
} // namespace

class TestLinalgSolve : public QObject {
    Q_OBJECT
private slots:
    void solvers_data() {
        QTest::addColumn<QString>("refName");
        QTest::addColumn<QString>("kind");  // solve assume_a, "triangular-lower", ...
        QTest::addColumn<bool>("lower");
        QTest::newRow("solve gen vector") << "solve_gen_vec" << "gen" << false;
        QTest::newRow("solve gen matrix") << "solve_gen_mat" << "gen" << false;
        QTest::newRow("solve sym upper") << "solve_sym" << "sym" << false;
        QTest::newRow("solve sym lower") << "solve_sym_lower" << "sym" << true;
        QTest::newRow("solve her") << "solve_sym" << "her" << false;
        QTest::newRow("solve pos upper") << "solve_pos" << "pos" << false;
        QTest::newRow("solve pos lower") << "solve_pos_lower" << "pos" << true;
        QTest::newRow("solve tridiagonal") << "solve_tridiagonal" << "tridiagonal" << false;
        QTest::newRow("solve banded") << "solve_banded" << "banded" << false;
        QTest::newRow("triangular lower") << "solve_triangular_lower" << "triangular" << true;
        QTest::newRow("triangular upper") << "solve_triangular_upper" << "triangular" << false;
        QTest::newRow("triangular unit diagonal") << "solve_triangular_unit" << "unit" << true;
        QTest::newRow("cho_solve") << "cho_solve" << "cholesky" << true;
    }
    void solvers() {
        QFETCH(QString, refName);
        QFETCH(QString, kind);
        QFETCH(bool, lower);
        const RefCase r = refCase(refName.toStdString());
        const NDArray a = r.inputs.count("a") ? r.inputs.at("a") : r.inputs.at("c");
        const NDArray b = r.inputs.at("b");
        const int bNdim = b.ndim();
        OpPtr op = kind == "triangular" || kind == "unit" ? makeSolveTriangular(kind == "unit", lower, true, bNdim)
                   : kind == "cholesky"                   ? makeCholeskySolve(lower, true, bNdim)
                                                          : makeSolve(kind.toStdString(), lower, true, bNdim);
        const NDArray x = runNode(op, {a, b})[0];
        QCOMPARE(x.dtype(), DType::Float64);
        TL_COMPARE_REF(x, r.outputs[0], 1e-12);
        // float32 goes to the s routines: the same solution to float32 precision.
        const NDArray x32 = runNode(op, {a.astype(DType::Float32), b.astype(DType::Float32)})[0];
        QCOMPARE(x32.dtype(), DType::Float32);
        TL_COMPARE_REF(x32, r.outputs[0], 2e-4);
        checkJsonRoundTrip(op);
    }

    // A batch element solves in a strided view (a transposed A, a column of B).
    void stridedInputs() {
        const RefCase r = refCase("solve_gen_mat");
        const NDArray at = refTranspose(r.inputs.at("a"));
        const NDArray aView = at.view({4, 4}, {1, 4}, 0);  // A again, column-major
        const NDArray x = runNode(makeSolve("gen", false, true, 2), {aView, r.inputs.at("b")})[0];
        TL_COMPARE_REF(x, r.outputs[0], 1e-12);
    }

    void names() {
        QCOMPARE(str(makeSolve("gen", false, true, 1)->name()),
                 "Solve{assume_a='gen', lower=False, check_finite=True, b_ndim=1, overwrite_a=False, overwrite_b=False}");
        QCOMPARE(str(makeSolveTriangular(true, true, true, 2)->name()),
                 "SolveTriangular{unit_diagonal=True, lower=True, check_finite=True, b_ndim=2, overwrite_b=False}");
        QCOMPARE(str(makeCholeskySolve(true, true, 1)->name()),
                 "CholeskySolve{lower=True, check_finite=True, b_ndim=1, overwrite_b=False}");
        QCOMPARE(str(makeMatrixInverse()->name()), "MatrixInverse");
        QCOMPARE(str(makeDet()->name()), "Det");
        QCOMPARE(str(makeSLogDet()->name()), "SLogDet");
        // destroy_map as PyTensor's: overwrite_b destroys b, overwrite_a destroys A.
        QCOMPARE(makeSolve("gen", false, true, 1, false, true)->destroyMap(), (AliasMap{{0, {1}}}));
        QCOMPARE(makeSolve("gen", false, true, 1, true, false)->destroyMap(), (AliasMap{{0, {0}}}));
        QCOMPARE(makeSolveTriangular(false, true, true, 1, true)->destroyMap(), (AliasMap{{0, {1}}}));
        QVERIFY(errorMessage([] { makeSolve("gen", false, true, 1, true, true); }).find("cannot both") != std::string::npos);
        QVERIFY(errorMessage([] { makeSolve("diagonal", false, true, 1); }).find("not one of") != std::string::npos);
        QVERIFY(errorMessage([] { makeOp(OpKind::Solve, {{"assume_a", "gen"}}, nullptr); }).find("b_ndim") != std::string::npos);
        // The exporter's long names are PyTensor's short ones.
        QCOMPARE(str(makeOp(OpKind::Solve, {{"assume_a", "positive definite"}, {"b_ndim", 1}}, nullptr)->name()).left(19),
                 "Solve{assume_a='pos");
    }

    // Output dtypes as PyTensor takes them from SciPy (float32 for small ints and
    // float32, float64 otherwise), for every input dtype; the values solve the system.
    void dtypes() {
        const NDArray a = NDArray::fromVector(DType::Float64, {2, 2}, {2, 1, 1, 3});
        const NDArray b = NDArray::fromVector(DType::Float64, {2}, {1, 1});
        for (DType d : kAllDTypes) {
            if (d == DType::Bool) continue;  // a bool matrix is singular here
            const DType want = d == DType::Int32 || d == DType::Int64 || d == DType::Float64 ? DType::Float64 : DType::Float32;
            for (OpPtr op : {makeSolve("gen", false, true, 1), makeSolveTriangular(false, false, true, 1),
                             makeCholeskySolve(true, true, 1)}) {
                const Type ta = Type::tensor(d, {2, 2}), tb = Type::tensor(d, {2});
                const Type* types[] = {&ta, &tb};
                QCOMPARE(op->inferTypes(types)[0].dtype, want);
                QCOMPARE(runNode(op, {a.astype(d), b.astype(d)})[0].dtype(), want);
            }
            const NDArray x = runNode(makeSolve("gen", false, true, 1), {a.astype(d), b.astype(d)})[0];
            TL_COMPARE_REF(x, NDArray::fromVector(DType::Float64, {2}, {0.4, 0.2}), 1e-6);
        }
        // Mixed: the promoted dtype decides.
        const Type f32 = Type::tensor(DType::Float32, {2, 2}), i32 = Type::tensor(DType::Int32, {2});
        const Type* mixed[] = {&f32, &i32};
        QCOMPARE(makeSolve("gen", false, true, 1)->inferTypes(mixed)[0].dtype, DType::Float64);
    }

    void solverErrors() {
        const NDArray sing = NDArray::fromVector(DType::Float64, {2, 2}, {1, 2, 2, 4});
        const NDArray b = NDArray::fromVector(DType::Float64, {2}, {1, 1});
        const std::string gen = errorMessage([&] { runNode(makeSolve("gen", false, true, 1), {sing, b}); });
        QVERIFY2(gen.find("Solve{assume_a='gen'") != std::string::npos && gen.find("#") != std::string::npos &&
                     gen.find("singular") != std::string::npos,
                 gen.c_str());
        const NDArray indefinite = NDArray::fromVector(DType::Float64, {2, 2}, {1, 2, 2, 1});
        const std::string pos = errorMessage([&] { runNode(makeSolve("pos", false, true, 1), {indefinite, b}); });
        QVERIFY2(pos.find("not positive definite") != std::string::npos, pos.c_str());
        const NDArray zeroDiag = NDArray::fromVector(DType::Float64, {2, 2}, {1, 0, 3, 0});
        const std::string tri = errorMessage([&] { runNode(makeSolveTriangular(false, true, true, 1), {zeroDiag, b}); });
        QVERIFY2(tri.find("resolution failed at diagonal 1") != std::string::npos, tri.c_str());
        const NDArray nan = NDArray::fromVector(DType::Float64, {2}, {1, NAN});
        const std::string fin = errorMessage([&] { runNode(makeSolve("gen", false, true, 1), {indefinite, nan}); });
        QVERIFY2(fin.find("must not contain infs or NaNs") != std::string::npos, fin.c_str());
        // check_finite=False lets the NaN through, as SciPy does.
        QVERIFY(std::isnan(runNode(makeSolve("gen", false, false, 1), {indefinite, nan})[0].flatGet(0)));
        // Shapes: b must match A's rows; A must be square; b's dims must be b_ndim.
        const NDArray b3 = NDArray::fromVector(DType::Float64, {3}, {1, 1, 1});
        QVERIFY(errorMessage([&] { runNode(makeSolve("gen", false, true, 1), {indefinite, b3}); }).find("same number of rows") !=
                std::string::npos);
        const Type m = Type::tensor(DType::Float64, {2, 2}), v = Type::tensor(DType::Float64, {2, 1});
        const Type* wrongNdim[] = {&m, &v};
        QVERIFY(errorMessage([&] { makeSolve("gen", false, true, 1)->inferTypes(wrongNdim); }).find("must have 1 dims") !=
                std::string::npos);
    }

    void inverseFamily() {
        const RefCase inv = refCase("inv"), det = refCase("det"), sld = refCase("slogdet");
        const NDArray a = inv.inputs.at("a");
        TL_COMPARE_REF(runNode(makeMatrixInverse(), {a})[0], inv.outputs[0], 1e-12);
        TL_COMPARE_REF(runNode(makeDet(), {a})[0], det.outputs[0], 1e-12);
        const auto s = runNode(makeSLogDet(), {a});
        TL_COMPARE_REF(s[0], sld.outputs[0], 0);
        TL_COMPARE_REF(s[1], sld.outputs[1], 1e-12);
        // Singular: det 0 and slogdet (0, -inf) as NumPy returns them; inv is an error.
        const RefCase ds = refCase("det_singular"), ss = refCase("slogdet_singular");
        const NDArray sing = ds.inputs.at("a");
        TL_COMPARE_REF(runNode(makeDet(), {sing})[0], ds.outputs[0], 0);
        const auto s2 = runNode(makeSLogDet(), {sing});
        QCOMPARE(s2[0].item(), ss.outputs[0].item());
        QCOMPARE(s2[1].item(), -INFINITY);
        const std::string e = errorMessage([&] { runNode(makeMatrixInverse(), {sing}); });
        QVERIFY2(e.find("MatrixInverse#") != std::string::npos && e.find("Singular matrix") != std::string::npos, e.c_str());
        // float32 inputs compute in float64 as NumPy does, then round once.
        const NDArray i32 = runNode(makeMatrixInverse(), {a.astype(DType::Float32)})[0];
        QCOMPARE(i32.dtype(), DType::Float32);
        TL_COMPARE_REF(i32, inv.outputs[0].astype(DType::Float32).astype(DType::Float64), 1e-6);
        // PyTensor keeps the input dtype: the inverse of an int matrix is truncated to ints.
        const NDArray two = NDArray::fromVector(DType::Int64, {2, 2}, {2, 0, 0, 4});
        const NDArray ii = runNode(makeMatrixInverse(), {two})[0];
        QCOMPARE(ii.dtype(), DType::Int64);
        TL_COMPARE_ARRAYS(ii, NDArray::fromVector(DType::Int64, {2, 2}, {0, 0, 0, 0}), 0, 0);
        QCOMPARE(runNode(makeDet(), {two})[0].dtype(), DType::Int64);
        // NumPy's det is sign * exp(log|det|) = 7.999999999999998 here, and PyTensor's int64
        // det of it is 7 (checked with PyTensor 2.34).
        QCOMPARE(runNode(makeDet(), {two})[0].item(), 7.0);
        const NDArray bools = NDArray::fromVector(DType::Bool, {2, 2}, {1, 0, 0, 1});
        QCOMPARE(runNode(makeDet(), {bools})[0].dtype(), DType::Bool);
        // Det of a statically non-square matrix is a type error naming the shapes.
        const Type rect = Type::tensor(DType::Float64, {2, 3});
        const Type* r[] = {&rect};
        QVERIFY(errorMessage([&] { makeDet()->inferTypes(r); }).find("non-square") != std::string::npos);
        QVERIFY(errorMessage([&] { runNode(makeMatrixInverse(), {NDArray::zeros(DType::Float64, {2, 3})}); }).find("square") !=
                std::string::npos);
        // An empty matrix: det 1, inverse empty, as NumPy.
        QCOMPARE(runNode(makeDet(), {NDArray::zeros(DType::Float64, {0, 0})})[0].item(), 1.0);
        QCOMPARE(runNode(makeMatrixInverse(), {NDArray::zeros(DType::Float64, {0, 0})})[0].size(), int64_t(0));
    }
};

TL_TEST_SUITE(TestLinalgSolve)
#include "tst_linalg_solve.moc"
