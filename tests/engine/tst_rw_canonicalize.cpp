// The canonicalize phase: local_dimshuffle_lift, local_add_canonizer,
// local_mul_canonizer, local_upcast_elemwise_constant_inputs one by one (firing and
// not firing side by side), then the whole driver on the expressions of the seed and
// the oracle cases, whose PyTensor forms are known (`(-5.0 + exp(i0))`, ...).
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Examples.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "ops/DimShuffle.h"
#include "io/DPrint.h"
#include "ops/Elemwise.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;

Var in(GraphBuilder& b, const char* name, StaticShape s, DType d = DType::Float64) { return b.input(name, d, std::move(s)); }

const std::map<QString, GraphFn>& graphs() {
    static const std::map<QString, GraphFn> m = {
        // DimShuffle
        {"expand of expand", [] {
             GraphBuilder b;
             return b.finish({expandDims(expandDims(in(b, "x", {3}), 0), 0)});
         }},
        {"transpose of transpose", [] {
             GraphBuilder b;
             return b.finish({transpose(transpose(in(b, "m", {2, 3}))) * 2.0});
         }},
        {"transpose of exp", [] {
             GraphBuilder b;
             return b.finish({transpose(exp(in(b, "m", {2, 3})))});
         }},
        {"transpose of a shared exp", [] {
             GraphBuilder b;
             Var e = exp(in(b, "m", {2, 3}));
             return b.finish({transpose(e), e});
         }},
        {"transpose of an input", [] {
             GraphBuilder b;
             return b.finish({transpose(in(b, "m", {2, 3}))});
         }},
        {"swap of length-1 axes", [] {
             GraphBuilder b;
             return b.finish({dimshuffle(in(b, "x", {1, 3}), {-1, 1}) * 2.0});
         }},
        // add family
        {"exp(x) - 5", [] {
             GraphBuilder b;
             return b.finish({exp(in(b, "x", {7})) - 5});
         }},
        {"neg(neg(x))", [] {
             GraphBuilder b;
             return b.finish({-(-exp(in(b, "x", {4})))});
         }},
        {"x - (-y)", [] {
             GraphBuilder b;
             return b.finish({in(b, "x", {4}) - (-in(b, "y", {4}))});
         }},
        {"(x + y) - y", [] {
             GraphBuilder b;
             Var y = in(b, "y", {4});
             return b.finish({(in(b, "x", {4}) + y) - y});
         }},
        {"x + y + z", [] {
             GraphBuilder b;
             return b.finish({in(b, "x", {4}) + in(b, "y", {4}) + in(b, "z", {4})});
         }},
        {"1 + x canonical", [] {
             GraphBuilder b;
             return b.finish({add(b.constant(NDArray::fromVector(DType::Float64, {1}, {1.0})), in(b, "x", {4}))});
         }},
        {"shared sum", [] {
             GraphBuilder b;
             Var s = in(b, "x", {4}) + in(b, "y", {4});
             return b.finish({s + in(b, "z", {4}), exp(s)});
         }},
        {"int8 and float terms", [] {
             GraphBuilder b;
             Var i = in(b, "i", {4}, DType::Int8);
             return b.finish({(i + in(b, "y", {4})) - in(b, "z", {4})});
         }},
        {"cancel would shrink", [] {
             GraphBuilder b;
             Var y = in(b, "y", {4});
             return b.finish({(y - y) + in(b, "x", {1})});
         }},
        {"x + zeros of static length", [] {
             GraphBuilder b;
             Var x = in(b, "x", {kUnknownDim});
             return b.finish({x + b.constant(NDArray::fromVector(DType::Float64, {4}, {0, 0, 0, 0}))});
         }},
        {"x - x", [] {
             GraphBuilder b;
             Var x = in(b, "x", {kUnknownDim});
             return b.finish({x - x});
         }},
        {"x - x beside a longer y", [] {
             GraphBuilder b;
             Var x = in(b, "x", {1}), y = in(b, "y", {kUnknownDim});
             return b.finish({(x - x) + (y - y)});
         }},
        {"row - row of a column", [] {
             GraphBuilder b;
             Var r = in(b, "r", {1, 3}), c = in(b, "c", {2, 1});
             return b.finish({(r + c) - c - r});
         }},
        // mul family
        {"b * b * 0.25", [] {
             GraphBuilder b;
             Var x = in(b, "b", {2});
             return b.finish({x * x * 0.25});
         }},
        {"x / 2 / 3", [] {
             GraphBuilder b;
             return b.finish({in(b, "x", {4}) / 2 / 3});
         }},
        {"x * y / y", [] {
             GraphBuilder b;
             Var y = in(b, "y", {4});
             return b.finish({in(b, "x", {4}) * y / y});
         }},
        {"x * y", [] {
             GraphBuilder b;
             return b.finish({in(b, "x", {4}) * in(b, "y", {4})});
         }},
        {"x / x", [] {
             GraphBuilder b;
             Var x = in(b, "x", {4});
             return b.finish({x / x});
         }},
        // 1/x: the product family has no reciprocal op, so this is already its spelling.
        {"neg(exp(x))", [] {
             GraphBuilder b;
             return b.finish({-exp(in(b, "x", {4}))});
         }},
        {"neg of uint8", [] {
             GraphBuilder b;
             return b.finish({-in(b, "n", {4}, DType::UInt8)});
         }},
        // what pytensor.grad writes for log(1 - sigmoid(x)): -(fill / (1 - s)) * s * (1.0 - s),
        // the first 1 an int8 (the user's), the second a float64 (sigmoid's gradient)
        {"grad of log(1 - sigmoid(x))", [] {
             GraphBuilder b;
             Var s = sigmoid(in(b, "x", {3}));
             Var oneMinus = b.constant(1.0, DType::Int8) - s;
             Var ones = b.constant(NDArray::fromVector(DType::Float64, {3}, {1, 1, 1}));
             return b.finish({(-(ones / oneMinus) * s) * (1.0 - s)});
         }},
        {"1 / x", [] {
             GraphBuilder b;
             return b.finish({1.0 / in(b, "x", {4})});
         }},
        {"int8 1 / x", [] {
             GraphBuilder b;
             return b.finish({trueDiv(b.constant(NDArray::fromVector(DType::Int8, {1}, {1})), in(b, "x", {4}))});
         }},
        // upcast
        {"x + int8 constant", [] {
             GraphBuilder b;
             return b.finish({add(in(b, "x", {4}), b.constant(NDArray::fromVector(DType::Int8, {1}, {3})))});
         }},
        {"x < int8 constant", [] {
             GraphBuilder b;
             return b.finish({lt(in(b, "x", {4}), b.constant(NDArray::fromVector(DType::Int8, {1}, {0})))});
         }},
        {"int8 constant - x", [] {
             GraphBuilder b;
             return b.finish({sub(b.constant(NDArray::fromVector(DType::Int8, {1}, {1})), in(b, "x", {4}))});
         }},
        {"x clipped by int8 constants", [] {
             GraphBuilder b;
             return b.finish({clip(in(b, "x", {4}), b.constant(NDArray::fromVector(DType::Int8, {1}, {0})),
                                   b.constant(NDArray::fromVector(DType::Int8, {1}, {1})))});
         }},
        {"maximum of x and an int8 constant", [] {
             GraphBuilder b;
             return b.finish({maximum(in(b, "x", {4}), b.constant(NDArray::fromVector(DType::Int8, {1}, {0})))});
         }},
        {"polygamma of an int8 order", [] {
             GraphBuilder b;
             return b.finish({polygamma(b.constant(NDArray::fromVector(DType::Int8, {1}, {1})), in(b, "x", {4}))});
         }},
        // the oracle's step functions
        {"a * 2 + 1", [] {
             GraphBuilder b;
             return b.finish({in(b, "a", {4}) * 2 + 1});
         }},
        {"a * 0.5 + 1", [] {
             GraphBuilder b;
             return b.finish({in(b, "a", {3}) * 0.5 + 1});
         }},
        {"h * 0.5 + exp(x) * 2", [] {
             GraphBuilder b;
             return b.finish({in(b, "h", {3}) * 0.5 + exp(in(b, "x", {3})) * 2});
         }},
    };
    return m;
}

