// Blockwise: gufunc signatures, static types with broadcast batch dims (PyTensor's
// rules), the batched kernel (each core problem written into its slice) against the
// core op run slice by slice, the generic path for core ops without a slice kernel,
// errors naming the batch element, destroy maps, JSON, Matmul and the builder's
// pt.linalg functions, and the forward derivatives of Matmul and the inverse.
#include "TestSuites.h"
#include "LinalgTestUtil.h"

#include "builder/Linalg.h"
#include "builder/Math.h"
#include "builder/Scan.h"
#include "exec/Executor.h"
#include "ops/Blockwise.h"
#include "ops/DimShuffle.h"
#include "ops/Dot.h"
#include "ops/Elemwise.h"
#include "ops/Linalg.h"
#include "ops/Reduce.h"

#include <QtTest>

#include <cmath>

using namespace tl;
using namespace tl::test;

namespace {
QString str(const std::string& s) { return QString::fromStdString(s); }

std::vector<Type> typesOf(const OpPtr& op, std::vector<Type> in) {
    std::vector<const Type*> p;
    for (const Type& t : in) p.push_back(&t);
    return op->inferTypes(p);
}

Type f64(StaticShape s) { return Type::tensor(DType::Float64, std::move(s)); }

// Batch element i of a (B, ...) array.
NDArray element(const NDArray& a, int64_t i) {
    Shape s(a.shape().begin() + 1, a.shape().end());
    Strides st(a.strides().begin() + 1, a.strides().end());
    return a.view(s, st, a.offset() + i * a.strides()[0]);
}

NDArray wellConditioned(int64_t batch, int64_t n) {
    NDArray a = iota(DType::Float64, {batch, n, n});
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j)
                a.set(std::vector<int64_t>{b, i, j}, std::sin(1.0 + b * 7 + i * 3 + j) + (i == j ? 3.0 + b : 0.0));
    return a;
}
} // namespace

class TestBlockwise : public QObject {
    Q_OBJECT
private slots:
    void signatures() {
        const auto s = GufuncSignature::parse("(m, n),(n,p)->(m,p)");
        QCOMPARE(s.inputs.size(), size_t(2));
        QCOMPARE(s.inputs[1], (std::vector<std::string>{"n", "p"}));
        QCOMPARE(s.outputs[0], (std::vector<std::string>{"m", "p"}));
        const auto t = GufuncSignature::parse("(),(),()->(o00,o01)");
        QCOMPARE(t.inputs.size(), size_t(3));
        QVERIFY(t.inputs[0].empty());
        for (const char* bad : {"(m,n)", "(m,,n)->(m)", "(m,n)->", "m,n->(m)", "(m-n)->(m)"})
            QVERIFY2(!errorMessage([&] { GufuncSignature::parse(bad); }).empty(), bad);
    }

    void typesAndNames() {
        OpPtr inv = makeBlockwise(makeMatrixInverse(), "(m,m)->(m,m)");
        QCOMPARE(str(inv->name()), "Blockwise{MatrixInverse, (m,m)->(m,m)}");
        QCOMPARE(str(makeMatmul()->name()), "Matmul");
        QCOMPARE(str(typesOf(inv, {f64({3, 4, 4})})[0].toString()), "Tensor3(float64, shape=(3, 4, 4))");
        // Batch dims broadcast as PyTensor's broadcast_static_dim_lengths: 1 gives way,
        // unknown beside known stays unknown, fewer batch dims are padded on the left.
        OpPtr solve = makeBlockwise(makeSolve("gen", false, true, 1), "(m,m),(m)->(m)");
        QCOMPARE(str(typesOf(solve, {f64({1, 4, 4}), f64({3, 4})})[0].toString()), "Matrix(float64, shape=(3, 4))");
        QCOMPARE(str(typesOf(solve, {f64({kUnknownDim, 4, 4}), f64({3, 4})})[0].toString()), "Matrix(float64, shape=(?, 4))");
        QCOMPARE(str(typesOf(solve, {f64({2, 5, 4, 4}), f64({4})})[0].toString()), "Tensor3(float64, shape=(2, 5, 4))");
        QVERIFY(errorMessage([&] { typesOf(solve, {f64({2, 4, 4}), f64({3, 4})}); }).find("incompatible batch shapes") != std::string::npos);
        QVERIFY(errorMessage([&] { typesOf(solve, {f64({4, 4}), f64({5})}); }).find("core dim m") != std::string::npos);
        QVERIFY(errorMessage([&] { typesOf(inv, {f64({4})}); }).find("fewer dims than its core signature") != std::string::npos);
        // The destroy map is the core op's.
        OpPtr inplace = makeBlockwise(makeSolve("gen", false, true, 1, false, true), "(m,m),(m)->(m)");
        QCOMPARE(inplace->destroyMap(), (AliasMap{{0, {1}}}));
        checkJsonRoundTrip(inv);
        checkJsonRoundTrip(makeMatmul());
        checkJsonRoundTrip(inplace);
        QVERIFY(errorMessage([] { makeOp(OpKind::Blockwise, {{"core_op", {{"kind", "Frobnicate"}}}, {"signature", "()->()"}}, nullptr); })
                    .find("unknown op kind \"Frobnicate\"") != std::string::npos);
        QVERIFY(errorMessage([&] { makeBlockwise(inv, "(m,m)->(m,m)"); }).find("already a Blockwise") != std::string::npos);
    }

