// The factorizations and spectral ops against SciPy's and NumPy's numbers
// (tests/data/linalg_reference.json): Cholesky, LU, LUFactor, PivotToPermutations,
// QR in every mode, Eigh, Eigvalsh, SVD, MatrixPinv, Lstsq. Eigen- and singular
// vectors are fixed up to sign, so they are checked through |v| and reconstructions.
#include "TestSuites.h"
#include "LinalgTestUtil.h"

#include "ops/Linalg.h"

#include <QtTest>

#include <cmath>

using namespace tl;
using namespace tl::test;

namespace {
QString str(const std::string& s) { return QString::fromStdString(s); }

NDArray absOf(const NDArray& a) {
    NDArray r = a.astype(DType::Float64);
    for (int64_t i = 0; i < r.size(); ++i) r.data<double>()[i] = std::fabs(r.data<double>()[i]);
    return r;
}
} // namespace

class TestLinalgDecomp : public QObject {
    Q_OBJECT
private slots:
    void cholesky() {
        for (bool lower : {true, false}) {
            const RefCase r = refCase(lower ? "cholesky_lower" : "cholesky_upper");
            const NDArray l = runNode(makeCholesky(lower), {r.inputs.at("a")})[0];
            TL_COMPARE_REF(l, r.outputs[0], 1e-12);  // the other triangle is exactly zero
            TL_COMPARE_REF(runNode(makeCholesky(lower), {r.inputs.at("a").astype(DType::Float32)})[0], r.outputs[0], 1e-5);
        }
        QCOMPARE(str(makeCholesky()->name()), "Cholesky{lower=True, check_finite=False, on_error='raise', overwrite_a=False}");
        QCOMPARE(makeCholesky(true, false, "raise", true)->destroyMap(), (AliasMap{{0, {0}}}));
        const NDArray indefinite = NDArray::fromVector(DType::Float64, {2, 2}, {1, 2, 2, 1});
        const std::string e = errorMessage([&] { runNode(makeCholesky(), {indefinite}); });
        QVERIFY2(e.find("Cholesky{") != std::string::npos && e.find("2-th leading minor of the array is not positive definite") != std::string::npos,
                 e.c_str());
        // on_error='nan': a NaN matrix instead, as PyTensor returns it.
        const NDArray nan = runNode(makeCholesky(true, false, "nan"), {indefinite})[0];
        for (int64_t i = 0; i < 4; ++i) QVERIFY(std::isnan(nan.flatGet(i)));
        // Output dtype SciPy's: float32 for small ints, float64 for int64.
        const NDArray eye = NDArray::fromVector(DType::Int8, {2, 2}, {4, 0, 0, 9});
        const NDArray c8 = runNode(makeCholesky(), {eye})[0];
        QCOMPARE(c8.dtype(), DType::Float32);
        TL_COMPARE_REF(c8, NDArray::fromVector(DType::Float64, {2, 2}, {2, 0, 0, 3}), 0);
        QCOMPARE(runNode(makeCholesky(), {eye.astype(DType::Int64)})[0].dtype(), DType::Float64);
        checkJsonRoundTrip(makeCholesky(false, true, "nan", false));
    }

    void lu() {
        const RefCase r = refCase("lu");
        const auto plu = runNode(makeLU(), {r.inputs.at("a")});
        for (int k = 0; k < 3; ++k) TL_COMPARE_REF(plu[k], r.outputs[k], 1e-12);
        const RefCase p = refCase("lu_permute_l");
        const auto pl = runNode(makeLU(true), {p.inputs.at("a")});
        TL_COMPARE_REF(pl[0], p.outputs[0], 1e-12);
        TL_COMPARE_REF(pl[1], p.outputs[1], 1e-12);
        // p_indices: A = L[p] @ U, the row indices of the permutation matrix P (P[i, p[i]] = 1).
        const auto pi = runNode(makeLU(false, false, true, true), {r.inputs.at("a")});
        QCOMPARE(pi[0].dtype(), DType::Int32);
        for (int64_t i = 0; i < 4; ++i)
            QCOMPARE(r.outputs[0].get(std::vector<int64_t>{i, static_cast<int64_t>(pi[0].flatGet(i))}), 1.0);
        QCOMPARE(str(makeLU()->name()), "LU{permute_l=False, overwrite_a=False, check_finite=True, p_indices=False}");

        const RefCase f = refCase("lu_factor");
        const auto lp = runNode(makeLUFactor(), {f.inputs.at("a")});
        TL_COMPARE_REF(lp[0], f.outputs[0], 1e-12);
        QCOMPARE(lp[1].dtype(), DType::Int32);
        TL_COMPARE_ARRAYS(lp[1], f.outputs[1], 0, 0);
        // PyTensor's own destroy_map for overwrite_a: the pivots output destroys A.
        QCOMPARE(makeLUFactor(true)->destroyMap(), (AliasMap{{1, {0}}}));
        // A singular matrix factors (SciPy only warns).
        const NDArray sing = NDArray::fromVector(DType::Float64, {2, 2}, {1, 2, 2, 4});
        QCOMPARE(runNode(makeLUFactor(), {sing})[0].get(std::vector<int64_t>{1, 1}), 0.0);

        const RefCase pp = refCase("pivot_to_permutations");
        TL_COMPARE_ARRAYS(runNode(makePivotToPermutations(true), {pp.inputs.at("p")})[0], pp.outputs[0], 0, 0);
        TL_COMPARE_ARRAYS(runNode(makePivotToPermutations(false), {pp.inputs.at("p")})[0], pp.outputs[1], 0, 0);
        QCOMPARE(runNode(makePivotToPermutations(), {pp.inputs.at("p")})[0].dtype(), DType::Int64);
        const NDArray bad = NDArray::fromVector(DType::Int32, {2}, {0, 5});
        QVERIFY(errorMessage([&] { runNode(makePivotToPermutations(), {bad}); }).find("out of range") != std::string::npos);
    }

