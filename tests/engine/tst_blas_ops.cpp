// The products and the BLAS ops of compiled graphs: Dot on every pair of ranks and
// strides, Dot22, Dot22Scalar, Gemm, Gemv/CGemv, Ger/CGer and BatchedDot against
// NumPy's numbers and hand values; their PyTensor names, types and destroy maps;
// inplace forms really writing into their first input (and the executor copying
// it when that input is protected); beta = 0 never reading y; their errors.
#include "TestSuites.h"
#include "LinalgTestUtil.h"

#include "builder/Indexing.h"
#include "builder/Linalg.h"
#include "ops/BlasOps.h"
#include "ops/DimShuffle.h"
#include "ops/Dot.h"

#include <QtTest>

#include <cmath>

using namespace tl;
using namespace tl::test;

namespace {
QString str(const std::string& s) { return QString::fromStdString(s); }
NDArray scalar(double v, DType d = DType::Float64) { return NDArray::scalar(d, v); }
} // namespace

class TestBlasOps : public QObject {
    Q_OBJECT
private slots:
    void names() {
        QCOMPARE(str(makeGemv(true)->name()), "CGemv{inplace}");
        QCOMPARE(str(makeGemv(false, false)->name()), "Gemv{no_inplace}");
        QCOMPARE(str(makeGer(true)->name()), "CGer{destructive}");
        QCOMPARE(str(makeGer(false, false)->name()), "Ger{non-destructive}");
        QCOMPARE(str(makeGemm(true)->name()), "Gemm{inplace}");
        QCOMPARE(str(makeGemm(false)->name()), "Gemm{no_inplace}");
        QCOMPARE(str(makeDot22()->name()), "Dot22");
        QCOMPARE(str(makeDot22Scalar()->name()), "Dot22Scalar");
        QCOMPARE(str(makeBatchedDot()->name()), "BatchedDot");
        QCOMPARE(makeGemv(true)->destroyMap(), (AliasMap{{0, {0}}}));
        QCOMPARE(makeGer(true)->destroyMap(), (AliasMap{{0, {0}}}));
        QCOMPARE(makeGemm(true)->destroyMap(), (AliasMap{{0, {0}}}));
        QVERIFY(makeGemv(false)->destroyMap().empty());
        for (OpPtr op : {makeGemv(true), makeGemv(false, false), makeGer(true), makeGer(false, false), makeGemm(true),
                         makeDot22(), makeDot22Scalar(), makeBatchedDot()})
            checkJsonRoundTrip(op);
        // The exporter writes PyTensor's destroy_map beside the flag; it must agree.
        QVERIFY(errorMessage([] { makeOp(OpKind::CGemv, {{"inplace", false}, {"destroy_map", {{"0", {0}}}}}, nullptr); })
                    .find("is not what") != std::string::npos);
        QVERIFY(makeOp(OpKind::CGemv, {{"inplace", true}, {"destroy_map", {{"0", {0}}}}}, nullptr)->equals(*makeGemv(true)));
    }

    void gemvGerGemm() {
        const RefCase gv = refCase("gemv"), gr = refCase("ger"), gm = refCase("gemm");
        const double alpha = gv.params["alpha"], beta = gv.params["beta"];
        for (bool inplace : {false, true}) {
            NDArray y = gv.inputs.at("y").copy();
            const NDArray r = runNode(makeGemv(inplace), {y, scalar(alpha), gv.inputs.at("a"), gv.inputs.at("x"), scalar(beta)})[0];
            TL_COMPARE_REF(r, gv.outputs[0], 1e-12);
            NDArray a = gr.inputs.at("a").copy();
            TL_COMPARE_REF(runNode(makeGer(inplace), {a, scalar(alpha), gr.inputs.at("x"), gr.inputs.at("y")})[0], gr.outputs[0], 1e-12);
            NDArray z = gm.inputs.at("z").copy();
            TL_COMPARE_REF(runNode(makeGemm(inplace), {z, scalar(alpha), gm.inputs.at("x"), gm.inputs.at("y"), scalar(beta)})[0],
                           gm.outputs[0], 1e-12);
        }
        // float32 through the s routines.
        const NDArray y32 = gv.inputs.at("y").astype(DType::Float32);
        const NDArray r32 = runNode(makeGemv(false), {y32, scalar(alpha, DType::Float32), gv.inputs.at("a").astype(DType::Float32),
                                                      gv.inputs.at("x").astype(DType::Float32), scalar(beta, DType::Float32)})[0];
        QCOMPARE(r32.dtype(), DType::Float32);
        TL_COMPARE_REF(r32, gv.outputs[0], 1e-5);
    }