    // Each batch element equals the core op on that element.
    void batchedKernelMatchesTheCore() {
        const NDArray as = wellConditioned(5, 4);
        const NDArray bs = iota(DType::Float64, {5, 4}, -2);
        const auto inv = runNode(makeBlockwise(makeMatrixInverse(), "(m,m)->(m,m)"), {as})[0];
        const auto det = runNode(makeBlockwise(makeDet(), "(m,m)->()"), {as})[0];
        const auto sol = runNode(makeBlockwise(makeSolve("gen", false, true, 1), "(m,m),(m)->(m)"), {as, bs})[0];
        QCOMPARE(inv.shape(), (Shape{5, 4, 4}));
        QCOMPARE(det.shape(), (Shape{5}));
        for (int64_t i = 0; i < 5; ++i) {
            TL_COMPARE_REF(element(inv, i).copy(), perform(*makeMatrixInverse(), {element(as, i)})[0], 0);
            TL_COMPARE_REF(element(det, i).copy(), perform(*makeDet(), {element(as, i)})[0], 0);
            TL_COMPARE_REF(element(sol, i).copy(), perform(*makeSolve("gen", false, true, 1), {element(as, i), element(bs, i)})[0], 0);
        }
        // A batch dim of 1 broadcasts at run time; a transposed batch reads through its strides.
        const NDArray one = as.view({1, 4, 4}, {0, 4, 1}, 0);
        const auto bsol = runNode(makeBlockwise(makeSolve("gen", false, true, 1), "(m,m),(m)->(m)"), {one, bs})[0];
        for (int64_t i = 0; i < 5; ++i)
            TL_COMPARE_REF(element(bsol, i).copy(), perform(*makeSolve("gen", false, true, 1), {element(as, 0), element(bs, i)})[0], 0);
        // An empty batch gives an empty result of the right shape.
        QCOMPARE(runNode(makeBlockwise(makeMatrixInverse(), "(m,m)->(m,m)"), {NDArray::zeros(DType::Float64, {0, 3, 3})})[0].shape(),
                 (Shape{0, 3, 3}));
    }

    void matmulBroadcasting() {
        const NDArray a = iota(DType::Float64, {2, 1, 3, 4}, 1), b = iota(DType::Float64, {5, 4, 2}, -7);
        const NDArray c = runNode(makeMatmul(), {a, b})[0];
        QCOMPARE(c.shape(), (Shape{2, 5, 3, 2}));
        for (int64_t i = 0; i < 2; ++i)
            for (int64_t j = 0; j < 5; ++j) {
                const NDArray ai = element(element(a, i), 0), bj = element(b, j);
                TL_COMPARE_REF(element(element(c, i), j).copy(), refMatmul(ai, bj), 0);
            }
        // Integer matmul: exact.
        const NDArray ci = runNode(makeMatmul(), {a.astype(DType::Int32), b.astype(DType::Int32)})[0];
        TL_COMPARE_ARRAYS(ci, c.astype(DType::Int32), 0, 0);
        // (2, 2) batch dims against (3,): no broadcast, a type error naming the shapes.
        const NDArray bad = iota(DType::Float64, {2, 2, 3, 4});
        QVERIFY(errorMessage([&] { runNode(makeMatmul(), {bad, iota(DType::Float64, {3, 4, 2})}); }).find("incompatible batch shapes") !=
                std::string::npos);
        // At run time too (the kernel on its own).
        QVERIFY(errorMessage([&] { perform(*makeMatmul(), {bad, iota(DType::Float64, {3, 4, 2})}); }).find("do not broadcast") !=
                std::string::npos);
    }