    void qr_data() {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<bool>("tall");
        for (const char* m : {"full", "economic", "r"}) {
            QTest::newRow((std::string(m) + " tall").c_str()) << m << true;
            QTest::newRow((std::string(m) + " wide").c_str()) << m << false;
        }
    }
    void qr() {
        QFETCH(QString, mode);
        QFETCH(bool, tall);
        const RefCase r = refCase("qr_" + mode.toStdString() + (tall ? "_tall" : "_wide"));
        const NDArray a = r.inputs.at("a");
        OpPtr op = makeQR(mode.toStdString());
        const auto got = runNode(op, {a});
        QCOMPARE(got.size(), r.outputs.size());
        // Same LAPACK routines as SciPy: the same signs too.
        for (size_t k = 0; k < got.size(); ++k) TL_COMPARE_REF(got[k], r.outputs[k], 1e-12);
        // The static types follow PyTensor's make_node.
        const Type t = Type::tensor(DType::Float64, {a.dim(0), a.dim(1)});
        const Type* ts[] = {&t};
        const auto types = op->inferTypes(ts);
        for (size_t k = 0; k < got.size(); ++k)
            for (int d = 0; d < got[k].ndim(); ++d) QCOMPARE(types[k].shape[d], got[k].dim(d));
        checkJsonRoundTrip(op);
    }

    void qrPivotingRawAndDtypes() {
        const RefCase p = refCase("qr_full_pivoting");
        const auto got = runNode(makeQR("full", false, true), {p.inputs.at("a")});
        for (int k = 0; k < 2; ++k) TL_COMPARE_REF(got[k], p.outputs[k], 1e-12);
        TL_COMPARE_ARRAYS(got[2], p.outputs[2], 0, 0);
        const RefCase raw = refCase("qr_raw");
        const auto h = runNode(makeQR("raw"), {raw.inputs.at("a")});
        for (int k = 0; k < 3; ++k) TL_COMPARE_REF(h[k], raw.outputs[k], 1e-12);
        QCOMPARE(str(makeQR()->name()), "QR{overwrite_a=False, mode='full', pivoting=False, check_finite=False}");
        // f{itemsize}: int32 -> float32, int64 -> float64; int16 would be float16, int8 no float at all.
        const Type i32 = Type::tensor(DType::Int32, {3, 3}), i16 = Type::tensor(DType::Int16, {3, 3});
        const Type* a[] = {&i32};
        const Type* b[] = {&i16};
        QCOMPARE(makeQR()->inferTypes(a)[0].dtype, DType::Float32);
        QVERIFY(errorMessage([&] { makeQR()->inferTypes(b); }).find("float16") != std::string::npos);
    }

    void eigh() {
        for (const char* name : {"eigh", "eigh_upper"}) {
            const RefCase r = refCase(name);
            const auto wv = runNode(makeEigh(std::string(name) == "eigh" ? "L" : "U"), {r.inputs.at("a")});
            TL_COMPARE_REF(wv[0], r.outputs[0], 1e-12);
            TL_COMPARE_REF(absOf(wv[1]), absOf(r.outputs[1]), 1e-10);
            // V diag(w) V^T is the (symmetrized) input.
            const NDArray back = refMatmul(scaleColumns(wv[1], wv[0]), refTranspose(wv[1]));
            TL_COMPARE_REF(back, refMatmul(scaleColumns(r.outputs[1], r.outputs[0]), refTranspose(r.outputs[1])), 1e-10);
        }
        const RefCase r = refCase("eigh");
        const auto w32 = runNode(makeEigh(), {r.inputs.at("a").astype(DType::Float32)});
        QCOMPARE(w32[0].dtype(), DType::Float32);
        QCOMPARE(runNode(makeEigh(), {r.inputs.at("a").astype(DType::Int64)})[0].dtype(), DType::Float64);
        QCOMPARE(str(makeEigh()->name()), "Eigh{UPLO='L'}");
        QCOMPARE(str(makeEigvalsh()->name()), "Eigvalsh{lower=True}");
        const RefCase e = refCase("eigvalsh"), g = refCase("eigvalsh_generalized");
        TL_COMPARE_REF(runNode(makeEigvalsh(), {e.inputs.at("a")})[0], e.outputs[0], 1e-12);
        TL_COMPARE_REF(runNode(makeEigvalsh(), {g.inputs.at("a"), g.inputs.at("b")})[0], g.outputs[0], 1e-12);
        const NDArray indefinite = NDArray::fromVector(DType::Float64, {2, 2}, {1, 2, 2, 1});
        const std::string err = errorMessage([&] { runNode(makeEigvalsh(), {indefinite, indefinite}); });
        QVERIFY2(err.find("of B is not positive definite") != std::string::npos, err.c_str());
    }

