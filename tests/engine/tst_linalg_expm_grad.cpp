// ExpmGrad, the op PyTensor's grad writes for Expm, against PyTensor 2.34's own
// numbers (tests/data/linalg_grad_reference.json, made by
// tests/data/make_linalg_grad_reference.py): real eigenvalues, complex conjugate
// pairs, a repeated eigenvalue, float32, an integer matrix, 1x1 and empty; the
// gradient of a graph through Expm checked against PyTensor and against finite
// differences of Expm itself; its name, types, errors and JSON.
#include "TestSuites.h"
#include "LinalgTestUtil.h"

#include "builder/GraphBuilder.h"
#include "builder/Linalg.h"
#include "builder/Math.h"
#include "io/JsonGraph.h"
#include "ops/Linalg.h"

#include <QtTest>

#include <cmath>

using namespace tl;
using namespace tl::test;

namespace {

RefCase grad(const std::string& name) { return refCase(name, "linalg_grad_reference.json"); }

NDArray matrix(int64_t n, std::vector<double> v) { return NDArray::fromVector(DType::Float64, {n, n}, std::move(v)); }

// sum(expm(a) * c) as a function of a.
double weightedExpm(const NDArray& a, const NDArray& c) {
    const NDArray e = runNode(makeExpm(), {a})[0];
    double s = 0;
    for (int64_t i = 0; i < e.size(); ++i) s += e.flatGet(i) * c.flatGet(i);
    return s;
}

} // namespace

class TestLinalgExpmGrad : public QObject {
    Q_OBJECT
private slots:
    void expmGrad_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : {"expm_grad_real", "expm_grad_complex", "expm_grad_rotation", "expm_grad_repeated",
                              "expm_grad_float32", "expm_grad_1x1", "expm_grad_int"})
            QTest::newRow(n) << QString(n);
    }
    // PyTensor's ExpmGrad.perform on the same (A, gA). A repeated eigenvalue gives NaN
    // everywhere, as PyTensor's 0/0 does; an integer A gives an integer gradient.
    void expmGrad() {
        QFETCH(QString, name);
        const RefCase r = grad(name.toStdString());
        const NDArray got = runNode(makeExpmGrad(), {r.inputs.at("a"), r.inputs.at("ga")})[0];
        QCOMPARE(got.dtype(), r.outputs[0].dtype());
        TL_COMPARE_REF(got, r.outputs[0], got.dtype() == DType::Float32 ? 2e-5 : 1e-10);
    }

    // d sum(expm(A) * C) / dA, the graph pytensor.grad builds (gA = C), gives
    // PyTensor's numbers and agrees with central differences of Expm.
    void gradientGraph() {
        const RefCase r = grad("graph_expm");
        const NDArray c = matrix(3, {0, 1, 2, 3, 4, 5, 6, 7, 8});
        GraphBuilder b;
        Var a = b.input("A", DType::Float64, {3, 3});
        auto g = b.finish({linalg::expmGrad(a, b.constant(c))});
        const NDArray a0 = r.inputs.at("A");
        const NDArray got = run(*g, {a0})[0];
        TL_COMPARE_ARRAYS(got, r.outputs[0], 1e-10, 1e-12);
        const double h = 1e-6;
        for (int64_t k = 0; k < 9; ++k) {
            NDArray up = a0.copy(), down = a0.copy();
            up.data<double>()[k] += h;
            down.data<double>()[k] -= h;
            const double fd = (weightedExpm(up, c) - weightedExpm(down, c)) / (2 * h);
            QVERIFY2(std::fabs(fd - got.flatGet(k)) < 1e-6 * (1 + std::fabs(fd)),
                     qPrintable(QString("element %1: %2 vs %3").arg(k).arg(got.flatGet(k)).arg(fd)));
        }
    }

    void nameTypesAndJson() {
        QCOMPARE(QString::fromStdString(makeExpmGrad()->name()), "ExpmGrad");
        QVERIFY(isLinalgKind(OpKind::ExpmGrad));
        checkJsonRoundTrip(makeExpmGrad());
        // PyTensor: matrix(dtype=A.dtype), whatever gA's dtype.
        const Type a32 = Type::tensor(DType::Float32, {3, 3}), g64 = Type::tensor(DType::Float64, {3, 3}),
                   v = Type::tensor(DType::Float64, {3});
        const Type* in[] = {&a32, &g64};
        QCOMPARE(makeExpmGrad()->inferTypes(in)[0], Type::tensor(DType::Float32, {kUnknownDim, kUnknownDim}));
        const Type* bad[] = {&a32, &v};
        QVERIFY(errorMessage([&] { makeExpmGrad()->inferTypes(bad); }).find("ExpmGrad input gA must be a matrix") !=
                std::string::npos);
        // It works out of place only.
        const nlohmann::json inplace = {{"destroy_map", {{"0", {0}}}}};
        QVERIFY(errorMessage([&] { makeOp(OpKind::ExpmGrad, inplace, nullptr); }).find("destroy_map") != std::string::npos);
    }

    // What SciPy raises, the kernel raises, naming the node.
    void errors() {
        const NDArray eye = matrix(2, {1, 0, 0, 1});
        const std::string nan = errorMessage([&] { runNode(makeExpmGrad(), {matrix(2, {1, NAN, 0, 1}), eye}); });
        QVERIFY2(nan.find("ExpmGrad#") != std::string::npos && nan.find("must not contain infs or NaNs") != std::string::npos,
                 nan.c_str());
        const std::string shape = errorMessage([&] { runNode(makeExpmGrad(), {eye, matrix(1, {1})}); });
        QVERIFY2(shape.find("gA has shape (1, 1), expected A's (2, 2)") != std::string::npos, shape.c_str());
        const NDArray wide = NDArray::zeros(DType::Float64, {2, 3});
        QVERIFY(errorMessage([&] { runNode(makeExpmGrad(), {wide, wide}); }).find("square") != std::string::npos);
    }

    void empty() {
        const NDArray m = NDArray::empty(DType::Float64, {0, 0});
        QCOMPARE(runNode(makeExpmGrad(), {m, m})[0].shape(), (Shape{0, 0}));
    }

    // The node PyTensor's exporter writes loads and runs.
    void exportedGraphLoads() {
        const std::string text = R"({"format": "tensorlens-graph", "version": 1, "graph": {
            "inputs": [{"id": 0, "name": "A", "type": {"kind": "tensor", "dtype": "float64", "shape": [2, 2]}},
                       {"id": 1, "name": "gA", "type": {"kind": "tensor", "dtype": "float64", "shape": [2, 2]}}],
            "constants": [],
            "nodes": [{"id": 0, "op": "ExpmGrad", "params": {}, "inputs": [0, 1], "outputs": [
                {"id": 2, "type": {"kind": "tensor", "dtype": "float64", "shape": [null, null]}}]}],
            "outputs": [2], "next_node_id": 1, "next_var_id": 3}})";
        auto g = graphFromJsonText(text);
        // A diagonal A: the gradient is gA * X with X[i, i] = e^a_i and
        // X[0, 1] = X[1, 0] = (e^1 - e^2) / (1 - 2).
        const NDArray out = run(*g, {matrix(2, {1, 0, 0, 2}), matrix(2, {1, 2, 3, 4})})[0];
        const double x01 = std::exp(2.0) - std::exp(1.0);
        TL_COMPARE_ARRAYS(out, matrix(2, {std::exp(1.0), 2 * x01, 3 * x01, 4 * std::exp(2.0)}), 1e-14, 0);
    }
};

TL_TEST_SUITE(TestLinalgExpmGrad)
#include "tst_linalg_expm_grad.moc"
