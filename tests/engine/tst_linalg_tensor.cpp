// TensorInv and TensorSolve against numpy.linalg.tensorinv / tensorsolve: values, the
// reordering of `axes`, types as PyTensor declares them, and the errors of arrays that
// are not square in NumPy's sense.
#include "TestSuites.h"
#include "LinalgTestUtil.h"

#include "builder/Linalg.h"
#include "io/DPrintImport.h"
#include "ops/Linalg.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {
QString str(const std::string& s) { return QString::fromStdString(s); }
} // namespace

class TestLinalgTensor : public QObject {
    Q_OBJECT
private slots:
    void tensorInv() {
        const RefCase r = refCase("tensorinv");
        const NDArray& a = r.inputs.at("a");
        OpPtr op = makeTensorInv(2);
        const NDArray x = runNode(op, {a})[0];
        QCOMPARE(x.shape(), (Shape{6, 2, 3}));
        TL_COMPARE_REF(x, r.outputs[0], 1e-12);
        QCOMPARE(str(op->name()), "TensorInv{ind=2}");
        // PyTensor gives the output the input's type, which is right only where moving the
        // dims (shape[ind:] + shape[:ind]) leaves them as they were; otherwise they are unknown.
        const Type t = Type::tensor(DType::Float32, {2, 3, 6}), sq = Type::tensor(DType::Float32, {2, 3, 2, 3});
        const Type* ts[] = {&t};
        const Type* sqs[] = {&sq};
        QCOMPARE(str(op->inferTypes(ts)[0].toString()), "Tensor3(float32, shape=(?, ?, ?))");
        QCOMPARE(str(op->inferTypes(sqs)[0].toString()), "Tensor4(float32, shape=(2, 3, 2, 3))");
        // float32 in, float32 out (computed in float64, as NumPy's inv of a float32 array
        // is cast back by the output type).
        const NDArray x32 = runNode(op, {a.astype(DType::Float32)})[0];
        QCOMPARE(x32.dtype(), DType::Float32);
        TL_COMPARE_REF(x32, r.outputs[0], 1e-5);
        checkJsonRoundTrip(op);
        // Not square: 2*3 rows against 5 columns.
        const std::string e = errorMessage([&] { runNode(op, {NDArray::zeros(DType::Float64, {2, 3, 5})}); });
        QVERIFY2(e.find("must be square") != std::string::npos, e.c_str());
        const std::string s = errorMessage([&] { runNode(op, {NDArray::zeros(DType::Float64, {2, 3, 6})}); });
        QVERIFY2(s.find("Singular matrix") != std::string::npos, s.c_str());
        QVERIFY(errorMessage([] { makeTensorInv(0); }).find("positive") != std::string::npos);
        const Type v = Type::tensor(DType::Float64, {4});
        const Type* vs[] = {&v};
        QVERIFY(errorMessage([&] { op->inferTypes(vs); }).find("at least 2 dims") != std::string::npos);
    }

    void tensorSolve() {
        const RefCase r = refCase("tensorsolve");
        OpPtr op = makeTensorSolve();
        const NDArray x = runNode(op, {r.inputs.at("a"), r.inputs.at("b")})[0];
        QCOMPARE(x.shape(), (Shape{2, 3}));
        TL_COMPARE_REF(x, r.outputs[0], 1e-12);
        QCOMPARE(str(op->name()), "TensorSolve{axes=None}");
        checkJsonRoundTrip(op);
        // The builder's node, run as a graph.
        GraphBuilder b;
        Var va = b.input("a", DType::Float64, {6, 2, 3}), vb = b.input("b", DType::Float64, {6});
        Var vx = linalg::tensorsolve(va, vb);
        QCOMPARE(str(vx.type().toString()), "Matrix(float64, shape=(?, ?))");
        auto g = b.finish({vx});
        TL_COMPARE_REF(runGraph(*g, std::vector<NDArray>{r.inputs.at("a"), r.inputs.at("b")}).outputs.at(0), r.outputs[0], 1e-12);
    }

    // axes=(0,) moves a's first axis to the end before the reshape.
    void tensorSolveAxes() {
        const RefCase r = refCase("tensorsolve_axes");
        OpPtr op = makeTensorSolve(std::vector<int>{0});
        TL_COMPARE_REF(runNode(op, {r.inputs.at("a"), r.inputs.at("b")})[0], r.outputs[0], 1e-12);
        QCOMPARE(str(op->name()), "TensorSolve{axes=(0,)}");
        QCOMPARE(str(makeTensorSolve(std::vector<int>{0, -1})->name()), "TensorSolve{axes=(0, -1)}");
        checkJsonRoundTrip(op);
        const Type a = Type::tensor(DType::Float64, {2, 6, 3}), b = Type::tensor(DType::Int32, {6});
        const Type* ts[] = {&a, &b};
        QCOMPARE(str(op->inferTypes(ts)[0].toString()), "Matrix(float64, shape=(?, ?))");
        const std::string bad = errorMessage([&] { makeTensorSolve(std::vector<int>{3})->inferTypes(ts); });
        QVERIFY2(bad.find("out of range") != std::string::npos, bad.c_str());
    }

    void tensorSolveErrors() {
        OpPtr op = makeTensorSolve();
        // PyTensor types the result as a matrix; NumPy's would have ndim(a) - ndim(b) dims.
        const Type a = Type::tensor(DType::Float64, {6, 6}), b = Type::tensor(DType::Float64, {6});
        const Type* ts[] = {&a, &b};
        const std::string e = errorMessage([&] { op->inferTypes(ts); });
        QVERIFY2(e.find("has 1 dims") != std::string::npos, e.c_str());
        const std::string n = errorMessage([&] {
            runNode(op, {NDArray::zeros(DType::Float64, {5, 2, 3}), NDArray::zeros(DType::Float64, {5})});
        });
        QVERIFY2(n.find("prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])") != std::string::npos, n.c_str());
        const std::string s = errorMessage([&] {
            runNode(op, {NDArray::zeros(DType::Float64, {6, 2, 3}), NDArray::zeros(DType::Float64, {6})});
        });
        QVERIFY2(s.find("Singular matrix") != std::string::npos, s.c_str());
    }

    // The printed names read back in a dprint listing.
    void dprintNames() {
        const std::string listing =
            "TensorSolve{axes=(0,)} [id A] <Matrix(float64, shape=(?, ?))>\n"
            " ├─ TensorInv{ind=1} [id B] <Tensor3(float64, shape=(6, 2, 3))>\n"
            " │  └─ a [id C] <Tensor3(float64, shape=(6, 2, 3))>\n"
            " └─ b [id D] <Vector(float64, shape=(6,))>\n";
        const DPrintImport imported = importDprint(listing);
        const Node* solve = imported.graph->outputs().at(0)->owner();
        QCOMPARE(solve->op().kind(), OpKind::TensorSolve);
        QCOMPARE(str(solve->op().name()), "TensorSolve{axes=(0,)}");
        QCOMPARE(solve->input(0)->owner()->op().kind(), OpKind::TensorInv);
    }
};

TL_TEST_SUITE(TestLinalgTensor)
#include "tst_linalg_tensor.moc"
