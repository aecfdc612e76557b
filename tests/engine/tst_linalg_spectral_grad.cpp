// EighGrad and EigvalshGrad, the ops PyTensor's grad writes for Eigh and Eigvalsh,
// against PyTensor 2.34's own numbers (tests/data/linalg_grad_reference.json, made by
// tests/data/make_linalg_grad_reference.py): both triangles, float32, a repeated
// eigenvalue, the gradients of whole graphs through Eigh and Eigvalsh; their printed
// names, dtypes, errors, JSON, and a Blockwise of EighGrad as PyTensor batches it.
#include "TestSuites.h"
#include "LinalgTestUtil.h"

#include "builder/GraphBuilder.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "io/JsonGraph.h"
#include "ops/Blockwise.h"
#include "ops/Linalg.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

constexpr const char* kFile = "linalg_grad_reference.json";

RefCase grad(const char* name) { return refCase(name, kFile); }

double tolFor(const NDArray& want) { return want.dtype() == DType::Float32 ? 2e-5 : 1e-11; }

std::vector<NDArray> eighInputs(const RefCase& r) {
    return {r.inputs.at("x"), r.inputs.at("w"), r.inputs.at("v"), r.inputs.at("gw"), r.inputs.at("gv")};
}

NDArray ones(int64_t n) { return NDArray::fromVector(DType::Float64, {n}, std::vector<double>(static_cast<size_t>(n), 1.0)); }

} // namespace