    void svd() {
        for (const char* base : {"svd_tall", "svd_wide"}) {
            for (bool full : {false, true}) {
                const RefCase r = refCase(std::string(base) + (full ? "_full" : ""));
                const auto usv = runNode(makeSVD(full, true), {r.inputs.at("a")});
                TL_COMPARE_REF(usv[1], r.outputs[1], 1e-12);
                TL_COMPARE_REF(absOf(usv[0]), absOf(r.outputs[0]), 1e-10);
                TL_COMPARE_REF(absOf(usv[2]), absOf(r.outputs[2]), 1e-10);
                if (!full)  // U diag(s) V^T is the input
                    TL_COMPARE_REF(refMatmul(scaleColumns(usv[0], usv[1]), usv[2]), r.inputs.at("a"), 1e-12);
                TL_COMPARE_REF(runNode(makeSVD(full, false), {r.inputs.at("a")})[0], r.outputs[1], 1e-12);
            }
        }
        QCOMPARE(str(makeSVD(false, true)->name()), "SVD{full_matrices=False, compute_uv=True}");
        // PyTensor's dtypes: int32 -> float32, int64 -> float64; uint8 and bool stay (as PyTensor types them).
        const Type i32 = Type::tensor(DType::Int32, {3, 3});
        const Type* a[] = {&i32};
        QCOMPARE(makeSVD()->inferTypes(a)[0].dtype, DType::Float32);
    }

    void pinvAndLstsq() {
        for (const char* name : {"pinv_tall", "pinv_wide", "pinv_rank_deficient"}) {
            const RefCase r = refCase(name);
            TL_COMPARE_REF(runNode(makeMatrixPinv(false), {r.inputs.at("a")})[0], r.outputs[0], 1e-10);
        }
        const RefCase h = refCase("pinv_hermitian");
        TL_COMPARE_REF(runNode(makeMatrixPinv(true), {h.inputs.at("a")})[0], h.outputs[0], 1e-10);
        QCOMPARE(str(makeMatrixPinv()->name()), "MatrixPinv{hermitian=False}");
        // PyTensor types the result like the input; tensorlens keeps that only where it is right.
        const Type rect = Type::tensor(DType::Float64, {5, 3}), sq = Type::tensor(DType::Float64, {3, 3});
        const Type* tr[] = {&rect};
        const Type* ts[] = {&sq};
        QCOMPARE(Type::shapeString(makeMatrixPinv()->inferTypes(tr)[0].shape), std::string("(?, ?)"));
        QCOMPARE(Type::shapeString(makeMatrixPinv()->inferTypes(ts)[0].shape), std::string("(3, 3)"));

        const RefCase l = refCase("lstsq");
        const auto out = runNode(makeLstsq(), {l.inputs.at("a"), l.inputs.at("b"), NDArray::scalar(DType::Float64, -1)});
        QCOMPARE(out.size(), size_t(4));
        TL_COMPARE_REF(out[0], l.outputs[0], 1e-12);
        TL_COMPARE_REF(out[1], l.outputs[1], 1e-10);
        QCOMPARE(out[2].item(), l.outputs[2].item());
        TL_COMPARE_REF(out[3], l.outputs[3], 1e-12);
        // Rank deficient: no residuals, as NumPy.
        const NDArray rd = NDArray::fromVector(DType::Float64, {3, 2}, {1, 2, 2, 4, 3, 6});
        const auto d = runNode(makeLstsq(), {rd, NDArray::fromVector(DType::Float64, {3}, {1, 2, 3}), NDArray::scalar(DType::Float64, -1)});
        QCOMPARE(d[1].size(), int64_t(0));
        QCOMPARE(d[2].item(), 1.0);
    }
};

TL_TEST_SUITE(TestLinalgDecomp)
#include "tst_linalg_decomp.moc"
