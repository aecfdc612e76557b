// The CPU executor on its own: order, destroy handling, aliasing of outputs,
// freeing of intermediates (peak bytes), cell reuse, error messages.
#include "TestSuites.h"
#include "ir/GraphAssembler.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "exec/Executor.h"
#include "ops/ArrayOpUtil.h"
#include "ops/Elemwise.h"

#include "TestSupport.h"

#include <QtTest>

#include <cmath>

using namespace tl;

namespace {

// out = in + 1 (float64), reusing its output cell as real kernels do.
class AddOneOp : public Op {
public:
    explicit AddOneOp(bool inplace = false) : Op(OpKind::Opaque), m_inplace(inplace) {}
    std::string name() const override { return m_inplace ? "AddOneInplace" : "AddOne"; }
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override { return {*in[0]}; }
    void perform(std::span<const NDArray> in, std::span<NDArray> out) const override {
        NDArray r = m_inplace ? in[0] : arrayop::reuseOrEmpty(out[0], in[0].dtype(), in[0].shape());
        const NDArray src = in[0].isContiguous() ? in[0] : in[0].copy();
        for (int64_t i = 0; i < r.size(); ++i) r.data<double>()[i] = src.data<double>()[i] + 1;
        out[0] = r;
    }
    AliasMap destroyMap() const override { return m_inplace ? AliasMap{{0, {0}}} : AliasMap{}; }

private:
    bool m_inplace;
};

// out = in (a view).
class ViewOp : public Op {
public:
    ViewOp() : Op(OpKind::Opaque) {}
    std::string name() const override { return "View"; }
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override { return {*in[0]}; }
    void perform(std::span<const NDArray> in, std::span<NDArray> out) const override { out[0] = in[0]; }
    AliasMap viewMap() const override { return {{0, {0}}}; }
};

class FailOp : public Op {
public:
    FailOp() : Op(OpKind::Opaque) {}
    std::string name() const override { return "Fail"; }
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override { return {*in[0]}; }
    void perform(std::span<const NDArray>, std::span<NDArray>) const override {
        throw ExecError("index 9 is out of bounds");
    }
};

NDArray vec(std::vector<double> v) { return NDArray::fromVector(DType::Float64, {static_cast<int64_t>(v.size())}, v); }

Type vecType(int64_t n) { return Type::tensor(DType::Float64, {n}); }

} // namespace