    // The failing element is named, after the node.
    void errorsNameTheBatchElement() {
        NDArray as = wellConditioned(3, 2);
        for (int64_t i = 0; i < 2; ++i)
            for (int64_t j = 0; j < 2; ++j) as.set(std::vector<int64_t>{1, i, j}, 1.0);  // element 1 singular
        const std::string e = errorMessage([&] { runNode(makeBlockwise(makeMatrixInverse(), "(m,m)->(m,m)"), {as}); });
        QVERIFY2(e.find("Blockwise{MatrixInverse, (m,m)->(m,m)}#") != std::string::npos && e.find("batch element (1,)") != std::string::npos &&
                     e.find("Singular matrix") != std::string::npos,
                 e.c_str());
    }

    // A core op without a slice kernel runs its own kernel per element.
    void genericCoreOp() {
        OpPtr sum = makeBlockwise(makeReduce(ReduceKind::Sum, std::vector<int>{0}), "(n)->()");
        const NDArray x = iota(DType::Float64, {2, 3, 4});
        const NDArray s = runNode(sum, {x})[0];
        QCOMPARE(s.shape(), (Shape{2, 3}));
        TL_COMPARE_REF(s, perform(*makeReduce(ReduceKind::Sum, std::vector<int>{2}), {x})[0], 0);
        QVERIFY(errorMessage([&] { runNode(sum, {NDArray::zeros(DType::Float64, {0, 4})}); }).find("batch of size zero") != std::string::npos);
    }

