#pragma once
// Helpers of the shape/indexing op suites (tst_subtensor, tst_shape_ops,
// tst_alloc_reduce): running one op's kernel, running a built graph, and checking
// a forward derivative against central finite differences.
#include "builder/rop/OpRop.h"
#include "ops/OpFactory.h"
#include "builder/GraphBuilder.h"
#include "exec/ExecContext.h"
#include "exec/Executor.h"
#include "ir/Op.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <cmath>
#include <functional>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

namespace tl::test {

/// The message of the exception f() throws, or "" when it returns normally.
template <typename F> std::string errorMessage(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

/// errorMessage as a QString, for QCOMPARE and contains().
template <typename F> QString errorOf(F&& f) { return QString::fromStdString(errorMessage(std::forward<F>(f))); }

/// 0, 1, 2, ... in C order, converted to dtype (bool: i % 2).
inline NDArray iota(DType dtype, const Shape& shape, double start = 0) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    std::vector<double> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) v[i] = dtype == DType::Bool ? double(i % 2) : start + double(i);
    return NDArray::fromVector(dtype, shape, v);
}

inline NDArray int64s(const std::vector<int64_t>& v) {
    NDArray a = NDArray::empty(DType::Int64, {static_cast<int64_t>(v.size())});
    for (size_t i = 0; i < v.size(); ++i) a.data<int64_t>()[i] = v[i];
    return a;
}

inline NDArray i64(int64_t v) {
    NDArray a = NDArray::empty(DType::Int64, {});
    a.data<int64_t>()[0] = v;
    return a;
}

/// Runs one kernel directly (no graph): the views it returns keep sharing storage.
inline std::vector<NDArray> perform(const Op& op, std::vector<NDArray> inputs, int numOutputs = 1) {
    ExecContext ctx;
    std::vector<NDArray> out(numOutputs);
    op.perform(inputs, out);
    return out;
}

/// Runs a whole graph with the executor.
inline std::vector<NDArray> run(const Graph& g, std::vector<NDArray> inputs) {
    ExecContext ctx;
    CompiledGraph cg(g);
    return cg.run(ctx, inputs);
}

/// The op rebuilt from its JSON params equals the original and prints the same name.
inline void checkJsonRoundTrip(const OpPtr& op) {
    const nlohmann::json p = op->params();
    OpPtr back = makeOp(op->kind(), nlohmann::json::parse(p.dump()), nullptr);
    QVERIFY2(back->equals(*op), (op->name() + " params " + p.dump()).c_str());
    QCOMPARE(QString::fromStdString(back->name()), QString::fromStdString(op->name()));
    QCOMPARE(back->hash(), op->hash());
}

/// Forward mode over the graph built so far: applies every node's rop in toposort
/// order, starting from `seeds` (input -> tangent). Returns the tangent of `out`.
inline Variable* forwardTangent(GraphBuilder& b, const std::unordered_map<const Variable*, Variable*>& seeds, Var out) {
    std::unordered_map<const Variable*, Variable*> tan = seeds;
    for (Node* n : b.graph().toposort()) {
        std::vector<Variable*> ins;
        bool any = false;
        for (Variable* v : n->inputs()) {
            auto it = tan.find(v);
            ins.push_back(it == tan.end() ? nullptr : it->second);
            any = any || ins.back();
        }
        if (!any) continue;
        auto outs = ropOfNode(b, *n, ins);
        for (int i = 0; i < n->numOutputs(); ++i)
            if (outs[i]) tan[n->output(i)] = outs[i];
        if (n->output(0) == out.get()) break;
    }
    auto it = tan.find(out.get());
    return it == tan.end() ? nullptr : it->second;
}

/// Builds f on float64 inputs of the given shapes, its forward derivative along random
/// tangents, and compares it with (f(x + h t) - f(x - h t)) / 2h.
inline void checkRopByFiniteDifferences(const std::vector<StaticShape>& shapes,
                                        const std::function<Var(GraphBuilder&, const std::vector<Var>&)>& f,
                                        double tol = 1e-6) {
    GraphBuilder b;
    std::vector<Var> xs, ts;
    std::unordered_map<const Variable*, Variable*> seeds;
    // Graph inputs: all x first, then all tangents (the order run() passes them).
    for (size_t i = 0; i < shapes.size(); ++i) xs.push_back(b.input("x" + std::to_string(i), DType::Float64, shapes[i]));
    for (size_t i = 0; i < shapes.size(); ++i) {
        ts.push_back(b.input("t" + std::to_string(i), DType::Float64, shapes[i]));
        seeds[xs[i].get()] = ts[i].get();
    }
    Var y = f(b, xs);
    Variable* ty = forwardTangent(b, seeds, y);
    QVERIFY2(ty, "the output does not depend on the inputs");
    auto g = b.finish({y, b.wrap(ty)});

    // Deterministic pseudo-random values (no hard-coded results).
    uint64_t state = 0x9E3779B97F4A7C15ull;
    auto rnd = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return double((state >> 11) % 2000001) / 1000000.0 - 1.0;
    };
    std::vector<NDArray> x, t;
    for (const auto& s : shapes) {
        Shape sh(s.begin(), s.end());
        NDArray a = NDArray::empty(DType::Float64, sh), d = NDArray::empty(DType::Float64, sh);
        for (int64_t i = 0; i < a.size(); ++i) a.data<double>()[i] = rnd(), d.data<double>()[i] = rnd();
        x.push_back(a);
        t.push_back(d);
    }
    auto at = [&](double h) {
        std::vector<NDArray> in;
        for (size_t i = 0; i < x.size(); ++i) {
            NDArray a = x[i].copy();
            for (int64_t k = 0; k < a.size(); ++k) a.data<double>()[k] += h * t[i].data<double>()[k];
            in.push_back(a);
        }
        in.insert(in.end(), t.begin(), t.end());
        return run(*g, in);
    };
    const double h = 1e-5;
    auto base = at(0), plus = at(h), minus = at(-h);
    const NDArray& rop = base[1];
    QCOMPARE(rop.shape(), base[0].shape());
    for (int64_t i = 0; i < rop.size(); ++i) {
        const double fd = (plus[0].flatGet(i) - minus[0].flatGet(i)) / (2 * h);
        QVERIFY2(std::fabs(fd - rop.flatGet(i)) <= tol * (1 + std::fabs(fd)),
                 ("element " + std::to_string(i) + ": rop " + std::to_string(rop.flatGet(i)) + " vs finite difference " +
                  std::to_string(fd))
                     .c_str());
    }
}

} // namespace tl::test
