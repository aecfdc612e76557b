// The useless phase: local_useless_specify_shape, local_useless_unbroadcast,
// local_useless_slice, local_useless_elemwise, local_useless_alloc -- each with graphs
// where it fires and, beside them, where it must not.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "io/JsonValues.h"
#include "ops/SpecifyShape.h"
#include "ops/Subtensor.h"
#include "ops/Unbroadcast.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;

Var in(GraphBuilder& b, const char* name, StaticShape s, DType d = DType::Float64) { return b.input(name, d, std::move(s)); }

/// x[entries] with index constants `values`, built directly (the builder drops x[:]).
Var rawSubtensor(Var x, std::vector<IndexEntry> entries, std::vector<int64_t> values) {
    std::vector<Var> ins{x};
    for (int64_t v : values) ins.push_back(x.builder().scalarConstant(static_cast<double>(v)));
    return x.builder().apply1(makeSubtensor(std::move(entries)), ins);
}
constexpr IndexEntry kIndex{IndexEntry::Kind::Index};
constexpr IndexEntry kFull{IndexEntry::Kind::Slice};
constexpr IndexEntry kStart{IndexEntry::Kind::Slice, true, false, false};
constexpr IndexEntry kStartStop{IndexEntry::Kind::Slice, true, true, false};
constexpr IndexEntry kAll3{IndexEntry::Kind::Slice, true, true, true};

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        // SpecifyShape
        {"specify static", [] {
             GraphBuilder b;
             // Built directly: the builder's specifyShape already drops this one.
             Var x = in(b, "x", {1, 7});
             return b.finish({b.apply1(makeSpecifyShape(), {x, intConstant(b, 1), intConstant(b, 7)}) * 2.0});
         }},
        {"specify unknown dim", [] {
             GraphBuilder b;
             return b.finish({specifyShape(in(b, "x", {kUnknownDim, 7}), {4, 7}) * 2.0});
         }},
        {"specify none and a static dim", [] {
             GraphBuilder b;
             Var x = in(b, "x", {kUnknownDim, 7});
             return b.finish({b.apply1(makeSpecifyShape(), {x, noneConst(b), intConstant(b, 7)}) * 2.0});
         }},
        {"specify none and an unknown dim", [] {
             GraphBuilder b;
             return b.finish({specifyShape(in(b, "x", {kUnknownDim, kUnknownDim}), {std::nullopt, 4}) * 2.0});  // random inputs have 4 rows
         }},
        {"specify variable dim", [] {
             GraphBuilder b;
             Var x = in(b, "x", {kUnknownDim, 7});
             return b.finish({specifyShape(x, {shapeI(x, 0), 7}) * 2.0});
         }},
        // Unbroadcast
        {"unbroadcast non-broadcastable", [] {
             GraphBuilder b;
             Var x = in(b, "x", {kUnknownDim, 7});
             return b.finish({b.apply1(makeUnbroadcast({0}), {x})});
         }},
        {"unbroadcast partly useful", [] {
             GraphBuilder b;
             Var x = in(b, "x", {1, 7});
             return b.finish({b.apply1(makeUnbroadcast({0, 1}), {x})});
         }},
        {"unbroadcast useful", [] {
             GraphBuilder b;
             return b.finish({unbroadcast(expandDims(in(b, "x", {7}), 0), {0})});
         }},
        // Subtensor
        {"full slice", [] {
             GraphBuilder b;
             return b.finish({rawSubtensor(in(b, "x", {4}), {kFull}, {}) * 2.0});
         }},
        {"index then full slice", [] {
             GraphBuilder b;
             return b.finish({rawSubtensor(in(b, "x", {3, 4}), {kIndex, kFull}, {1})});
         }},
        {"slice 0:4:1 of 4", [] {
             GraphBuilder b;
             return b.finish({rawSubtensor(in(b, "x", {4}), {kAll3}, {0, 4, 1})});
         }},
        {"slice -1:-5:-1 of 4", [] {
             GraphBuilder b;
             return b.finish({rawSubtensor(in(b, "x", {4}), {kAll3}, {-1, -5, -1})});
         }},
        {"slice 1:", [] {
             GraphBuilder b;
             return b.finish({rawSubtensor(in(b, "x", {4}), {kStart}, {1})});
         }},
        {"slice 0:3 of ?", [] {
             GraphBuilder b;
             return b.finish({rawSubtensor(in(b, "x", {kUnknownDim}), {kStartStop}, {1, 3})});
         }},
        // Elemwise
        {"identity", [] {
             GraphBuilder b;
             return b.finish({identity(in(b, "x", {4})) * 2.0});
         }},
        {"eq of one int", [] {
             GraphBuilder b;
             Var n = in(b, "n", {kUnknownDim, 3}, DType::Int32);
             return b.finish({eq(n, n)});
         }},
        {"eq of one float", [] {
             GraphBuilder b;
             Var x = in(b, "x", {4});
             return b.finish({eq(x, x)});
         }},
        {"or false", [] {
             GraphBuilder b;
             Var p = in(b, "p", {4}, DType::Bool);
             return b.finish({or_(p, b.constant(NDArray::fromVector(DType::Bool, {1}, {0})))});
         }},
        {"and false", [] {
             GraphBuilder b;
             Var p = in(b, "p", {4}, DType::Bool);
             return b.finish({and_(p, b.constant(NDArray::fromVector(DType::Bool, {1}, {0})))});
         }},
        {"and false broadcasting", [] {
             GraphBuilder b;
             Var p = in(b, "p", {1}, DType::Bool);
             return b.finish({and_(p, b.constant(NDArray::fromVector(DType::Bool, {3}, {0, 0, 0})))});
         }},
        {"add of two", [] {
             GraphBuilder b;
             return b.finish({in(b, "x", {4}) + in(b, "y", {4})});
         }},
        // Alloc
        {"alloc of its static shape", [] {
             GraphBuilder b;
             return b.finish({alloc(in(b, "x", {3, 2}), {3, 2}) * 2.0});
         }},
        {"alloc of its own shape", [] {
             GraphBuilder b;
             Var x = in(b, "x", {kUnknownDim});
             return b.finish({alloc(x, {shapeI(x, 0)}) * 2.0});
         }},
        {"alloc of a length read through an elemwise", [] {
             GraphBuilder b;
             Var x = in(b, "x", {kUnknownDim, 2});
             return b.finish({alloc(x, {shapeI(exp(x) * 2.0, 0), 2}) * 2.0});
         }},
        {"alloc of another input's length", [] {
             GraphBuilder b;
             Var x = in(b, "x", {kUnknownDim});
             return b.finish({alloc(x, {shapeI(in(b, "y", {kUnknownDim}), 0)}) * 2.0});
         }},
        {"alloc that may stretch", [] {
             GraphBuilder b;
             return b.finish({alloc(in(b, "x", {kUnknownDim}), {4}) * 2.0});
         }},
        // Assert
        {"assert true and variable", [] {
             GraphBuilder b;
             Var x = in(b, "x", {4});
             Var c = in(b, "c", {}, DType::Bool);
             return b.finish({assertOp(x, {b.constant(1.0, DType::Bool), c}) * 2.0});
         }},
        {"assert true", [] {
             GraphBuilder b;
             return b.finish({assertOp(in(b, "x", {4}), {b.constant(1.0, DType::Bool)}) * 2.0});
         }},
        {"assert variable", [] {
             GraphBuilder b;
             return b.finish({assertOp(in(b, "x", {4}), {in(b, "c", {}, DType::Bool)}) * 2.0});
         }},
        {"alloc adding a dim", [] {
             GraphBuilder b;
             return b.finish({alloc(in(b, "x", {3}), {2, 3}) * 2.0});
         }},
    };
    return m;
}

