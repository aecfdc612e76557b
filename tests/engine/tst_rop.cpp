// Forward-mode derivatives: the rop() driver and Scan's R_op, checked against
// central finite differences of the same graph, plus the layout PyTensor's
// Scan.R_op builds and the driver's errors.
#include "TestSuites.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Rop.h"
#include "builder/Scan.h"
#include "exec/Executor.h"
#include "ops/ScanOp.h"

#include "TestSupport.h"

#include <QtTest>

#include <functional>
#include <map>
#include <random>

using namespace tl;

namespace {

struct Problem {
    std::vector<Var> inputs;   // every graph input, wrt first (nWrt of them)
    size_t nWrt = 0;
    std::vector<Var> outputs;  // differentiated
};

NDArray randomArray(const Type& t, std::mt19937_64& rng, double lo = -0.8, double hi = 0.8) {
    std::uniform_real_distribution<double> u(lo, hi);
    Shape s(t.shape.begin(), t.shape.end());
    NDArray a = NDArray::empty(t.dtype, s);
    for (int64_t i = 0; i < a.size(); ++i) a.data<double>()[i] = u(rng);
    return a;
}

NDArray axpy(const NDArray& x, double h, const NDArray& v) {
    NDArray r = x.copy();
    for (int64_t i = 0; i < r.size(); ++i) r.data<double>()[i] += h * v.flatGet(i);
    return r;
}

// Builds the problem in `b`, then checks rop(outputs, wrt, tangents) against
// (f(x + h t) - f(x - h t)) / 2h on seeded values.
void checkAgainstFiniteDifferences(const std::function<Problem(GraphBuilder&)>& build, uint64_t seed = 7) {
    GraphBuilder b;
    Problem p = build(b);
    std::vector<Var> wrt(p.inputs.begin(), p.inputs.begin() + p.nWrt), tangents;
    for (size_t i = 0; i < p.nWrt; ++i) tangents.push_back(b.input("t" + std::to_string(i), wrt[i].dtype(), wrt[i].type().shape));
    std::vector<Var> ts = rop(p.outputs, wrt, tangents);
    std::vector<Var> outs = p.outputs;
    outs.insert(outs.end(), ts.begin(), ts.end());
    auto g = b.finish(outs);

    std::mt19937_64 rng(seed);
    std::vector<NDArray> x, t;
    for (const Var& v : p.inputs) x.push_back(randomArray(v.type(), rng));
    for (size_t i = 0; i < p.nWrt; ++i) t.push_back(randomArray(wrt[i].type(), rng, -1, 1));
    auto eval = [&](double h) {
        std::map<const Variable*, NDArray> value;
        for (size_t i = 0; i < x.size(); ++i) value[p.inputs[i].get()] = i < p.nWrt ? axpy(x[i], h, t[i]) : x[i];
        for (size_t i = 0; i < t.size(); ++i) value[tangents[i].get()] = t[i];
        std::vector<NDArray> ins;
        for (const Variable* v : g->inputs()) ins.push_back(value.at(v));
        return runGraph(*g, ins).outputs;
    };
    const double h = 1e-6;
    auto center = eval(0), plus = eval(h), minus = eval(-h);
    const size_t n = p.outputs.size();
    for (size_t k = 0; k < n; ++k) {
        const NDArray& tangent = center[n + k];
        QCOMPARE(tangent.shape(), center[k].shape());
        std::vector<double> fd;
        for (int64_t i = 0; i < tangent.size(); ++i) fd.push_back((plus[k].flatGet(i) - minus[k].flatGet(i)) / (2 * h));
        const NDArray want = NDArray::fromVector(DType::Float64, tangent.shape(), fd);
        TL_COMPARE_ARRAYS(tangent, want, 1e-6, 1e-8);
    }
}

const ScanOp& scanOf(const Var& v) {
    Node* n = v->owner();
    while (n && n->op().kind() != OpKind::Scan) n = n->input(0)->owner();
    if (!n) throw std::logic_error("no Scan above this variable");
    return static_cast<const ScanOp&>(n->op());
}

} // namespace

class TestRop : public QObject {
    Q_OBJECT
private slots:
    void elementwiseGraph() {
        checkAgainstFiniteDifferences([](GraphBuilder& b) {
            Var x = b.input("x", DType::Float64, {5});
            Var y = b.input("y", DType::Float64, {5});
            return Problem{{x, y}, 2, {exp(x) * y - sin(x * y), index(x, -1) * 3}};
        });
    }

