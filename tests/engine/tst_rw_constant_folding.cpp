// constant_folding: nodes of constants computed by their kernels, and the nodes it
// must leave alone (AllocEmpty, PyTensor's Alloc rule, failing Asserts, raising kernels).
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "io/JsonValues.h"
#include "ops/Alloc.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;

Var vec(GraphBuilder& b) { return b.input("x", DType::Float64, {4}); }
Var cvec(GraphBuilder& b, std::vector<double> v) {
    return b.constant(NDArray::fromVector(DType::Float64, {static_cast<int64_t>(v.size())}, v));
}

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        {"add of constants", [] {
             GraphBuilder b;
             return b.finish({vec(b) * (b.constant(2.0) + b.constant(3.0))});
         }},
        {"expand dims of a constant", [] {
             GraphBuilder b;
             return b.finish({exp(vec(b)) - 5});
         }},
        {"index of a constant vector", [] {
             GraphBuilder b;
             return b.finish({vec(b) * index(cvec(b, {1, 2, 3}), 1)});
         }},
        {"slice of a constant vector", [] {
             GraphBuilder b;
             return b.finish({vec(b) + slice(cvec(b, {1, 2, 3, 4, 5}), 1, std::nullopt)});
         }},
        {"alloc summed", [] {
             GraphBuilder b;
             return b.finish({vec(b) * sum(alloc(b.constant(0.5), {3, 2}))});
         }},
        {"assert of a true constant", [] {
             GraphBuilder b;
             return b.finish({vec(b) * assertOp(b.constant(2.0), {b.constant(1.0, DType::Bool)})});
         }},
        {"int arithmetic wraps", [] {
             GraphBuilder b;
             Var x = b.input("x", DType::Int8, {4});
             return b.finish({x + (b.constant(100.0, DType::Int8) + b.constant(100.0, DType::Int8))});
         }},
        {"variable input", [] {
             GraphBuilder b;
             return b.finish({exp(vec(b))});
         }},
        {"alloc empty", [] {
             GraphBuilder b;
             Var buf = allocEmpty(b, DType::Float64, {4});
             return b.finish({setSubtensor(buf, vec(b), {Idx(Slice{})})});
         }},
        {"alloc output", [] {
             GraphBuilder b;
             vec(b);
             return b.finish({alloc(b.constant(1.5), {3})});
         }},
        {"alloc into elemwise", [] {
             GraphBuilder b;
             return b.finish({vec(b) + alloc(b.constant(1.5), {4})});
         }},
        {"alloc into setsubtensor", [] {
             GraphBuilder b;
             Var buf = alloc(b.constant(0.0), {6});
             return b.finish({setSubtensor(buf, vec(b), {Idx(Slice{IntArg(1), IntArg(5)})})});
         }},
        {"assert of a variable condition", [] {
             GraphBuilder b;
             Var x = vec(b);
             Var c = b.input("c", DType::Bool, {});
             return b.finish({x * assertOp(b.constant(2.0), {c})});
         }},
    };
    return m;
}

std::vector<NDArray> inputsFor(const Graph& g) {
    std::vector<NDArray> in = randomInputs(g, 7);
    for (size_t i = 0; i < g.inputs().size(); ++i)
        if (g.inputs()[i]->type().dtype == DType::Bool) in[i] = NDArray::scalar(DType::Bool, 1);  // asserts pass
    return in;
}

} // namespace