const NodeRewrite& rewriteNamed(const QString& n) {
    if (n == "local_useless_specify_shape") return localUselessSpecifyShape();
    if (n == "local_useless_unbroadcast") return localUselessUnbroadcast();
    if (n == "local_useless_slice") return localUselessSlice();
    if (n == "local_useless_elemwise") return localUselessElemwise();
    if (n == "local_remove_useless_assert") return localRemoveUselessAssert();
    return localUselessAlloc();
}

} // namespace

class TestUseless : public QObject {
    Q_OBJECT
private slots:
    void rewrites_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<QString>("rewrite");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("after");
        QTest::addColumn<int>("steps");
        const QString ss = "local_useless_specify_shape", ub = "local_useless_unbroadcast", sl = "local_useless_slice",
                      ew = "local_useless_elemwise", al = "local_useless_alloc";
        QTest::newRow("specify: static type") << "specify static" << ss << "SpecifyShape" << 0 << 1;
        QTest::newRow("specify: not an unknown dim") << "specify unknown dim" << ss << "SpecifyShape" << 1 << 0;
        QTest::newRow("specify: not a variable dim") << "specify variable dim" << ss << "SpecifyShape" << 1 << 0;
        QTest::newRow("specify: None and a static dim") << "specify none and a static dim" << ss << "SpecifyShape" << 0 << 1;
        QTest::newRow("specify: not None and an unknown dim") << "specify none and an unknown dim" << ss << "SpecifyShape" << 1 << 0;
        QTest::newRow("unbroadcast: of a ? axis") << "unbroadcast non-broadcastable" << ub << "Unbroadcast" << 0 << 1;
        QTest::newRow("unbroadcast: keeps the useful axis") << "unbroadcast partly useful" << ub << "Unbroadcast" << 1 << 1;
        QTest::newRow("unbroadcast: not of a static 1") << "unbroadcast useful" << ub << "Unbroadcast" << 1 << 0;
        QTest::newRow("slice: x[:]") << "full slice" << sl << "Subtensor" << 0 << 1;
        QTest::newRow("slice: x[1, :] -> x[1]") << "index then full slice" << sl << "Subtensor" << 1 << 1;
        QTest::newRow("slice: x[0:4:1] of 4") << "slice 0:4:1 of 4" << sl << "Subtensor" << 0 << 1;
        QTest::newRow("slice: x[-1:-5:-1] -> x[::-1]") << "slice -1:-5:-1 of 4" << sl << "Subtensor" << 1 << 1;
        QTest::newRow("slice: not x[1:]") << "slice 1:" << sl << "Subtensor" << 1 << 0;
        QTest::newRow("slice: not x[1:3] of ?") << "slice 0:3 of ?" << sl << "Subtensor" << 1 << 0;
        QTest::newRow("elemwise: identity") << "identity" << ew << "Elemwise" << 1 << 1;
        QTest::newRow("elemwise: eq(n, n) of ints") << "eq of one int" << ew << "Elemwise" << 0 << 1;
        QTest::newRow("elemwise: not eq(x, x) of floats") << "eq of one float" << ew << "Elemwise" << 1 << 0;
        QTest::newRow("elemwise: or(p, False)") << "or false" << ew << "Elemwise" << 0 << 1;
        QTest::newRow("elemwise: and(p, False)") << "and false" << ew << "Elemwise" << 0 << 1;
        QTest::newRow("elemwise: not when the constant broadcasts") << "and false broadcasting" << ew << "Elemwise" << 1 << 0;
        QTest::newRow("elemwise: not add(x, y)") << "add of two" << ew << "Elemwise" << 1 << 0;
        QTest::newRow("alloc: of its static shape") << "alloc of its static shape" << al << "Alloc" << 0 << 1;
        QTest::newRow("alloc: of its own Shape_i") << "alloc of its own shape" << al << "Alloc" << 0 << 1;
        QTest::newRow("alloc: of a length read through an Elemwise") << "alloc of a length read through an elemwise" << al << "Alloc" << 0 << 1;
        QTest::newRow("alloc: not of another input's length") << "alloc of another input's length" << al << "Alloc" << 1 << 0;
        QTest::newRow("alloc: not when a ? dim may stretch") << "alloc that may stretch" << al << "Alloc" << 1 << 0;
        QTest::newRow("alloc: not when it adds a dim") << "alloc adding a dim" << al << "Alloc" << 1 << 0;
        const QString as = "local_remove_useless_assert";
        QTest::newRow("assert: drops a true condition") << "assert true and variable" << as << "Assert" << 1 << 1;
        QTest::newRow("assert: all true -> x") << "assert true" << as << "Assert" << 0 << 1;
        QTest::newRow("assert: not a variable condition") << "assert variable" << as << "Assert" << 1 << 0;
    }

    void rewrites() {
        QFETCH(QString, graph);
        QFETCH(QString, rewrite);
        QFETCH(QString, kind);
        QFETCH(int, after);
        QFETCH(int, steps);
        auto g = graphs().at(graph)();
        std::vector<NDArray> inputs = randomInputs(*g, 3);
        for (size_t i = 0; i < g->inputs().size(); ++i)
            if (g->inputs()[i]->type().dtype == DType::Bool && g->inputs()[i]->type().ndim() == 0)
                inputs[i] = NDArray::scalar(DType::Bool, 1);  // Assert conditions hold
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(rewriteNamed(rewrite)), {}, 1, 1e-12, 0.0, &inputs);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, *parseOpKind(kind.toStdString())), after);
        QCOMPARE(out.stepsOf(rewrite.toStdString()), steps);
    }

    // The kept Subtensors have the canonical index lists.
    void sliceCanonicalForms() {
        auto check = [](const QString& graph, const QString& printed) {
            auto g = graphs().at(graph)();
            RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localUselessSlice()));
            QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
            const Node* n = out.after->output(0)->owner();
            QVERIFY(n);
            QCOMPARE(QString::fromStdString(n->op().name()), printed);
        };
        check("index then full slice", "Subtensor{i}");
        check("slice -1:-5:-1 of 4", "Subtensor{::step}");
    }

    void unbroadcastKeepsOnlyUsefulAxes() {
        auto g = graphs().at("unbroadcast partly useful")();
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localUselessUnbroadcast()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(QString::fromStdString(out.after->output(0)->owner()->op().name()), QString("Unbroadcast{0}"));
    }
};

TL_TEST_SUITE(TestUseless)
#include "tst_rw_useless.moc"