const NodeRewrite& rewriteNamed(const QString& n) {
    if (n == "local_dimshuffle_lift") return localDimshuffleLift();
    if (n == "local_add_canonizer") return localAddCanonizer();
    if (n == "local_mul_canonizer") return localMulCanonizer();
    if (n == "local_neg_to_mul") return localNegToMul();
    return localUpcastElemwiseConstantInputs();
}

/// A small graph as text, constants by value: "add(-5.0, exp(x))". Tests only (tiny graphs).
std::string expr(const Variable* v) {
    if (v->isConstant()) {
        const NDArray& a = v->constantValue();
        std::string s = formatScalarLiteral(NDArray::scalar(a.dtype(), a.size() ? a.flatGet(0) : 0.0));
        return a.ndim() ? "[" + s + "]" : s;
    }
    if (!v->owner()) return v->name();
    const Node* n = v->owner();
    std::string head;
    if (n->op().kind() == OpKind::Elemwise) head = std::string(scalarOpInfo(static_cast<const Elemwise&>(n->op()).scalarOp()).key);
    else if (n->op().kind() == OpKind::DimShuffle) head = "ds";
    else head = n->op().name();
    std::string s = head + "(";
    for (int i = 0; i < n->numInputs(); ++i) s += (i ? ", " : "") + expr(n->input(i));
    return s + ")";
}