class TestConstantFolding : public QObject {
    Q_OBJECT
private slots:
    void folds_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("before");
        QTest::addColumn<int>("after");
        // Fires
        QTest::newRow("add of constants") << "add of constants" << "Elemwise" << 2 << 1;
        QTest::newRow("expand dims of a constant") << "expand dims of a constant" << "DimShuffle" << 1 << 0;
        QTest::newRow("index of a constant vector") << "index of a constant vector" << "Subtensor" << 1 << 0;
        QTest::newRow("slice of a constant vector") << "slice of a constant vector" << "Subtensor" << 1 << 0;
        QTest::newRow("alloc summed (not lifted)") << "alloc summed" << "Alloc" << 1 << 0;
        QTest::newRow("alloc summed: the sum too") << "alloc summed" << "Reduce" << 1 << 0;
        QTest::newRow("assert of a true constant") << "assert of a true constant" << "Assert" << 1 << 0;
        QTest::newRow("int arithmetic wraps") << "int arithmetic wraps" << "Elemwise" << 2 << 1;
        // Must not fire
        QTest::newRow("variable input") << "variable input" << "Elemwise" << 1 << 1;
        QTest::newRow("alloc empty") << "alloc empty" << "AllocEmpty" << 1 << 1;
        QTest::newRow("alloc as graph output") << "alloc output" << "Alloc" << 1 << 1;
        QTest::newRow("alloc into elemwise") << "alloc into elemwise" << "Alloc" << 1 << 1;
        QTest::newRow("alloc into setsubtensor") << "alloc into setsubtensor" << "Alloc" << 1 << 1;
        QTest::newRow("assert of a variable condition") << "assert of a variable condition" << "Assert" << 1 << 1;
    }

    void folds() {
        QFETCH(QString, graph);
        QFETCH(QString, kind);
        QFETCH(int, before);
        QFETCH(int, after);
        auto g = graphs().at(graph)();
        const OpKind k = *parseOpKind(kind.toStdString());
        QCOMPARE(countOps(*g, k), before);
        const std::vector<NDArray> in = inputsFor(*g);
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(constantFolding()), {}, 1, 1e-12, 0.0, &in);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, k), after);
        QCOMPARE(out.stepsOf("constant_folding") > 0, before != after || graph == "alloc summed");
    }

    // exp(x) - 5: ExpandDims{axis=0}(5) becomes the constant [5] of shape (1,).
    void foldedConstantHasTheValueShape() {
        auto g = graphs().at("expand dims of a constant")();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(constantFolding()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        std::vector<Variable*> cs = out.after->constants();
        QCOMPARE(cs.size(), size_t(1));
        QCOMPARE(QString::fromStdString(cs[0]->type().toString()), QString("Vector(int8, shape=(1,))"));
        QCOMPARE(cs[0]->constantValue().item(), 5.0);
    }

    // 100 + 100 in int8 wraps to -56, as NumPy and the kernel compute it.
    void integerWrapIsTheKernels() {
        auto g = graphs().at("int arithmetic wraps")();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(constantFolding()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        bool found = false;
        for (Variable* c : out.after->constants()) found = found || c->constantValue().item() == -56.0;
        QVERIFY(found);
    }

    // A failing Assert and a raising kernel stay: the error must happen at run time.
    void keepsRunTimeErrors() {
        GraphBuilder b;
        Var x = vec(b);
        Var failing = assertOp(b.constant(2.0), {b.constant(0.0, DType::Bool)}, "must fail");
        // Typed (?,) so the index is not checked statically: only the kernel finds it out of range.
        Var loose = b.constant(NDArray::fromVector(DType::Float64, {3}, {1, 2, 3}), Type::tensor(DType::Float64, {kUnknownDim}));
        Var outOfRange = index(loose, 7);
        auto g = b.finish({x * failing, x * outOfRange});
        int checked = 0;
        RewriteOptions explaining;
        explaining.explain = true;
        for (const Node* n : g->nodes()) {
            if (n->op().kind() != OpKind::Assert && n->op().kind() != OpKind::Subtensor) continue;
            MatchResult m = constantFolding().match(*n, explaining);
            QVERIFY(!m);
            QVERIFY2(!m.whyNot().empty(), n->label().c_str());
            ++checked;
        }
        QCOMPARE(checked, 2);
    }
};

TL_TEST_SUITE(TestConstantFolding)
#include "tst_rw_constant_folding.moc"
