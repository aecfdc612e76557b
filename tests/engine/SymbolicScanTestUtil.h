#pragma once
// Shared by the scan_save_mem suites over sequences of unknown length
// (tst_rw_scan_save_mem_symbolic, tst_rw_scan_save_mem_symbolic_pipeline): the
// loops they build, inputs of a chosen length, and comparisons over lengths.
#include "RewriteCheck.h"
#include "ScanRewriteTestUtil.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Scan.h"
#include "exec/Executor.h"
#include "io/JsonValues.h"
#include "ops/Elemwise.h"

#include <string>
#include <vector>

namespace tl::test {

using Rows = std::vector<int64_t>;
using Lengths = Rows;  // sequence lengths to run

// A (?, 3) sequence: n_steps is Shape_i{0}(M).
inline Var sequence(GraphBuilder& b, const char* name = "M") { return b.input(name, DType::Float64, {kUnknownDim, 3}); }

// x' = x * 0.5 + m over the sequence: the trace without the initial row.
inline Var runningHalf(GraphBuilder& b) {
    Var x0 = b.input("x0", DType::Float64, {3});
    return scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[1] * 0.5 + a[0]}}; },
                ScanArgs{.sequences = {sequence(b)}, .outputsInfo = {OutputInfo(x0)}})
        .outputs[0];
}

// f_t = f_{t-1} + 0.5 f_{t-2} + m_t (taps -2, -1) over the sequence.
inline Var fibonacci(GraphBuilder& b) {
    Var f0 = b.input("f0", DType::Float64, {2, 3});
    return scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[2] + a[1] * 0.5 + a[0]}}; },
                ScanArgs{.sequences = {sequence(b)}, .outputsInfo = {OutputInfo(f0, {-2, -1})}})
        .outputs[0];
}

// Inputs for sequence length `len` (and n = len for an input named "n").
inline std::vector<NDArray> inputsOfLength(const Graph& g, int64_t len, uint64_t seed) {
    std::vector<NDArray> in = randomInputs(g, seed, len);
    for (size_t i = 0; i < in.size(); ++i) {
        if (g.inputs()[i]->name() == "n") in[i] = NDArray::scalar(DType::Int64, static_cast<double>(len));
        if (g.inputs()[i]->name() == "k") in[i] = NDArray::scalar(DType::Int64, 0);
    }
    return in;
}

// Runs both graphs on every length; empty when all outputs agree.
inline std::string compareOnLengths(const RewriteOutcome& o, const Lengths& lengths) {
    for (int64_t len : lengths) {
        const auto in = inputsOfLength(*o.before, len, 11 + static_cast<uint64_t>(len));
        RunResult a = runGraph(*o.before, in), b = runGraph(*o.after, in);
        for (size_t i = 0; i < a.outputs.size(); ++i) {
            std::string m = compareArrays(b.outputs[i], a.outputs[i], 1e-12, 0.0);
            if (!m.empty()) return "length " + std::to_string(len) + ", output " + std::to_string(i) + ": " + m;
        }
    }
    return {};
}

// n_steps reduced: Minimum(n, k) with a constant k.
inline bool isMinimum(const Variable* v) {
    const Node* n = v->owner();
    if (!n || n->op().kind() != OpKind::Elemwise || static_cast<const Elemwise&>(n->op()).scalarOp() != ScalarOpCode::Minimum)
        return false;
    return n->input(0)->isConstant() || n->input(1)->isConstant();
}

// Every Alloc / AllocEmpty a buffer is built on (SetSubtensor's target) has a constant
// first dim of at most `rows` (the zeros standing for the sequence's tangent are not buffers).
inline bool bufferAllocsAtMost(const Graph& g, int64_t rows) {
    for (const Node* n : g.nodes()) {
        if (n->op().kind() != OpKind::Alloc && n->op().kind() != OpKind::AllocEmpty) continue;
        bool buffer = false;
        for (const Client& c : n->output(0)->clients())
            buffer |= c.node && c.node->op().kind() == OpKind::IncSubtensor && c.index == 0;
        const auto& s = n->output(0)->type().shape;
        if (buffer && (s.empty() || s[0] == kUnknownDim || s[0] > rows)) return false;
    }
    return true;
}

} // namespace tl::test