// As in Pipeline::fastRun(): the driver again while the merge makes nodes one.
Pipeline canonicalizePhase() {
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(makeCanonicalizeDriver());
    passes.push_back(makeMergePass());
    Pipeline p;
    p.addPhase("canonicalize", std::move(passes), 1);
    return p;
}

} // namespace

class TestCanonicalize : public QObject {
    Q_OBJECT
private slots:
    void rewrites_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<QString>("rewrite");
        QTest::addColumn<QString>("expected");  // the output as expr(), or "" for "unchanged"
        const QString ds = "local_dimshuffle_lift", add = "local_add_canonizer", mul = "local_mul_canonizer",
                      up = "local_upcast_elemwise_constant_inputs";
        QTest::newRow("lift: expand of expand composes") << "expand of expand" << ds << "ds(x)";
        QTest::newRow("lift: transpose of transpose is x") << "transpose of transpose" << ds << "mul(m, ds(2.0))";
        QTest::newRow("lift: through an exp with one client") << "transpose of exp" << ds << "exp(ds(m))";
        QTest::newRow("lift: not through a shared exp") << "transpose of a shared exp" << ds << "";
        QTest::newRow("lift: not a transpose of an input") << "transpose of an input" << ds << "";
        QTest::newRow("lift: moving length-1 axes is useless") << "swap of length-1 axes" << ds << "mul(x, ds(2.0))";
        QTest::newRow("add: exp(x) - 5") << "exp(x) - 5" << add << "add(ds(-5.0), exp(x))";
        QTest::newRow("add: neg(neg(x))") << "neg(neg(x))" << add << "exp(x)";
        QTest::newRow("add: x - (-y)") << "x - (-y)" << add << "add(x, y)";
        QTest::newRow("add: (x + y) - y") << "(x + y) - y" << add << "x";
        QTest::newRow("add: x + y + z flattens") << "x + y + z" << add << "add(x, y, z)";
        QTest::newRow("add: not 1 + x") << "1 + x canonical" << add << "";
        QTest::newRow("add: not a shared subtree") << "shared sum" << add << "";
        QTest::newRow("add: not int8 with float terms") << "int8 and float terms" << add << "";
        // A result that lost the output's shape is broadcast back to a term's (PyTensor's
        // broadcast_arrays against the root's inputs): static dims as constants, others
        // as Shape_i of the term.
        QTest::newRow("add: a cancel that shrinks is broadcast back") << "cancel would shrink" << add << "Alloc(x, 4)";
        // A result with the output's broadcastable pattern that knows less of its static
        // shape is x itself, through SpecifyShape (PyTensor's replace converts it).
        QTest::newRow("add: x + zeros(4) is x, specified") << "x + zeros of static length" << add << "SpecifyShape(x, 4)";
        QTest::newRow("add: x - x is zeros of x's shape") << "x - x" << add << "Alloc(0.0, Shape_i{0}(x))";
        QTest::newRow("add: zeros of the longer term's shape") << "x - x beside a longer y" << add << "Alloc(0.0, Shape_i{0}(y))";
        QTest::newRow("add: not when no term has the output's shape") << "row - row of a column" << add << "";
        QTest::newRow("mul: x / x is ones") << "x / x" << mul << "Alloc(1.0, 4)";
        QTest::newRow("mul: b * b * 0.25") << "b * b * 0.25" << mul << "mul(ds(0.25), b, b)";
        QTest::newRow("mul: x / 2 / 3") << "x / 2 / 3" << mul << "mul(ds(0.16666666666666666), x)";
        QTest::newRow("mul: x * y / y") << "x * y / y" << mul << "x";
        QTest::newRow("mul: not x * y") << "x * y" << mul << "";
        QTest::newRow("mul: not 1 / x (the reciprocal's spelling)") << "1 / x" << mul << "";
        QTest::newRow("mul: not an int8 1 over x") << "int8 1 / x" << mul << "";
        QTest::newRow("upcast: x + int8 constant") << "x + int8 constant" << up << "add(x, [3.0])";
        QTest::newRow("upcast: maximum (upcast_out)") << "maximum of x and an int8 constant" << up << "maximum(x, [0.0])";
        QTest::newRow("upcast: not sub (upcast_out_nobool)") << "int8 constant - x" << up << "";
        QTest::newRow("upcast: not clip (upcast_out_no_complex)") << "x clipped by int8 constants" << up << "";
        QTest::newRow("upcast: not a comparison") << "x < int8 constant" << up << "";
        QTest::newRow("neg_to_mul: neg(exp(x))") << "neg(exp(x))" << "local_neg_to_mul" << "mul(ds(-1.0), exp(x))";
        QTest::newRow("neg_to_mul: not an unsigned neg") << "neg of uint8" << "local_neg_to_mul" << "";
        QTest::newRow("upcast: not polygamma's integer order") << "polygamma of an int8 order" << up << "";
    }

    void rewrites() {
        QFETCH(QString, graph);
        QFETCH(QString, rewrite);
        QFETCH(QString, expected);
        auto g = graphs().at(graph)();
        const std::string before = expr(g->output(0));
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(rewriteNamed(rewrite)));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        const std::string after = expr(out.after->output(0));
        if (expected.isEmpty()) {
            QCOMPARE(out.stepsOf(rewrite.toStdString()), 0);
            QCOMPARE(QString::fromStdString(after), QString::fromStdString(before));
        } else {
            QVERIFY(out.stepsOf(rewrite.toStdString()) > 0);
            QCOMPARE(QString::fromStdString(after), expected);
        }
    }

    // The whole phase: constants first, upcast to float64, ExpandDims folded into
    // constants of the right rank, as PyTensor's canonicalize leaves them.
    void phase_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<QString>("expected");
        QTest::newRow("seed step") << "exp(x) - 5" << "add([-5.0], exp(x))";
        QTest::newRow("dup_affine step") << "a * 2 + 1" << "add([1.0], mul([2.0], a))";
        QTest::newRow("savemem step") << "a * 0.5 + 1" << "add([1.0], mul([0.5], a))";
        QTest::newRow("merge_same_nsteps step") << "b * b * 0.25" << "mul([0.25], b, b)";
        QTest::newRow("pushout_seq step") << "h * 0.5 + exp(x) * 2" << "add(mul([0.5], h), mul([2.0], exp(x)))";
        QTest::newRow("neg of neg") << "neg(neg(x))" << "exp(x)";
        QTest::newRow("1 / x ends") << "1 / x" << "true_div([1.0], x)";
        // 1 - s is rebuilt with a float64 1, merges with 1.0 - s, and the product cancels it:
        // finite where s rounds to 1 (PyTensor's compiled gradient is -sigmoid(x)).
        QTest::newRow("grad of log(1 - sigmoid(x))") << "grad of log(1 - sigmoid(x))" << "mul([-1.0], sigmoid(x))";
    }

    void phase() {
        QFETCH(QString, graph);
        QFETCH(QString, expected);
        auto g = graphs().at(graph)();
        RewriteOutcome out = rewriteAndCompare(*g, canonicalizePhase());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(QString::fromStdString(expr(out.after->output(0))), expected);
        for (const Variable* c : out.after->constants())
            QCOMPARE(QString(dtypeName(c->type().dtype).data()), QString("float64"));
    }

    // A second run of the phase changes nothing (no rewrite undoes another).
    void phaseIsAFixpoint() {
        for (const auto& [name, fn] : graphs()) {
            auto g = fn();
            RewriteOutcome first = rewriteAndCompare(*g, canonicalizePhase());
            QVERIFY2(first.mismatch.empty(), (name.toStdString() + ": " + first.mismatch).c_str());
            RewriteOutcome second = rewriteAndCompare(*first.after, canonicalizePhase());
            QVERIFY2(second.trace.steps().empty(), name.toStdString().c_str());
        }
    }

    // Through the whole FAST_RUN pipeline, the fused steps print as PyTensor 2.34's do
    // (the oracle's dprint_fast_run): constants first, float64, inlined.
    void oracleCompositeNames_data() {
        QTest::addColumn<QString>("example");
        QTest::addColumn<QString>("composite");
        QTest::newRow("seed_dup") << "seed_dup" << "Composite{(-5.0 + exp(i0))}";
        QTest::newRow("dup_diff_update") << "dup_diff_update" << "Composite{(1.0 + (3.0 * i0))}";
        QTest::newRow("merge_same_nsteps") << "merge_same_nsteps" << "Composite{(-1.0 + (0.25 * i0 * i0))}";
        QTest::newRow("misc_map_elemwise") << "misc_map_elemwise" << "Composite{(1.0 + (i0 * i1))}";
        QTest::newRow("savemem_sitsot_last") << "savemem_sitsot_last" << "Composite{(1.0 + (0.5 * i0))}";
    }

    void oracleCompositeNames() {
        QFETCH(QString, example);
        QFETCH(QString, composite);
        auto g = buildExample(example.toStdString());
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 1, 1e-12, 1e-300);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        const std::string text = dprint(*out.after);
        QVERIFY2(text.find(composite.toStdString()) != std::string::npos, text.c_str());
    }

    // A long chain of adds flattens in one step (the root waits for nothing, the
    // others wait for their client): linear, no recursion.
    void longChainFlattensOnce() {
        GraphBuilder b;
        Var x = in(b, "x", {3});
        Var acc = x;
        for (int i = 0; i < 3000; ++i) acc = acc + x * static_cast<double>(i % 7);
        auto g = b.finish({acc});
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localAddCanonizer()), {}, 1, 1e-9);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_add_canonizer"), 1);
        const Node* root = out.after->output(0)->owner();
        QCOMPARE(root->numInputs(), 3001);
    }
};

TL_TEST_SUITE(TestCanonicalize)
#include "tst_rw_canonicalize.moc"