class TestLinalgSpectralGrad : public QObject {
    Q_OBJECT
private slots:
    void eighGrad_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : {"eigh_grad_lower", "eigh_grad_upper", "eigh_grad_values_only", "eigh_grad_vectors_only",
                              "eigh_grad_float32", "eigh_grad_1x1", "eigh_grad_repeated"})
            QTest::newRow(n) << QString(n);
    }
    // PyTensor's EighGrad.perform on the same (x, w, v, gw, gv); a repeated eigenvalue
    // gives NaN in the kept triangle and zeros in the other, as PyTensor's does.
    void eighGrad() {
        QFETCH(QString, name);
        const RefCase r = grad(name.toStdString().c_str());
        const NDArray got = runNode(makeEighGrad(r.params["UPLO"].get<std::string>()), eighInputs(r))[0];
        QCOMPARE(got.dtype(), r.outputs[0].dtype());
        TL_COMPARE_REF(got, r.outputs[0], tolFor(r.outputs[0]));
    }

    void eigvalshGrad_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : {"eigvalsh_grad_lower", "eigvalsh_grad_upper", "eigvalsh_grad_identity_b",
                              "eigvalsh_grad_float32", "eigvalsh_grad_float32_gw64"})
            QTest::newRow(n) << QString(n);
    }
    // PyTensor's EigvalshGrad.perform: (ga, gb) from SciPy's generalized eigh.
    void eigvalshGrad() {
        QFETCH(QString, name);
        const RefCase r = grad(name.toStdString().c_str());
        const auto got = runNode(makeEigvalshGrad(r.params["lower"].get<bool>()),
                                 {r.inputs.at("a"), r.inputs.at("b"), r.inputs.at("gw")});
        QCOMPARE(got.size(), size_t(2));
        // The eigenproblem is solved in a's precision (float32 here even where gw is float64
        // and the outputs are), whose last bits differ between LAPACK builds and CPUs.
        const double tol = tolFor(r.inputs.at("a"));
        for (int k = 0; k < 2; ++k) {
            QCOMPARE(got[k].dtype(), r.outputs[k].dtype());
            TL_COMPARE_REF(got[k], r.outputs[k], tol);
        }
    }

    // The gradients pytensor.grad builds through Eigh and Eigvalsh (the graphs of
    // make_linalg_grad_reference.py, node for node) give PyTensor's numbers.
    void gradientGraphs() {
        const RefCase values = grad("graph_eigh_values"), vectors = grad("graph_eigh_vectors"), gen = grad("graph_eigvalsh");
        GraphBuilder b;
        Var a = b.input("A", DType::Float64, {3, 3});
        Var x = a + transpose(a);
        std::vector<Var> wv = b.apply(makeEigh(), {x});
        // d sum(w) / dA: gw = 1, gv = 0 (PyTensor's _zero_disconnected), then through A + A^T.
        Var g1 = b.apply1(makeEighGrad(), {x, wv[0], wv[1], b.constant(ones(3)), zerosLike(wv[1])});
        // d sum(v^2 * C) / dA: gw = 0, gv = 2 v C.
        NDArray c = NDArray::fromVector(DType::Float64, {3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8});
        Var gv = 2 * wv[1] * b.constant(c);
        Var g2 = b.apply1(makeEighGrad(), {x, wv[0], wv[1], zerosLike(wv[0]), gv});
        // d sum(eigvalsh(A, I)) / dA: EigvalshGrad's ga.
        Var g3 = b.apply(makeEigvalshGrad(), {a, b.constant(NDArray::fromVector(DType::Float64, {3, 3}, {1, 0, 0, 0, 1, 0, 0, 0, 1})),
                                              b.constant(ones(3))})[0];
        auto g = b.finish({g1 + transpose(g1), g2 + transpose(g2), g3});
        const auto out = run(*g, {values.inputs.at("A")});
        TL_COMPARE_ARRAYS(out[0], values.outputs[0], 1e-12, 1e-14);
        TL_COMPARE_ARRAYS(out[1], vectors.outputs[0], 1e-12, 1e-14);
        TL_COMPARE_ARRAYS(out[2], gen.outputs[0], 1e-12, 1e-14);
    }

    // PyTensor batches EighGrad as Blockwise with the signature vectorize_graph infers.
    void blockwise() {
        const RefCase r = grad("eigh_grad_lower"), u = grad("eigh_grad_vectors_only");
        OpPtr bw = makeBlockwise(makeEighGrad(), "(i00,i01),(i10),(i20,i21),(i30),(i40,i41)->(o00,o01)");
        QCOMPARE(QString::fromStdString(bw->name()),
                 "Blockwise{EighGrad{UPLO='L'}, (i00,i01),(i10),(i20,i21),(i30),(i40,i41)->(o00,o01)}");
        std::vector<NDArray> stacked;
        for (const char* k : {"x", "w", "v", "gw", "gv"}) {
            const NDArray &p = r.inputs.at(k), &q = u.inputs.at(k);
            Shape s = p.shape();
            s.insert(s.begin(), 2);
            std::vector<double> d = p.toDoubles(), e = q.toDoubles();
            d.insert(d.end(), e.begin(), e.end());
            stacked.push_back(NDArray::fromVector(DType::Float64, s, d));
        }
        // The second slice runs UPLO='L' on the vectors-only inputs.
        const NDArray second = runNode(makeEighGrad("L"), eighInputs(u))[0];
        const NDArray got = runNode(bw, stacked)[0];
        QCOMPARE(got.shape(), (Shape{2, 4, 4}));
        for (int64_t k = 0; k < 2; ++k) {
            const NDArray slice = got.view({4, 4}, {got.strides()[1], got.strides()[2]}, got.offset() + k * got.strides()[0]);
            TL_COMPARE_REF(slice.copy(), k == 0 ? r.outputs[0] : second, 1e-11);
        }
    }

    void namesTypesAndJson() {
        QCOMPARE(QString::fromStdString(makeEighGrad()->name()), "EighGrad{UPLO='L'}");
        QCOMPARE(QString::fromStdString(makeEighGrad("U")->name()), "EighGrad{UPLO='U'}");
        QCOMPARE(QString::fromStdString(makeEigvalshGrad(false)->name()), "EigvalshGrad{lower=False}");
        checkJsonRoundTrip(makeEighGrad("U"));
        checkJsonRoundTrip(makeEigvalshGrad(false));
        QCOMPARE(makeEighGrad()->params().dump(), std::string(R"({"UPLO":"L"})"));
        QCOMPARE(makeEigvalshGrad()->params().dump(), std::string(R"({"lower":true})"));
        QVERIFY(isLinalgKind(OpKind::EighGrad) && isLinalgKind(OpKind::EigvalshGrad));
        // Output dtypes: PyTensor's upcast of every input; dims unknown, as PyTensor types them.
        const Type m32 = Type::tensor(DType::Float32, {3, 3}), v32 = Type::tensor(DType::Float32, {3});
        const Type m64 = Type::tensor(DType::Float64, {3, 3}), v8 = Type::tensor(DType::Int8, {3});
        const Type* eighIn[] = {&m32, &v32, &m32, &v8, &m32};
        QCOMPARE(makeEighGrad()->inferTypes(eighIn)[0], Type::tensor(DType::Float32, {kUnknownDim, kUnknownDim}));
        const Type* eighIn64[] = {&m64, &v32, &m32, &v32, &m32};
        QCOMPARE(makeEighGrad()->inferTypes(eighIn64)[0].dtype, DType::Float64);
        const Type* genIn[] = {&m32, &m32, &v32};
        const auto t = makeEigvalshGrad()->inferTypes(genIn);
        QCOMPARE(t.size(), size_t(2));
        QCOMPARE(t[1], Type::tensor(DType::Float32, {kUnknownDim, kUnknownDim}));
        const Type* badIn[] = {&m32, &v32, &m32, &v32, &v32};
        QVERIFY(errorMessage([&] { makeEighGrad()->inferTypes(badIn); }).find("EighGrad gv must be a matrix") != std::string::npos);
        // PyTensor's props only.
        QVERIFY(errorMessage([&] { makeOp(OpKind::EighGrad, {{"UPLO", "X"}}, nullptr); }).find("UPLO") != std::string::npos);
    }

    // What NumPy and SciPy raise, the kernels raise, naming the node.
    void errors() {
        const RefCase r = grad("eigh_grad_lower");
        std::vector<NDArray> in = eighInputs(r);
        in[1] = ones(3);
        const std::string e = errorMessage([&] { runNode(makeEighGrad(), in); });
        QVERIFY2(e.find("EighGrad{UPLO='L'}") != std::string::npos && e.find("w has shape (3,), expected (4,)") != std::string::npos,
                 e.c_str());
        const NDArray indefinite = NDArray::fromVector(DType::Float64, {2, 2}, {1, 2, 2, 1});
        const std::string pd = errorMessage([&] { runNode(makeEigvalshGrad(), {indefinite, indefinite, ones(2)}); });
        QVERIFY2(pd.find("of B is not positive definite") != std::string::npos, pd.c_str());
        const NDArray nan = NDArray::fromVector(DType::Float64, {2, 2}, {1, NAN, NAN, 1});
        const NDArray eye = NDArray::fromVector(DType::Float64, {2, 2}, {1, 0, 0, 1});
        const std::string fin = errorMessage([&] { runNode(makeEigvalshGrad(), {nan, eye, ones(2)}); });
        QVERIFY2(fin.find("must not contain infs or NaNs") != std::string::npos, fin.c_str());
    }

    // Empty matrices give empty gradients.
    void empty() {
        const NDArray m = NDArray::empty(DType::Float64, {0, 0}), v = NDArray::empty(DType::Float64, {0});
        QCOMPARE(runNode(makeEighGrad(), {m, v, m, v, m})[0].shape(), (Shape{0, 0}));
        const auto g = runNode(makeEigvalshGrad(), {m, m, v});
        QCOMPARE(g[0].shape(), (Shape{0, 0}));
        QCOMPARE(g[1].shape(), (Shape{0, 0}));
    }

    // A graph PyTensor's exporter writes ({"UPLO": "L"} / {"lower": true} under the class
    // names) loads and runs.
    void exportedGraphLoads() {
        const std::string text = R"({"format": "tensorlens-graph", "version": 1, "graph": {
            "inputs": [{"id": 0, "name": "a", "type": {"kind": "tensor", "dtype": "float64", "shape": [2, 2]}},
                       {"id": 1, "name": "gw", "type": {"kind": "tensor", "dtype": "float64", "shape": [2]}}],
            "constants": [],
            "nodes": [
              {"id": 0, "op": "Eigh", "params": {"UPLO": "L"}, "inputs": [0], "outputs": [
                {"id": 2, "type": {"kind": "tensor", "dtype": "float64", "shape": [null]}},
                {"id": 3, "type": {"kind": "tensor", "dtype": "float64", "shape": [null, null]}}]},
              {"id": 1, "op": "EighGrad", "params": {"UPLO": "L"}, "inputs": [0, 2, 3, 1, 3], "outputs": [
                {"id": 4, "type": {"kind": "tensor", "dtype": "float64", "shape": [null, null]}}]},
              {"id": 2, "op": "EigvalshGrad", "params": {"lower": true}, "inputs": [0, 0, 1], "outputs": [
                {"id": 5, "type": {"kind": "tensor", "dtype": "float64", "shape": [null, null]}},
                {"id": 6, "type": {"kind": "tensor", "dtype": "float64", "shape": [null, null]}}]}],
            "outputs": [4, 5, 6], "next_node_id": 3, "next_var_id": 7}})";
        auto g = graphFromJsonText(text);
        const NDArray a = NDArray::fromVector(DType::Float64, {2, 2}, {2, 1, 1, 3});
        const auto out = run(*g, {a, NDArray::fromVector(DType::Float64, {2}, {1, 0})});
        QCOMPARE(out.size(), size_t(3));
        // ga of (a, a): one eigenvalue 1 with a's own B-normalized vectors, so ga + gb
        // (w = 1 for every pair) is zero.
        for (int64_t i = 0; i < 4; ++i) QVERIFY(std::fabs(out[1].flatGet(i) + out[2].flatGet(i)) < 1e-12);
    }
};

TL_TEST_SUITE(TestLinalgSpectralGrad)
#include "tst_linalg_spectral_grad.moc"
