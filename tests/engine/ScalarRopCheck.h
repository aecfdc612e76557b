#pragma once
// Checks shared by the scalar-op suites (tst_scalar_ops_extra_rop,
// tst_scalar_ops_pytensor_math, tst_special_functions_rop): a node's forward
// derivative against central differences, and the dprint print -> import -> print
// round trip with the same numbers.
#include "ScalarOpsExtraUtil.h"
#include "TestSupport.h"

#include "builder/rop/OpRop.h"
#include "exec/Executor.h"
#include "io/DPrint.h"
#include "io/DPrintImport.h"

#include <QtTest>

#include <functional>
#include <string>
#include <vector>

namespace tl::test {

// Graph outputs' tangents by ropOfNode on the node of y against (f(x+h dx) - f(x-h dx)) / 2h.
inline void checkRop(const std::vector<std::vector<double>>& xs, const std::vector<bool>& hasTangent,
              const std::function<Var(const std::vector<Var>&)>& f, double rtol) {
    const int64_t n = static_cast<int64_t>(xs[0].size());
    GraphBuilder b;
    std::vector<Var> ins, tans;
    for (size_t i = 0; i < xs.size(); ++i) ins.push_back(b.input("x" + std::to_string(i), DType::Float64, {n}));
    for (size_t i = 0; i < xs.size(); ++i) tans.push_back(b.input("d" + std::to_string(i), DType::Float64, {n}));
    Var y = f(ins);
    const Node& node = *y->owner();
    std::vector<Variable*> tv;
    for (Variable* in : node.inputs()) {
        Variable* t = nullptr;
        for (size_t i = 0; i < ins.size(); ++i)
            if (in == ins[i].get() && hasTangent[i]) t = tans[i].get();
        tv.push_back(t);
    }
    std::vector<Variable*> r = ropOfNode(b, node, tv);
    QCOMPARE(r.size(), size_t(1));
    QVERIFY2(r[0], "expected a non-zero tangent");
    auto g = b.finish({y, b.wrap(r[0])});
    std::vector<std::vector<double>> dirs;
    for (size_t i = 0; i < xs.size(); ++i) {
        std::vector<double> d;
        for (int64_t k = 0; k < n; ++k) d.push_back(0.3 + 0.17 * static_cast<double>(k) - 0.4 * static_cast<double>(i));
        dirs.push_back(d);
    }
    const double h = 1e-6;
    auto eval = [&](double s) {
        std::vector<NDArray> args;
        for (size_t i = 0; i < xs.size(); ++i) {
            std::vector<double> v = xs[i];
            if (hasTangent[i])
                for (int64_t k = 0; k < n; ++k) v[static_cast<size_t>(k)] += s * dirs[i][static_cast<size_t>(k)];
            args.push_back(vec(DType::Float64, v));
        }
        for (size_t i = 0; i < xs.size(); ++i) args.push_back(vec(DType::Float64, dirs[i]));
        return runGraph(*g, args).outputs;
    };
    const auto at = eval(0), plus = eval(h), minus = eval(-h);
    std::vector<double> fd;
    for (int64_t k = 0; k < n; ++k) fd.push_back((plus[0].flatGet(k) - minus[0].flatGet(k)) / (2 * h));
    TL_COMPARE_ARRAYS(at[1], vec(DType::Float64, fd), rtol, 1e-7);
}

inline DPrintOptions allOptions() {
    DPrintOptions o;
    o.printType = true;
    o.printShape = true;
    o.printDestroyMap = true;
    o.printViewMap = true;
    o.printOpInfo = true;
    o.printTopoIndex = true;
    return o;
}

// Prints g, imports the text, prints it again: the same text; both graphs compute the same numbers.
inline void dprintRoundTrip(const Graph& g, const std::vector<NDArray>& inputs, DPrintOptions opts) {
    const std::string text = dprint(g, opts);
    DPrintImport imp;
    try {
        imp = importDprint(text);
    } catch (const std::exception& e) {
        QFAIL((std::string(e.what()) + "\n" + text).c_str());
    }
    opts.topoIndexOverride = &imp.topoIndex;
    const std::string again = dprint(*imp.graph, opts);
    std::string notes;
    for (const auto& s : imp.notes) notes += s + "\n";
    QVERIFY2(again == text, ("--- printed:\n" + text + "--- back:\n" + again + "--- notes:\n" + notes).c_str());
    const auto problems = imp.graph->validate();
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
    QCOMPARE(imp.graph->inputs().size(), g.inputs().size());
    const RunResult ra = runGraph(g, inputs), rb = runGraph(*imp.graph, inputs);
    QCOMPARE(rb.outputs.size(), ra.outputs.size());
    for (size_t i = 0; i < ra.outputs.size(); ++i) {
        QCOMPARE(rb.outputs[i].dtype(), ra.outputs[i].dtype());
        TL_COMPARE_ARRAYS(rb.outputs[i], ra.outputs[i], 0, 0);
    }
}

} // namespace tl::test
