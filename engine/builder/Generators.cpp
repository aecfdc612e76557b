#include "builder/Generators.h"

#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Scan.h"

#include <functional>
#include <random>

namespace tl {

namespace {
// One step of the chains: cycles through a few cheap unary and binary ops.
Var chainStep(const Var& v, const Var& x, int i, int reuseEvery) {
    switch (i % 4) {
    case 0: return (i % reuseEvery == reuseEvery - 1) ? v * x : v * 0.5;
    case 1: return tanh(v);
    case 2: return (i % reuseEvery == reuseEvery - 1) ? v + x : v + 1.0;
    default: return exp(v * -1.0) - 0.25;
    }
}
} // namespace

std::unique_ptr<Graph> generateElemwiseChain(int nodes, int reuseEvery, int64_t length) {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {length});
    Var v = x;
    int i = 0;
    while (static_cast<int>(b.graph().numNodes()) < nodes) v = chainStep(v, x, i++, reuseEvery);
    return b.finish({v});
}

namespace {
// `scans` independent sit_sot loops over (x0_s, a_s), each stepping x' = step(x, a_s)
// (named body<s> when `named`, else the default scan_fn), their last values summed.
std::unique_ptr<Graph> summedLoops(int scans, int nSteps, int64_t length, bool named,
                                   const std::function<Var(const Var& x, const Var& a)>& step) {
    GraphBuilder b;
    std::vector<Var> lasts;
    for (int s = 0; s < scans; ++s) {
        Var x0 = b.input("x0_" + std::to_string(s), DType::Float64, {length});
        Var a = b.input("a_" + std::to_string(s), DType::Float64, {length});
        ScanArgs loop{.outputsInfo = {OutputInfo(x0)}, .nSteps = nSteps};
        if (named) loop.name = "body" + std::to_string(s);
        ScanResult r = scan(b, [&](GraphBuilder&, const std::vector<Var>& args) -> StepResult { return {{step(args[0], a)}}; },
                            loop);
        lasts.push_back(index(r.outputs[0], -1));
    }
    Var total = lasts.size() == 1 ? lasts[0] : add(lasts);
    return b.finish({total});
}
} // namespace

std::unique_ptr<Graph> generateIndependentScans(int scans, int nSteps, int64_t length) {
    return summedLoops(scans, nSteps, length, false, [](const Var& x, const Var& a) { return tanh(x) * a + 0.5; });
}

std::unique_ptr<Graph> generateScansWithBodies(int scans, int bodyOps, int nSteps, int64_t length) {
    return summedLoops(scans, nSteps, length, true, [bodyOps](const Var& x, const Var& a) {
        Var v = x;
        for (int i = 0; i < bodyOps; ++i) v = chainStep(v, a, i, 8);
        return v;
    });
}

size_t countNodesWithInnerGraphs(const Graph& g) {
    size_t n = 0;
    for (const Node* node : g.nodes()) {
        ++n;
        if (auto inner = node->op().innerGraph()) n += countNodesWithInnerGraphs(*inner);
    }
    return n;
}

std::unique_ptr<Graph> generateDuplicatedSubexpressions(int nodes, int64_t length) {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {length});
    Var y = b.input("y", DType::Float64, {length});
    std::vector<Var> outs;
    Var u = x, w = y;
    int i = 0;
    while (static_cast<int>(b.graph().numNodes()) < nodes) {
        // The same expression built twice from the same operands: CSE halves it.
        Var p = exp(u) * w + 1.0;
        Var q = exp(u) * w + 1.0;
        u = tanh(p - q + u);
        w = w * 0.5 + u;
        if (++i % 64 == 0) outs.push_back(u);
    }
    outs.push_back(u + w);
    return b.finish(outs);
}

std::unique_ptr<Graph> generateMixed(int nodes, uint64_t seed) {
    std::mt19937_64 rng(seed);
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {32});
    std::vector<Var> outs;
    Var v = x;
    int part = 0;
    while (static_cast<int>(b.graph().numNodes()) < nodes) {
        const int kind = static_cast<int>(rng() % 3);
        if (kind == 0) {
            for (int i = 0; i < 40; ++i) v = chainStep(v, x, i, 8);
        } else if (kind == 1) {
            Var p = exp(v) * x + 1.0, q = exp(v) * x + 1.0;
            v = tanh(p + q);
        } else {
            Var init = v;
            ScanResult r = scan(b, [&](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                return {{tanh(a[0]) * 0.9 + 0.1, exp(a[1]) - 1.0}};
            }, ScanArgs{.outputsInfo = {OutputInfo(init), OutputInfo(init)}, .nSteps = 5 + static_cast<int>(rng() % 3),
                        .name = "loop" + std::to_string(part)});
            v = index(r.outputs[0], -1) + index(r.outputs[1], -1);
        }
        if (++part % 10 == 0) outs.push_back(v);
    }
    outs.push_back(v);
    return b.finish(outs);
}

} // namespace tl