    // sit_sot with a non_sequence: x' = sin(x) * 0.9 + w * x, both x0 and w differentiated.
    void sitSotWithNonSequence() {
        checkAgainstFiniteDifferences([](GraphBuilder& b) {
            Var x0 = b.input("x0", DType::Float64, {4});
            Var w = b.input("w", DType::Float64, {4});
            auto r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{sin(a[0]) * 0.9 + a[1] * a[0]}}; },
                          ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nonSequences = {w}, .nSteps = 6});
            return Problem{{x0, w}, 2, {r.outputs[0], index(r.outputs[0], -1)}};
        });
    }

    // mit_sot [-2, -1]: x_t = 0.5 x_{t-1} + sin(x_{t-2}).
    void mitSot() {
        checkAgainstFiniteDifferences([](GraphBuilder& b) {
            Var x0 = b.input("x0", DType::Float64, {2, 3});
            auto r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[1] * 0.5 + sin(a[0])}}; },
                          ScanArgs{.outputsInfo = {OutputInfo(x0, {-2, -1})}, .nSteps = 7});
            return Problem{{x0}, 1, {r.outputs[0]}};
        });
    }

    // A sequence, a state and a captured variable: h' = tanh(h * w + x_t); y_t = h' * x_t (nit_sot).
    void sequencesAndNitSot() {
        checkAgainstFiniteDifferences([](GraphBuilder& b) {
            Var xs = b.input("xs", DType::Float64, {5, 3});
            Var h0 = b.input("h0", DType::Float64, {3});
            Var w = b.input("w", DType::Float64, {3});
            auto r = scan(b,
                          [&](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                              Var h = tanh(a[1] * w + a[0]);
                              return {{h, h * a[0]}};
                          },
                          ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo(h0), OutputInfo::none()}});
            return Problem{{xs, h0, w}, 3, r.outputs};
        });
    }

    // Only some inputs differentiated: the others get zero tangents (PyTensor's zeros_like).
    void partialWrt() {
        checkAgainstFiniteDifferences([](GraphBuilder& b) {
            Var xs = b.input("xs", DType::Float64, {4, 2});
            Var h0 = b.input("h0", DType::Float64, {2});
            auto r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[1] * a[0] + cos(a[1])}}; },
                          ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo(h0)}});
            return Problem{{h0, xs}, 1, {r.outputs[0]}};
        });
    }

    // A loop in a loop: s_t = sum_k sin(x_t * k), differentiated through both Scan R_ops.
    void nestedScan() {
        checkAgainstFiniteDifferences([](GraphBuilder& b) {
            Var xs = b.input("xs", DType::Float64, {3});
            auto r = scan(b,
                          [](GraphBuilder& step, const std::vector<Var>& a) -> StepResult {
                              Var x = a[0];
                              auto in = scan(step,
                                             [&](GraphBuilder&, const std::vector<Var>& c) -> StepResult {
                                                 return {{c[1] + sin(x * c[0])}};
                                             },
                                             ScanArgs{.sequences = {step.constant(NDArray::fromVector(DType::Float64, {3}, {1, 2, 3}))},
                                                      .outputsInfo = {OutputInfo(step.constant(0.0))}});
                              return {{index(in.outputs[0], -1)}};
                          },
                          ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo::none()}});
            return Problem{{xs}, 1, {r.outputs[0]}};
        });
    }

    // A while loop keeps its condition; small perturbations do not change the step count.
    void whileLoop() {
        checkAgainstFiniteDifferences([](GraphBuilder& b) {
            Var x0 = b.input("x0", DType::Float64, {});
            auto r = scan(b,
                          [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                              Var next = a[0] * 1.7 + 0.3;
                              return {.outputs = {next}, .until = gt(next, 5.0)};
                          },
                          ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nSteps = 50});
            if (!scanOf(r.outputs[0]).info().asWhile) throw std::logic_error("not a while loop");
            return Problem{{x0}, 1, {r.outputs[0]}};
        });
    }

    // The loop PyTensor's Scan.R_op builds for the seed: rop_of_scan_fn with the primal
    // sit_sot then its tangent; the tangent buffer SetSubtensor{:stop}(Alloc(0.0, 11, 7), ...).
    void seedRopLayout() {
        GraphBuilder b;
        Var x = b.input("x_init", DType::Float64, {7});
        Var t = b.input("x_init_tangent", DType::Float64, {7});
        auto r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{exp(a[0]) - 5}}; },
                      ScanArgs{.outputsInfo = {OutputInfo(x)}, .nSteps = 10});
        Var out = index(r.outputs[0], -1);
        Var dout = rop(out, x, t);
        const ScanOp& op = scanOf(dout);
        QCOMPARE(op.scanName(), std::string("rop_of_scan_fn"));
        QCOMPARE(op.name(), std::string("Scan{rop_of_scan_fn, while_loop=False, inplace=none}"));
        QCOMPARE(op.info().nSitSot, 2);
        Node* ropNode = dout->owner()->input(0)->owner()->input(0)->owner();
        QCOMPARE(ropNode->op().kind(), OpKind::Scan);
        QCOMPARE(dout->owner()->input(0)->owner()->input(0)->outputIndex(), 1);  // the tangent trace
        QCOMPARE(ropNode->input(1), r.node->input(1));                            // the primal buffer again
        Node* tangentBuf = ropNode->input(2)->owner();
        QCOMPARE(tangentBuf->op().name(), std::string("SetSubtensor{:stop}"));
        Node* alloc = tangentBuf->input(0)->owner();
        QCOMPARE(alloc->op().name(), std::string("Alloc"));
        QCOMPARE(alloc->input(0)->constantValue().item(), 0.0);
        QCOMPARE(alloc->input(1)->constantValue().itemInt(), int64_t(11));
        QCOMPARE(tangentBuf->input(1)->owner()->input(0), t.get());
        // The inner graph: [x, dx] -> [exp(x) - 5, tangent].
        QCOMPARE(op.inner()->inputs().size(), size_t(2));
        QCOMPARE(op.inner()->outputs().size(), size_t(2));
    }

    // Sequences and non_sequences are doubled too (primal block, then tangent block).
    void ropLayoutDoublesEveryCategory() {
        GraphBuilder b;
        Var xs = b.input("xs", DType::Float64, {4, 2});
        Var h0 = b.input("h0", DType::Float64, {2});
        Var w = b.input("w", DType::Float64, {2});
        auto r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[1] * a[2] + a[0], a[0] * 2}}; },
                      ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo(h0), OutputInfo::none()}, .nonSequences = {w}});
        auto ts = rop(r.outputs, {h0}, {b.input("dh0", DType::Float64, {2})});
        const ScanOp& op = scanOf(ts[0]);
        QCOMPARE(op.info().nSeqs, 2);
        QCOMPARE(op.info().nSitSot, 2);
        QCOMPARE(op.info().nNitSot, 2);
        QCOMPARE(op.info().nNonSeqs, 2);
        QCOMPARE(op.inner()->inputs().size(), size_t(6));
        QCOMPARE(op.inner()->outputs().size(), size_t(4));
    }

    // Untraced states carry no tangent (PyTensor's R_op leaves shared variables out).
    void untracedStatesHaveNoTangent() {
        GraphBuilder b;
        Var x0 = b.input("x0", DType::Float64, {2});
        Var u0 = b.input("u0", DType::Float64, {2});
        auto r = scan(b,
                      [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                          return {.outputs = {a[0] * 2 + a[1]}, .updates = {a[1] * 0.5}};
                      },
                      ScanArgs{.outputsInfo = {OutputInfo(x0)}, .untraced = {UntracedState{u0}}, .nSteps = 3});
        Var dx = rop(r.outputs[0], x0, b.input("dx0", DType::Float64, {2}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rop(r.updates[0], u0, b.input("du0", DType::Float64, {2})));
        auto g = b.finish({dx});
        // inputs: x0, u0, dx0, du0
        auto out = runGraph(*g, std::vector<NDArray>{NDArray::zeros(DType::Float64, {2}), NDArray::zeros(DType::Float64, {2}),
                                                     NDArray::fromVector(DType::Float64, {2}, {1, -1}),
                                                     NDArray::zeros(DType::Float64, {2})})
                       .outputs;
        TL_COMPARE_ARRAYS(out[0], NDArray::fromVector(DType::Float64, {3, 2}, {2, -2, 4, -4, 8, -8}), 0, 0);
    }

    void driverErrors() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {3});
        Var y = b.input("y", DType::Float64, {3});
        Var m = b.input("m", DType::Float64, {3, 3});
        Var f = exp(x);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rop(f, x, m));              // ranks differ
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rop(exp(y), x, y));         // disconnected
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rop(std::vector<Var>{f}, {x, y}, {x}));
        // An output that is a wrt variable gets its eval point.
        QCOMPARE(rop(x, x, y).get(), y.get());
    }
};

TL_TEST_SUITE(TestRop)
#include "tst_rop.moc"