class TestExecutor : public QObject {
    Q_OBJECT
private slots:
    void runsRealOps() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {3});
        Var y = exp(x) * 2 - x;
        auto g = b.finish({y});
        const NDArray in = vec({0.0, 1.0, -2.0});
        RunResult r = runGraph(*g, std::span(&in, 1));
        QCOMPARE(r.outputs.size(), size_t(1));
        std::vector<double> want;
        for (double v : {0.0, 1.0, -2.0}) want.push_back(std::exp(v) * 2 - v);
        TL_COMPARE_ARRAYS(r.outputs[0], vec(want), 1e-15, 0);
        QCOMPARE(in.toDoubles(), (std::vector<double>{0.0, 1.0, -2.0}));
    }

    void inputCountAndTypeErrorsNameTheInput() {
        GraphBuilder b;
        Var x = b.input("x_init", DType::Float64, {7});
        auto g = b.finish({exp(x)});
        const NDArray wrongShape = vec({1, 2, 3});
        try {
            runGraph(*g, std::span(&wrongShape, 1));
            QFAIL("a wrong shape ran");
        } catch (const ExecError& e) {
            const QString m = e.what();
            QVERIFY2(m.contains("input 0 ('x_init')") && m.contains("shape=(7,)") && m.contains("(3,)"), e.what());
        }
        const NDArray wrongType = NDArray::zeros(DType::Int32, {7});
        try {
            runGraph(*g, std::span(&wrongType, 1));
            QFAIL("a wrong dtype ran");
        } catch (const ExecError& e) {
            QVERIFY2(QString(e.what()).contains("int32"), e.what());
        }
        try {
            runGraph(*g, {});
            QFAIL("a missing input ran");
        } catch (const ExecError& e) {
            QVERIFY2(QString(e.what()).contains("expected 1 inputs, got 0"), e.what());
        }
    }

    void kernelErrorNamesTheNode() {
        GraphAssembler ga;
        Variable* x = ga.addInput(vecType(2), "x");
        Node* n = ga.addNode(std::make_shared<FailOp>(), {x});
        ga.setOutputs({n->output(0)});
        const auto gOwned = ga.finish();
        const Graph& g = *gOwned;
        const NDArray in = vec({1, 2});
        try {
            runGraph(g, std::span(&in, 1));
            QFAIL("the failing kernel did not fail");
        } catch (const ExecError& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(n->label() + ": index 9")), e.what());
        }
    }

    // a = x + 1; b = a + 1 computed in place of a; c = a + 1 reads a. Depth-first order
    // from the outputs would run b first; the destroy ordering must run c before b.
    void readersRunBeforeTheDestroyer() {
        GraphAssembler ga;
        Variable* x = ga.addInput(vecType(2), "x");
        Node* a = ga.addNode(std::make_shared<AddOneOp>(), {x});
        Node* bNode = ga.addNode(std::make_shared<AddOneOp>(true), {a->output(0)});
        Node* c = ga.addNode(std::make_shared<AddOneOp>(), {a->output(0)});
        ga.setOutputs({bNode->output(0), c->output(0)});
        const auto gOwned = ga.finish();
        const Graph& g = *gOwned;
        CompiledGraph cg(g);
        const auto& order = cg.order();
        auto at = [&](const Node* n) { return std::find(order.begin(), order.end(), n) - order.begin(); };
        QVERIFY(at(c) < at(bNode));
        QVERIFY(cg.protectedDestroyers().empty());
        ExecContext ctx;
        const NDArray in = vec({1, 2});
        auto out = cg.run(ctx, std::span(&in, 1));
        TL_COMPARE_ARRAYS(out[0], vec({3, 4}), 0, 0);
        TL_COMPARE_ARRAYS(out[1], vec({3, 4}), 0, 0);
    }

    // A reader that needs the destroyer's own output cannot run first: the destroyer
    // works on a copy instead.
    void unorderableDestroyerWorksOnACopy() {
        GraphAssembler ga;
        Variable* x = ga.addInput(vecType(2), "x");
        Node* a = ga.addNode(std::make_shared<AddOneOp>(), {x});
        Node* d = ga.addNode(std::make_shared<AddOneOp>(true), {a->output(0)});
        // e reads a's view and d's output: it must follow d yet read a's old value.
        Node* v = ga.addNode(std::make_shared<ViewOp>(), {a->output(0)});
        auto addOp = makeElemwise(ScalarOpCode::Add);
        Node* e = ga.addNode(addOp, {v->output(0), d->output(0)});
        ga.setOutputs({e->output(0)});
        const auto gOwned = ga.finish();
        const Graph& g = *gOwned;
        CompiledGraph cg(g);
        QCOMPARE(cg.protectedDestroyers().size(), size_t(1));
        ExecContext ctx;
        const NDArray in = vec({1, 2});
        auto out = cg.run(ctx, std::span(&in, 1));
        TL_COMPARE_ARRAYS(out[0], vec({2 + 3, 3 + 4}), 0, 0);
    }

    void graphInputsAndConstantsAreNeverDestroyed() {
        GraphAssembler ga;
        Variable* x = ga.addInput(vecType(2), "x");
        Variable* k = ga.addConstant(vec({10, 20}));
        Node* dx = ga.addNode(std::make_shared<AddOneOp>(true), {x});
        Node* dk = ga.addNode(std::make_shared<AddOneOp>(true), {k});
        ga.setOutputs({dx->output(0), dk->output(0)});
        const auto gOwned = ga.finish();
        const Graph& g = *gOwned;
        const NDArray in = vec({1, 2});
        RunResult r = runGraph(g, std::span(&in, 1));
        TL_COMPARE_ARRAYS(r.outputs[0], vec({2, 3}), 0, 0);
        TL_COMPARE_ARRAYS(r.outputs[1], vec({11, 21}), 0, 0);
        TL_COMPARE_ARRAYS(in, vec({1, 2}), 0, 0);
        TL_COMPARE_ARRAYS(k->constantValue(), vec({10, 20}), 0, 0);
        // A second run sees the same constant.
        RunResult r2 = runGraph(g, std::span(&in, 1));
        TL_COMPARE_ARRAYS(r2.outputs[1], vec({11, 21}), 0, 0);
    }

    void outputsNeverAliasInputsConstantsOrEachOther() {
        GraphAssembler ga;
        Variable* x = ga.addInput(vecType(2), "x");
        Variable* k = ga.addConstant(vec({5, 6}));
        Node* v = ga.addNode(std::make_shared<ViewOp>(), {x});
        Node* a = ga.addNode(std::make_shared<AddOneOp>(), {x});
        ga.setOutputs({v->output(0), x, k, a->output(0), a->output(0)});
        const auto gOwned = ga.finish();
        const Graph& g = *gOwned;
        const NDArray in = vec({1, 2});
        RunResult r = runGraph(g, std::span(&in, 1));
        QCOMPARE(r.outputs.size(), size_t(5));
        for (size_t i = 0; i < r.outputs.size(); ++i) {
            QVERIFY(!r.outputs[i].sharesStorageWith(in));
            QVERIFY(!r.outputs[i].sharesStorageWith(k->constantValue()));
            for (size_t j = 0; j < i; ++j) QVERIFY(!r.outputs[i].sharesStorageWith(r.outputs[j]));
        }
        TL_COMPARE_ARRAYS(r.outputs[0], in, 0, 0);
        TL_COMPARE_ARRAYS(r.outputs[2], vec({5, 6}), 0, 0);
        TL_COMPARE_ARRAYS(r.outputs[4], vec({2, 3}), 0, 0);
    }

    // A chain of n ops on 1000 doubles needs two arrays at a time when intermediates are
    // freed after their last use, and n when they are kept.
    void peakBytesFollowLastUse() {
        const int n = 6;
        GraphAssembler ga;
        Variable* x = ga.addInput(vecType(1000), "x");
        Variable* v = x;
        for (int i = 0; i < n; ++i) v = ga.addNode(std::make_shared<AddOneOp>(), {v})->output(0);
        ga.setOutputs({v});
        const auto gOwned = ga.finish();
        const Graph& g = *gOwned;
        const NDArray in = NDArray::zeros(DType::Float64, {1000});
        RunResult r = runGraph(g, std::span(&in, 1));
        QCOMPARE(r.peakBytes, size_t(2 * 8000));
        QCOMPARE(r.outputs[0].flatGet(999), double(n));

        ExecContext ctx;
        CompiledGraph keep(g, CompiledGraphOptions{.freeIntermediates = false, .rowReuse = {}});
        ctx.tracker().resetPeak();
        keep.run(ctx, std::span(&in, 1));
        QCOMPARE(ctx.tracker().peakBytes(), size_t(n * 8000));
    }

    // Kept cells are reused by the kernels on the next call: no allocation in the steady state.
    void keptCellsAreReused() {
        GraphAssembler ga;
        Variable* x = ga.addInput(vecType(100), "x");
        Variable* a = ga.addNode(std::make_shared<AddOneOp>(), {x})->output(0);
        Variable* b = ga.addNode(std::make_shared<AddOneOp>(), {a})->output(0);
        ga.setOutputs({b});
        const auto gOwned = ga.finish();
        const Graph& g = *gOwned;
        ExecContext ctx;
        CompiledGraph cg(g, CompiledGraphOptions{.freeIntermediates = false, .rowReuse = {}});
        cg.inputSlot(0) = NDArray::zeros(DType::Float64, {100});
        MemoryTrackerScope scope(&ctx.tracker());
        cg.execute(ctx);
        const void* first = cg.output(0).rawData();
        const size_t total = ctx.tracker().totalAllocatedBytes();
        for (int i = 0; i < 5; ++i) cg.execute(ctx);
        QCOMPARE(cg.output(0).rawData(), first);
        QCOMPARE(ctx.tracker().totalAllocatedBytes(), total);
        QCOMPARE(cg.output(0).flatGet(0), 2.0);
        QVERIFY(cg.outputCell(0) != nullptr);
        cg.releaseAll();
    }

    void outputFacts() {
        GraphAssembler ga;
        Variable* x = ga.addInput(vecType(2), "x");
        Node* v = ga.addNode(std::make_shared<ViewOp>(), {x});
        Node* a = ga.addNode(std::make_shared<AddOneOp>(), {x});
        ga.setOutputs({x, v->output(0), a->output(0)});
        const auto gOwned = ga.finish();
        const Graph& g = *gOwned;
        CompiledGraph cg(g, CompiledGraphOptions{.freeIntermediates = false, .rowReuse = {}});
        QVERIFY(cg.outputAliasesInput(0));
        QVERIFY(cg.outputAliasesInput(1));
        QVERIFY(!cg.outputAliasesInput(2));
        QVERIFY(cg.outputCell(0) == nullptr);
        QVERIFY(cg.outputCell(1) == nullptr);
        QVERIFY(cg.outputCell(2) != nullptr);
    }

    // Nodes no output needs are not run.
    void deadNodesAreSkipped() {
        GraphAssembler ga;
        Variable* x = ga.addInput(vecType(2), "x");
        ga.addNode(std::make_shared<FailOp>(), {x});
        Node* a = ga.addNode(std::make_shared<AddOneOp>(), {x});
        ga.setOutputs({a->output(0)});
        const auto gOwned = ga.finish();
        const Graph& g = *gOwned;
        const NDArray in = vec({1, 2});
        RunResult r = runGraph(g, std::span(&in, 1));
        TL_COMPARE_ARRAYS(r.outputs[0], vec({2, 3}), 0, 0);
    }
};

TL_TEST_SUITE(TestExecutor)
#include "tst_executor.moc"
