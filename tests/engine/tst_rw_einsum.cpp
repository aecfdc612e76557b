// Einsum, PyTensor's OpFromGraph subclass: its attributes printed as PyTensor prints
// them and read back from dprint text and JSON (malformed ones refused with the
// place named), and inline_optimized_einsum inlining an optimized Einsum and
// nothing else, each graph run before and after, and the shapes its inner graph
// reads folded to constants in specialize where the operands' shapes are static.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "ShapeOpsTestUtil.h"
#include "TestSupport.h"

#include "builder/ControlFlow.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "io/DPrint.h"
#include "io/DPrintImport.h"
#include "io/JsonGraph.h"
#include "ops/OpFactory.h"
#include "ops/OpFromGraph.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

const Type kA = Type::tensor(DType::Float64, {3, 4});
const Type kB = Type::tensor(DType::Float64, {4, 5});
const Type kC = Type::tensor(DType::Float64, {5, 2});

// The inner graph PyTensor builds for einsum("ij,jk,kl->il", A, B, C) along the path
// ((2, 1), (1, 0)): A @ (C.T @ B.T).T.
std::shared_ptr<const Graph> chainBody() {
    OpPtr op = graphOp({kA, kB, kC}, [](GraphBuilder&, const std::vector<Var>& in) {
        return std::vector<Var>{dot(in[0], transpose(dot(transpose(in[2]), transpose(in[1]))))};
    });
    return op->innerGraph();
}

EinsumSpec chainSpec(bool optimized) { return {"ij,jk,kl->il", {{2, 1}, {1, 0}}, optimized}; }

std::unique_ptr<Graph> chainGraph(const OpPtr& op) {
    GraphBuilder b;
    Var A = b.input("A", DType::Float64, {3, 4});
    Var B = b.input("B", DType::Float64, {4, 5});
    Var C = b.input("C", DType::Float64, {5, 2});
    return b.finish({add(applyGraphOp(op, {A, B, C}).at(0), 1.0)});
}

} // namespace

class TestRwEinsum : public QObject {
    Q_OBJECT
private slots:
    void printedAsPyTensorPrintsIt() {
        // The names PyTensor 2.34's dprint prints for these einsums.
        QCOMPARE(QString::fromStdString(makeEinsum(chainBody(), chainSpec(true))->name()),
                 QString("Einsum{self.subscripts='ij,jk,kl->il', self.path=((2, 1), (1, 0)), self.optimized=True}"));
        QCOMPARE(QString::fromStdString(einsumSpecText({"ij,jk->ik", {{1, 0}}, true})),
                 QString("self.subscripts='ij,jk->ik', self.path=((1, 0),), self.optimized=True"));
        QCOMPARE(QString::fromStdString(einsumSpecText({"ij->", {{0}}, false})),
                 QString("self.subscripts='ij->', self.path=((0,),), self.optimized=False"));
        for (const EinsumSpec& s : {chainSpec(true), chainSpec(false), EinsumSpec{"ij->", {{0}}, true},
                                    EinsumSpec{"...d,d->...", {{1, 0}}, true}}) {
            const auto back = parseEinsumSpecText(einsumSpecText(s));
            QVERIFY(back && *back == s);
        }
    }