    // The inplace forms write into their first input itself (perform, no executor):
    // that is the memory the destroy handler protects.
    void inplaceWritesTheInput() {
        const RefCase gv = refCase("gemv"), gr = refCase("ger");
        NDArray y = gv.inputs.at("y").copy();
        auto out = perform(*makeGemv(true), {y, scalar(gv.params["alpha"]), gv.inputs.at("a"), gv.inputs.at("x"), scalar(gv.params["beta"])});
        QVERIFY(out[0].sharesStorageWith(y));
        TL_COMPARE_REF(y, gv.outputs[0], 1e-12);
        NDArray y2 = gv.inputs.at("y").copy();
        out = perform(*makeGemv(false), {y2, scalar(gv.params["alpha"]), gv.inputs.at("a"), gv.inputs.at("x"), scalar(gv.params["beta"])});
        QVERIFY(!out[0].sharesStorageWith(y2));
        TL_COMPARE_REF(y2, gv.inputs.at("y"), 0);
        NDArray a = gr.inputs.at("a").copy();
        out = perform(*makeGer(true), {a, scalar(gr.params["alpha"]), gr.inputs.at("x"), gr.inputs.at("y")});
        QVERIFY(out[0].sharesStorageWith(a));
        TL_COMPARE_REF(a, gr.outputs[0], 1e-12);
        // A strided (transposed) A is updated in place too.
        NDArray at = refTranspose(gr.inputs.at("a"));
        NDArray aView = at.view({at.dim(1), at.dim(0)}, {1, at.dim(1)}, 0);
        perform(*makeGer(true), {aView, scalar(gr.params["alpha"]), gr.inputs.at("x"), gr.inputs.at("y")});
        TL_COMPARE_REF(aView.copy(), gr.outputs[0], 1e-12);
        // Run through the executor, a graph input is protected: the destroyer works on a copy.
        NDArray y3 = gv.inputs.at("y").copy();
        runNode(makeGemv(true), {y3, scalar(gv.params["alpha"]), gv.inputs.at("a"), gv.inputs.at("x"), scalar(gv.params["beta"])});
        TL_COMPARE_REF(y3, gv.inputs.at("y"), 0);
    }

    // PyTensor hands Gemv an uninitialised AllocEmpty with beta = 0: NaN there must not leak.
    void zeroBetaNeverReadsY() {
        const NDArray a = NDArray::fromVector(DType::Float64, {2, 2}, {1, 2, 3, 4});
        const NDArray x = NDArray::fromVector(DType::Float64, {2}, {1, 1});
        for (DType d : {DType::Float64, DType::Float32}) {
            NDArray y = NDArray::fromVector(d, {2}, {NAN, INFINITY});
            const NDArray r = perform(*makeGemv(true), {y, scalar(1, d), a.astype(d), x.astype(d), scalar(0, d)})[0];
            TL_COMPARE_REF(r, NDArray::fromVector(DType::Float64, {2}, {3, 7}), 0);
            NDArray z = NDArray::fromVector(d, {2, 2}, {NAN, NAN, NAN, NAN});
            const NDArray g = perform(*makeGemm(true), {z, scalar(1, d), a.astype(d), a.astype(d), scalar(0, d)})[0];
            TL_COMPARE_REF(g, NDArray::fromVector(DType::Float64, {2, 2}, {7, 10, 15, 22}), 0);
        }
    }

    void gemmBroadcastsZ() {
        // z of shape (1, 2) against a (2, 2) product: PyTensor broadcasts it into a new array.
        const NDArray z = NDArray::fromVector(DType::Float64, {1, 2}, {10, 20});
        const NDArray a = NDArray::fromVector(DType::Float64, {2, 2}, {1, 2, 3, 4});
        const NDArray r = perform(*makeGemm(true), {z, scalar(1), a, a, scalar(1)})[0];
        TL_COMPARE_REF(r, NDArray::fromVector(DType::Float64, {2, 2}, {17, 30, 25, 42}), 0);
        QVERIFY(errorMessage([&] { perform(*makeGemm(false), {NDArray::zeros(DType::Float64, {3, 2}), scalar(1), a, a, scalar(1)}); })
                    .find("does not fit") != std::string::npos);
    }

