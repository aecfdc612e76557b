// The ops that hand their input on: CheckAndRaise (PyMC's check_parameters), ViewOp
// and the grad-steering ViewOps (ZeroGrad, GradScale, ...), Print, and the scalar op
// real. Their names as PyTensor prints them, kernels, errors, JSON (including what the
// exporter writes), dprint round trips, and the rewrites that see them:
// local_view_op removes a ViewOp and leaves Print alone; local_remove_useless_assert
// treats CheckAndRaise as Assert; constant folding never folds Print away.
#include "TestSuites.h"
#include "LinalgTestUtil.h"
#include "RewriteCheck.h"
#include "ScalarRopCheck.h"

#include "builder/Indexing.h"
#include "builder/Math.h"
#include "io/JsonGraph.h"
#include "ops/Assert.h"
#include "ops/Elemwise.h"
#include "ops/PassThrough.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

RunResult runWith(const Graph& g, std::vector<NDArray> in) { return runGraph(g, in); }

NDArray vec3(double a, double b, double c) { return NDArray::fromVector(DType::Float64, {3}, {a, b, c}); }

// (x * 2) passed through `op` (with conditions `conds` for a check), then + 1.
std::shared_ptr<Graph> through(const OpPtr& op, bool withCondition) {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {3});
    std::vector<Var> ins{x * 2.0};
    if (withCondition) ins.push_back(b.input("ok", DType::Bool, {}));
    return b.finish({b.apply1(op, ins) + 1.0});
}

} // namespace

class TestPassThroughOps : public QObject {
    Q_OBJECT
private slots:
    void names() {
        QCOMPARE(QString::fromStdString(makeCheckAndRaise("ParameterValueError", "sigma > 0")->name()),
                 "CheckAndRaise{raises=ParameterValueError, msg='sigma > 0'}");
        QCOMPARE(QString::fromStdString(makeCheckAndRaise("ValueError", std::string(40, 'm'))->name()),
                 "CheckAndRaise{raises=ValueError, msg='" + QString(27, 'm') + "...'}");
        QCOMPARE(QString::fromStdString(makeAssert("x > 0")->name()), "Assert{msg='x > 0'}");
        QCOMPARE(makeCheckAndRaise("ValueError")->kind(), OpKind::CheckAndRaise);
        QCOMPARE(QString::fromStdString(makeViewOp("ZeroGrad")->name()), "ZeroGrad");
        QCOMPARE(QString::fromStdString(makePrint("resid", {"shape", "sum"})->name()), "Print{message='resid', attrs=('shape', 'sum')}");
        QCOMPARE(QString::fromStdString(makePrint()->name()), "Print{message='', attrs=('__str__',)}");
        QVERIFY(errorMessage([] { makeViewOp("not a class"); }).find("is not a class name") != std::string::npos);
        QVERIFY(errorMessage([] { makePrint("m", {"__len__"}); }).find("\"__len__\"") != std::string::npos);
    }

    // The value passes through as a view; a false condition raises the named exception.
    void kernels() {
        auto g = through(makeCheckAndRaise("ParameterValueError", "sigma > 0"), true);
        const NDArray x = vec3(1, 2, 3);
        TL_COMPARE_ARRAYS(runWith(*g, {x, NDArray::scalar(DType::Bool, 1)}).outputs.at(0), vec3(3, 5, 7), 0, 0);
        const std::string e = errorMessage([&] { runWith(*g, {x, NDArray::scalar(DType::Bool, 0)}); });
        QVERIFY2(e.find("ParameterValueError: sigma > 0") != std::string::npos && e.find("CheckAndRaise{") != std::string::npos,
                 e.c_str());
        for (const OpPtr& op : {makeViewOp("GradScale"), makePrint("p", {"shape", "sum", "__str__"}), makeCpuContiguous()}) {
            QCOMPARE(op->viewMap(), (AliasMap{{0, {0}}}));
            TL_COMPARE_ARRAYS(runWith(*through(op, false), {x}).outputs.at(0), vec3(3, 5, 7), 0, 0);
        }
    }

    // CpuContiguous hands on a C-contiguous input itself and copies any other (a
    // transposed view here) into C order; local_view_op leaves it, as PyTensor does.
    void cpuContiguous() {
        const OpPtr op = makeCpuContiguous();
        QCOMPARE(QString::fromStdString(op->name()), "CpuContiguous");
        const NDArray m = NDArray::fromVector(DType::Float64, {2, 3}, {1, 2, 3, 4, 5, 6});
        std::vector<NDArray> out(1);
        op->perform(std::vector<NDArray>{m}, out);
        QVERIFY(out[0].sharesStorageWith(m));
        const NDArray t = m.view({3, 2}, {1, 3}, 0);
        op->perform(std::vector<NDArray>{t}, out);
        QVERIFY(!out[0].sharesStorageWith(m));
        QVERIFY(out[0].isContiguous());
        TL_COMPARE_ARRAYS(out[0], NDArray::fromVector(DType::Float64, {3, 2}, {1, 4, 2, 5, 3, 6}), 0, 0);
        checkJsonRoundTrip(op);
        // What the exporter writes: PyTensor's view_map beside the (no) props.
        QCOMPARE(makeOp(OpKind::CpuContiguous, nlohmann::json::parse(R"({"view_map": {"0": [0]}})"), nullptr)->name(), std::string("CpuContiguous"));
        QVERIFY(errorMessage([] { makeOp(OpKind::CpuContiguous, nlohmann::json::parse(R"({"view_map": {"0": [1]}})"), nullptr); }).find("view_map") != std::string::npos);
        dprintRoundTrip(*through(op, false), {m.view({3}, {1}, 0).copy()}, allOptions());
        RewriteOutcome kept = rewriteAndCompare(*through(op, false), singleRewrite(tl::localViewOp()), {}, 1, 0, 0);
        QCOMPARE(countOps(*kept.after, OpKind::CpuContiguous), 1);
    }