    void malformedAttributesAreNamed_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("why");
        QTest::newRow("no subscripts") << "self.path=((1, 0),), self.optimized=True" << "expected self.subscripts= first";
        QTest::newRow("unquoted") << "self.subscripts=ij, self.path=((1, 0),), self.optimized=True" << "not a quoted string";
        QTest::newRow("flat path") << "self.subscripts='ij', self.path=(1, 0), self.optimized=True" << "self.path is not a tuple of tuples";
        QTest::newRow("open path") << "self.subscripts='ij', self.path=((1, 0), self.optimized=True" << "self.path is not a tuple of tuples";
        QTest::newRow("bad flag") << "self.subscripts='ij', self.path=((0,),), self.optimized=yes" << "neither True nor False";
        QTest::newRow("trailing") << "self.subscripts='ij', self.path=((0,),), self.optimized=True, x=1" << "unexpected text after";
    }
    void malformedAttributesAreNamed() {
        QFETCH(QString, text);
        QFETCH(QString, why);
        std::string reason;
        QVERIFY(!parseEinsumSpecText(text.toStdString(), &reason));
        QVERIFY2(QString::fromStdString(reason).contains(why), reason.c_str());
    }

    void jsonKeepsTheAttributes() {
        OpPtr op = makeEinsum(chainBody(), chainSpec(true));
        auto g = chainGraph(op);
        auto loaded = graphFromJsonText(graphToJsonText(*g));
        QCOMPARE(QString::fromStdString(graphToJsonText(*loaded)), QString::fromStdString(graphToJsonText(*g)));
        const Node* e = nullptr;
        for (const Node* n : loaded->nodes())
            if (n->kind() == OpKind::OpFromGraph) e = n;
        QVERIFY(e);
        const auto& back = static_cast<const OpFromGraphOp&>(e->op());
        QVERIFY(back.einsum() && *back.einsum() == chainSpec(true));
        // A path naming an operand the inner graph lacks, or a missing flag, is refused by name.
        nlohmann::json params = op->params();
        params["path"] = {{3, 0}};
        try {
            makeOp(OpKind::OpFromGraph, params, chainBody());
            QFAIL("a path past the operands must be refused");
        } catch (const std::invalid_argument& ex) {
            QVERIFY2(QString(ex.what()).contains("Einsum path names operand 3 of 3"), ex.what());
        }
        params = op->params();
        params.erase("optimized");
        try {
            makeOp(OpKind::OpFromGraph, params, chainBody());
            QFAIL("an Einsum without its flag must be refused");
        } catch (const std::invalid_argument& ex) {
            QVERIFY2(QString(ex.what()).contains("\"optimized\" must be true or false"), ex.what());
        }
    }

    void dprintTextBothWays() {
        auto g = chainGraph(makeEinsum(chainBody(), chainSpec(false)));
        DPrintOptions o;
        o.printType = true;
        const std::string text = dprint(*g, o);
        QVERIFY2(QString::fromStdString(text).contains("Einsum{self.subscripts='ij,jk,kl->il', self.path=((2, 1), (1, 0)), "
                                                       "self.optimized=False} [id"),
                 text.c_str());
        DPrintImport back = importDprint(text);
        const Node* e = nullptr;
        for (const Node* n : back.graph->nodes())
            if (n->kind() == OpKind::OpFromGraph) e = n;
        QVERIFY(e);
        QVERIFY(static_cast<const OpFromGraphOp&>(e->op()).einsum() == chainSpec(false));
        QCOMPARE(QString::fromStdString(dprint(*back.graph, back.options)), QString::fromStdString(text));
        QCOMPARE(run(*back.graph, {iota(DType::Float64, {3, 4}), iota(DType::Float64, {4, 5}), iota(DType::Float64, {5, 2})})[0]
                     .toDoubles(),
                 run(*g, {iota(DType::Float64, {3, 4}), iota(DType::Float64, {4, 5}), iota(DType::Float64, {5, 2})})[0].toDoubles());
    }

    void inlineOptimizedEinsum_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<bool>("inlined");
        QTest::newRow("optimized Einsum is inlined") << 0 << true;
        QTest::newRow("optimized=False stays one node") << 1 << false;
        QTest::newRow("an OpFromGraph that is no Einsum stays") << 2 << false;
    }
    void inlineOptimizedEinsum() {
        QFETCH(int, which);
        QFETCH(bool, inlined);
        const OpPtr op = which == 0   ? makeEinsum(chainBody(), chainSpec(true))
                         : which == 1 ? makeEinsum(chainBody(), chainSpec(false))
                                      : makeOpFromGraph(chainBody(), std::string("chain"));
        auto g = chainGraph(op);
        PipelineOptions options;
        options.explain = true;
        RewriteOutcome r = rewriteAndCompare(*g, singleRewrite(tl::inlineOptimizedEinsum()), options, 3, 1e-12);
        QVERIFY2(r.mismatch.empty(), r.mismatch.c_str());
        QCOMPARE(r.stepsOf("inline_optimized_einsum"), inlined ? 1 : 0);
        QCOMPARE(countOps(*r.after, OpKind::OpFromGraph), inlined ? 0 : 1);
        QCOMPARE(countOps(*r.after, OpKind::Dot), inlined ? 2 : 0);
        // The whole pipeline inlines it in specialize, after the BLAS phase: the
        // products stay Dot, as in PyTensor's compiled einsum.
        RewriteOutcome full = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 3, 1e-12);
        QVERIFY2(full.mismatch.empty(), full.mismatch.c_str());
        QCOMPARE(countOps(*full.after, OpKind::OpFromGraph), inlined ? 0 : 1);
        QCOMPARE(countOps(*full.after, OpKind::Dot), inlined ? 2 : 0);
    }

    // PyTensor's einsum reads an operand's shape inside its inner graph ('ii->i' takes
    // arange(x.shape[0])). Inlined in specialize, the Shape of a static operand must
    // still become constants there (local_shape_ground, local_shape_to_shape_i), as in
    // PyTensor's specialize; an unknown dim stays a Shape_i.
    void shapesInsideAnInlinedEinsum_data() {
        QTest::addColumn<bool>("staticShape");
        QTest::newRow("static operand: shapes fold") << true;
        QTest::newRow("unknown operand: Shape_i stays") << false;
    }
    void shapesInsideAnInlinedEinsum() {
        QFETCH(bool, staticShape);
        const Type anyMatrix = Type::tensor(DType::Float64, {kUnknownDim, kUnknownDim});
        OpPtr body = graphOp({anyMatrix}, [](GraphBuilder&, const std::vector<Var>& in) {
            Var n = index(shape(in[0]), 0), m = index(shape(in[0]), 1);
            return std::vector<Var>{reshape(in[0], {n * m})};
        });
        OpPtr op = makeEinsum(body->innerGraph(), {"ij->ij", {{0}}, true});
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, staticShape ? StaticShape{3, 4} : StaticShape{kUnknownDim, kUnknownDim});
        auto g = b.finish({mul(applyGraphOp(op, {x}).at(0), 2.0)});
        RewriteOutcome full = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 3, 1e-12);
        QVERIFY2(full.mismatch.empty(), full.mismatch.c_str());
        QCOMPARE(countOps(*full.after, OpKind::OpFromGraph), 0);
        QCOMPARE(countOps(*full.after, OpKind::Shape), 0);
        QCOMPARE(countOps(*full.after, OpKind::ShapeI), staticShape ? 0 : 2);
        // The Reshape's target length is a constant once the shapes fold.
        const Node* reshape = nullptr;
        for (const Node* n : full.after->nodes())
            if (n->kind() == OpKind::Reshape) reshape = n;
        QVERIFY(reshape);
        QCOMPARE(reshape->input(1)->isConstant(), staticShape);
        // Rebuilt as PyTensor's make_node rebuilds it: its length is static once the
        // operand's is, though the inner graph's Reshape read an unknown shape.
        QCOMPARE(QString::fromStdString(reshape->output(0)->type().toString()),
                 QString(staticShape ? "Vector(float64, shape=(12,))" : "Vector(float64, shape=(?,))"));
    }
};

TL_TEST_SUITE(TestRwEinsum)
#include "tst_rw_einsum.moc"