    // A loop as the core (what jacobian(vectorize=True) of a loop builds): it has no
    // kernel of its own, so the executor runs it once per batch element.
    void coreWithoutAKernelRunsThroughTheExecutor() {
        GraphBuilder lb;  // s' = s * r for 3 steps; the loop's outer inputs: n_steps, buffer, r
        Var s0 = lb.input("s0", DType::Float64, {});
        Var r = lb.input("r", DType::Float64, {});
        ScanResult res = scan(lb, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[0] * a[1]}}; },
                              ScanArgs{.outputsInfo = {OutputInfo(s0)}, .nonSequences = {r}, .nSteps = 3});
        const Node* loop = res.outputs[0]->owner()->input(0)->owner();
        QCOMPARE(loop->op().kind(), OpKind::Scan);
        OpPtr batched = makeBlockwise(loop->opPtr(), "(),(n),()->(n)");
        QVERIFY(!batched->hasKernel());
        GraphBuilder b;
        Var n = b.input("n", DType::Int64, {});
        Var buffer = b.input("buffer", DType::Float64, {4});
        Var rs = b.input("rs", DType::Float64, {3});
        auto g = b.finish({b.apply1(batched, {n, buffer, rs})});
        const std::vector<NDArray> in = {NDArray::scalar(DType::Int64, 3), NDArray::fromVector(DType::Float64, {4}, {1, 0, 0, 0}),
                                         NDArray::fromVector(DType::Float64, {3}, {0.5, 2, 3})};
        const NDArray out = runGraph(*g, in).outputs.at(0);
        TL_COMPARE_REF(out, NDArray::fromVector(DType::Float64, {3, 4}, {1, 0.5, 0.25, 0.125, 1, 2, 4, 8, 1, 3, 9, 27}), 0);
    }

    // A view core op (PyTensor batches Subtensor{i} so in the gradient of interp) makes
    // no view: the batch gets its own output, so overwriting it in place leaves the
    // input alone and the graph is valid while the input is read elsewhere.
    void viewCoreMakesNoView() {
        OpPtr column = makeBlockwise(makeDimShuffle(2, {1, 0}), "(m,n)->(n,m)");
        QVERIFY(makeDimShuffle(2, {1, 0})->viewMap() == (AliasMap{{0, {0}}}));
        QVERIFY(column->viewMap().empty());
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {2, 2, 3});
        Var t = b.apply1(column, {x});
        Var doubled = b.apply1(static_cast<const Elemwise&>(*makeElemwise(ScalarOpCode::Add)).withInplace({{0, 0}}), {t, t});
        auto g = b.finish({doubled, x});
        QVERIFY2(g->validate().empty(), g->validate().empty() ? "" : g->validate()[0].c_str());
        const NDArray xs = iota(DType::Float64, {2, 2, 3});
        const auto out = runGraph(*g, std::vector<NDArray>{xs}).outputs;
        TL_COMPARE_REF(out.at(1), iota(DType::Float64, {2, 2, 3}), 0);
        QCOMPARE(out.at(0).shape(), (Shape{2, 3, 2}));
        QCOMPARE(out.at(0).flatGet(1), 6.0);  // 2 * x[0, 1, 0]
    }

    // overwrite_b: the batch is solved into b's own memory when it fits.
    void destroyedInputIsTheOutput() {
        const NDArray as = wellConditioned(3, 3);
        NDArray bs = iota(DType::Float64, {3, 3}, 1);
        const NDArray want = perform(*makeBlockwise(makeSolve("gen", false, true, 1), "(m,m),(m)->(m)"), {as, bs})[0];
        const auto got = perform(*makeBlockwise(makeSolve("gen", false, true, 1, false, true), "(m,m),(m)->(m)"), {as, bs});
        QVERIFY(got[0].sharesStorageWith(bs));
        TL_COMPARE_REF(bs, want, 0);
    }

    // The builder builds what pt.linalg builds: padded inputs, Blockwise of the core op.
    void builderGraphs() {
        GraphBuilder b;
        Var as = b.input("As", DType::Float64, {3, 4, 4});
        Var bv = b.input("b", DType::Float64, {4});
        Var x = linalg::solve(as, bv, "gen", false, false, 1);
        QCOMPARE(str(x->owner()->op().name()),
                 "Blockwise{Solve{assume_a='gen', lower=False, check_finite=True, b_ndim=1, overwrite_a=False, overwrite_b=False}, (m,m),(m)->(m)}");
        QCOMPARE(str(x->owner()->input(1)->owner()->op().name()), "ExpandDims{axis=0}");
        QCOMPARE(str(x.type().toString()), "Matrix(float64, shape=(3, 4))");
        Var m = b.input("m", DType::Float64, {4, 4});
        QCOMPARE(str(matmul(m, bv).type().toString()), "Vector(float64, shape=(4,))");
        QCOMPARE(str(matmul(bv, bv).type().toString()), "Scalar(float64, shape=())");
        QCOMPARE(str(matmul(as, m)->owner()->op().name()), "Matmul");
        Var td = tensordot(as, m, 1);
        QCOMPARE(str(td.type().toString()), "Tensor3(float64, shape=(3, 4, 4))");
        Var t = linalg::solveTriangular(m, bv, 1, true);
        QCOMPARE(str(t->owner()->op().name()).left(43), "Blockwise{SolveTriangular{unit_diagonal=Fal");
        auto g = b.finish({x, td});
        const NDArray asv = wellConditioned(3, 4), bvv = iota(DType::Float64, {4}, 1);
        const auto out = run(*g, {asv, bvv, iota(DType::Float64, {4, 4})});
        for (int64_t i = 0; i < 3; ++i)
            TL_COMPARE_REF(element(out[0], i).copy(), perform(*makeSolve("gen", false, true, 1), {element(asv, i), bvv})[0], 0);
    }

    void rops() {
        checkRopByFiniteDifferences({{2, 3, 4}, {4, 2}}, [](GraphBuilder&, const std::vector<Var>& x) { return matmul(x[0], x[1]); });
        checkRopByFiniteDifferences({{3, 3}}, [](GraphBuilder& b, const std::vector<Var>& x) {
            // x + 3 I keeps the matrix away from singular.
            Var shifted = add(x[0], b.constant(NDArray::fromVector(DType::Float64, {3, 3}, {3, 0, 0, 0, 3, 0, 0, 0, 3})));
            return linalg::inv(shifted);
        });
        checkRopByFiniteDifferences({{2, 3, 3}}, [](GraphBuilder& b, const std::vector<Var>& x) {
            Var shifted = add(x[0], b.constant(NDArray::fromVector(DType::Float64, {3, 3}, {3, 0, 0, 0, 3, 0, 0, 0, 3})));
            return linalg::inv(shifted);
        });
        // No R_op in PyTensor for a Blockwise of Det: none here either.
        GraphBuilder b;
        Var a = b.input("a", DType::Float64, {2, 2});
        Var d = linalg::det(a);
        std::vector<Variable*> tangents{a.get()};
        QVERIFY(errorMessage([&] { ropOfNode(b, *d->owner(), tangents); }).find("no forward derivative") != std::string::npos);
    }
};

TL_TEST_SUITE(TestBlockwise)
#include "tst_blockwise.moc"