    // Every form round-trips through JSON; the exporter's forms load (the exception's
    // class by name or as its repr, the ViewOp's class, Print's message and attrs).
    void json() {
        for (const OpPtr& op : {makeCheckAndRaise("ValueError", "m"), makeViewOp("DisconnectedGrad"), makePrint("m", {"min", "max"})})
            checkJsonRoundTrip(op);
        const OpPtr repr = makeOp(OpKind::CheckAndRaise, {{"exc_type", "<class 'pymc.logprob.utils.ParameterValueError'>"}, {"msg", "m"}}, nullptr);
        QCOMPARE(QString::fromStdString(repr->name()), "CheckAndRaise{raises=ParameterValueError, msg='m'}");
        QCOMPARE(makeOp(OpKind::ViewOp, {{"name", "GradClip"}}, nullptr)->name(), std::string("GradClip"));
        QCOMPARE(makeOp(OpKind::Print, {{"message", "r"}, {"attrs", {"shape"}}}, nullptr)->name(), std::string("Print{message='r', attrs=('shape',)}"));
        QVERIFY(errorMessage([] { makeOp(OpKind::CheckAndRaise, {{"msg", "m"}}, nullptr); }).find("exc_type") != std::string::npos);
        QVERIFY(errorMessage([] { makeOp(OpKind::Print, {{"attrs", "shape"}}, nullptr); }).find("list of names") != std::string::npos);
    }

    void dprintRoundTrips() {
        const std::vector<NDArray> in{vec3(1, 2, 3), NDArray::scalar(DType::Bool, 1)};
        dprintRoundTrip(*through(makeCheckAndRaise("ParameterValueError", "sigma > 0, nu > 0"), true), in, allOptions());
        dprintRoundTrip(*through(makeViewOp("ZeroGrad"), false), {in[0]}, allOptions());
    }

    // local_view_op: a ViewOp goes (the graph computes the same); Print stays.
    void localViewOp() {
        for (bool print : {false, true}) {
            auto g = through(print ? makePrint("p", {"shape"}) : makeViewOp("ZeroGrad"), false);
            RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(tl::localViewOp()), {}, 1, 0, 0);
            QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
            QCOMPARE(out.stepsOf("local_view_op"), print ? 0 : 1);
            QCOMPARE(countOps(*out.after, OpKind::ViewOp), 0);
            QCOMPARE(countOps(*out.after, OpKind::Print), print ? 1 : 0);
        }
    }

    // local_remove_useless_assert drops CheckAndRaise's constant-true conditions and keeps
    // a variable one.
    void uselessCheckAndRaise() {
        for (bool variable : {false, true}) {
            GraphBuilder b;
            Var x = b.input("x", DType::Float64, {3});
            std::vector<Var> ins{x * 2.0, b.constant(1.0, DType::Bool)};
            if (variable) ins.push_back(b.input("ok", DType::Bool, {}));
            auto g = b.finish({b.apply1(makeCheckAndRaise("ValueError", "x"), ins) + 1.0});
            std::vector<NDArray> inputs{vec3(1, 2, 3)};
            if (variable) inputs.push_back(NDArray::scalar(DType::Bool, 1));
            RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localRemoveUselessAssert()), {}, 1, 0, 0, &inputs);
            QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
            QCOMPARE(countOps(*out.after, OpKind::CheckAndRaise), variable ? 1 : 0);
        }
    }

    // Constant folding folds a check of constants, never a Print of them.
    void printIsNotFolded() {
        for (bool print : {false, true}) {
            GraphBuilder b;
            Var c = b.constant(vec3(1, 2, 3));
            Var passed = b.apply1(print ? makePrint("p") : makeViewOp("ViewOp"), {c});
            auto g = b.finish({passed + b.input("x", DType::Float64, {3})});
            RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(constantFolding()), {}, 1, 0, 0);
            QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
            QCOMPARE(countOps(*out.after, print ? OpKind::Print : OpKind::ViewOp), print ? 1 : 0);
        }
    }

    // real(x) is x for every dtype tensorlens has (no complex ones).
    void realScalarOp() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {3});
        Var n = b.input("n", DType::Int32, {3});
        Var rx = b.apply1(makeElemwise(ScalarOpCode::Real), {x}), rn = b.apply1(makeElemwise(ScalarOpCode::Real), {n});
        QCOMPARE(QString::fromStdString(rx.get()->owner()->op().name()), "Real");
        QCOMPARE(rn.get()->type().dtype, DType::Int32);
        auto g = b.finish({rx, rn});
        const NDArray ints = NDArray::fromVector(DType::Int32, {3}, {-1, 0, 7});
        const auto out = runWith(*g, {vec3(-0.0, 1.5, NAN), ints}).outputs;
        TL_COMPARE_ARRAYS(out.at(0), vec3(-0.0, 1.5, NAN), 0, 0);
        TL_COMPARE_ARRAYS(out.at(1), ints, 0, 0);
        QVERIFY(std::signbit(out.at(0).flatGet(0)));
    }
};

TL_TEST_SUITE(TestPassThroughOps)
#include "tst_pass_through_ops.moc"