    void dot22AndBatchedDot() {
        const NDArray a = iota(DType::Float64, {3, 4}, 1), b = iota(DType::Float64, {4, 2}, -3);
        TL_COMPARE_REF(runNode(makeDot22(), {a, b})[0], refMatmul(a, b), 0);
        NDArray scaled = refMatmul(a, b);
        for (int64_t i = 0; i < scaled.size(); ++i) scaled.data<double>()[i] *= -0.5;
        TL_COMPARE_REF(runNode(makeDot22Scalar(), {a, b, scalar(-0.5)})[0], scaled, 0);
        const NDArray x = iota(DType::Float64, {2, 3, 4}), y = iota(DType::Float64, {2, 4, 2}, 1);
        const NDArray r = runNode(makeBatchedDot(), {x, y})[0];
        for (int64_t i = 0; i < 2; ++i) {
            auto slice = [i](const NDArray& t) { return t.view({t.dim(1), t.dim(2)}, {t.strides()[1], t.strides()[2]}, i * t.strides()[0]); };
            TL_COMPARE_REF(slice(r).copy(), refMatmul(slice(x), slice(y)), 0);
        }
        // Integers: BatchedDot and Gemv accept them (exact loops; BLAS has no integer GEMM).
        const NDArray xi = x.astype(DType::Int32), yi = y.astype(DType::Int32);
        TL_COMPARE_ARRAYS(runNode(makeBatchedDot(), {xi, yi})[0], r.astype(DType::Int32), 0, 0);
        // Batch sizes that differ: the type check names the types, the kernel (types
        // with unknown dims) the sizes.
        const NDArray y3 = iota(DType::Float64, {3, 4, 2});
        QVERIFY(errorMessage([&] { runNode(makeBatchedDot(), {x, y3}); }).find("incompatible shapes") != std::string::npos);
        std::vector<NDArray> batchedOut(1);
        const NDArray mismatched[] = {x, y3};
        QVERIFY(errorMessage([&] { makeBatchedDot()->perform(mismatched, batchedOut); }).find("same size in axis 0") !=
                std::string::npos);
        // Types: Dot22 only on floats of one dtype, as PyTensor.
        const Type i = Type::tensor(DType::Int64, {2, 2}), f = Type::tensor(DType::Float64, {2, 2}), g = Type::tensor(DType::Float32, {2, 2});
        const Type* ii[] = {&i, &i};
        const Type* fg[] = {&f, &g};
        QVERIFY(errorMessage([&] { makeDot22()->inferTypes(ii); }).find("float32 or float64") != std::string::npos);
        QVERIFY(errorMessage([&] { makeDot22()->inferTypes(fg); }).find("matching dtypes") != std::string::npos);
        const Type y5 = Type::tensor(DType::Float64, {5}), a23 = Type::tensor(DType::Float64, {2, 3}), x3 = Type::tensor(DType::Float64, {3}),
                   s = Type::tensor(DType::Float64, {});
        const Type* gemvBad[] = {&y5, &s, &a23, &x3, &s};
        QVERIFY(errorMessage([&] { makeGemv(false)->inferTypes(gemvBad); }).find("incompatible shapes") != std::string::npos);
    }

    // Dot over every pair of ranks, contiguous and transposed, every dtype: BLAS for the
    // floats, an exact loop for the rest.
    void dotRanksAndDtypes() {
        for (DType dt : {DType::Float64, DType::Float32, DType::Int64, DType::Int8, DType::UInt8}) {
            const NDArray a = iota(dt, {3, 4}, 1);
            const NDArray bt = perform(*makeDimShuffle(2, {1, 0}), {iota(dt, {5, 4})})[0];  // (4, 5), column-major
            const NDArray at = perform(*makeDimShuffle(2, {1, 0}), {iota(dt, {4, 3}, 2)})[0];
            const NDArray v4 = iota(dt, {4}, 2), v3 = iota(dt, {3}, 1);
            const std::vector<std::pair<NDArray, NDArray>> cases{{a, bt}, {at, bt}, {a, v4}, {at, v4}, {v3, a}, {v4, v4}};
            for (const auto& [l, r] : cases) {
                const NDArray got = perform(*makeDot(), {l, r})[0];
                QCOMPARE(got.dtype(), dt);
                const NDArray lm = l.ndim() == 2 ? l.astype(DType::Float64) : l.astype(DType::Float64).view({1, l.dim(0)}, {0, 1}, 0);
                const NDArray rm = r.ndim() == 2 ? r.astype(DType::Float64) : r.astype(DType::Float64).view({r.dim(0), 1}, {1, 0}, 0);
                NDArray want = refMatmul(lm, rm);
                want = want.view(got.shape(), NDArray::contiguousStrides(got.shape()), 0).astype(dt);
                TL_COMPARE_ARRAYS(got, want, dt == DType::Float32 ? 1e-6 : 0, 0);
            }
        }
    }

    void ropOfProducts() {
        checkRopByFiniteDifferences({{2, 3, 4}, {2, 4, 2}}, [](GraphBuilder&, const std::vector<Var>& x) {
            return batchedDot(x[0], x[1]);
        });
    }
};

TL_TEST_SUITE(TestBlasOps)
#include "tst_blas_ops.moc"
