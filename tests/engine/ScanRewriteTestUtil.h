#pragma once
// Shared by the scan rewrite suites (tst_rw_scan_merge_states, tst_rw_scan_save_mem):
// finding the Scan, reading its buffer rows, the oracle's recorded figures.
#include "TestSupport.h"
#include "builder/Examples.h"
#include "io/JsonValues.h"
#include "ir/Graph.h"
#include "ops/ScanOp.h"
#include "trace/Trace.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace tl::test {

/// The Scan nodes of `g` (outer graph only), by id.
inline std::vector<const Node*> scanNodes(const Graph& g) {
    std::vector<const Node*> out;
    for (const Node* n : g.nodes())
        if (n->op().kind() == OpKind::Scan) out.push_back(n);
    std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->id() < b->id(); });
    return out;
}

inline const ScanOp& scanOp(const Node* n) { return static_cast<const ScanOp&>(n->op()); }

/// Static rows of traced state s's buffer (the outer input), -1 when unknown.
inline int64_t bufferRows(const Node* scan, int s) {
    const auto& shape = scan->input(scanOp(scan).info().outerInMitMot() + s)->type().shape;
    return shape.empty() ? -1 : shape[0];
}

/// Rows a nit_sot stores (its constant outer input), -1 when not constant.
inline int64_t nitSotRows(const Node* scan, int k) {
    const Variable* v = scan->input(scanOp(scan).info().outerInNitSot() + k);
    return v->isConstant() ? v->constantValue().itemInt() : -1;
}

inline int64_t nSteps(const Node* scan) {
    const Variable* v = scan->input(0);
    return v->isConstant() ? v->constantValue().itemInt() : -1;
}

/// Nodes of kind `kind` in a Scan's step, counting Composite members by scalar op name.
inline int innerCount(const Node* scan, OpKind kind) {
    int n = 0;
    for (const Node* m : scanOp(scan).inner()->nodes()) n += m->op().kind() == kind;
    return n;
}

/// Nodes of the step whose printed name is `name` ("Exp"), or Composites containing it.
inline int innerNamed(const Node* scan, const std::string& name) {
    int n = 0;
    for (const Node* m : scanOp(scan).inner()->nodes()) n += m->op().name() == name;
    return n;
}

/// The oracle case's expected.json (tests/oracle/<name>). The cases ship with the
/// tests, so an unknown name throws std::runtime_error naming it.
inline nlohmann::json oracleCase(const std::string& name) {
    const std::string path = oracleCaseFile(name);
    if (path.empty()) throw std::runtime_error("no oracle case " + name + " in " + oracleDir());
    return readJsonFile(path);
}

/// buffer_shape[0] of each state of loop `loop` in `mode` ("fast_run" / "no_prealloc").
inline std::vector<int64_t> oracleBufferRows(const nlohmann::json& e, const std::string& mode, size_t loop = 0) {
    std::vector<int64_t> out;
    for (const auto& st : e.at(mode).at("scans").at(loop).at("states")) out.push_back(st.at("buffer_shape").at(0).get<int64_t>());
    return out;
}

/// The case's input values in the graph's input order.
inline std::vector<NDArray> oracleInputs(const nlohmann::json& e, const Graph& g) {
    return inputsFromJson(e.at("inputs"), g, "expected.json inputs");
}

/// Empty when `got` matches the case's recorded outputs within rtol.
inline std::string compareWithOracle(const nlohmann::json& e, const std::vector<NDArray>& got, double rtol = 1e-12) {
    const auto& outs = e.at("outputs");
    if (outs.size() != got.size()) return "the graph has " + std::to_string(got.size()) + " outputs, the case " + std::to_string(outs.size());
    for (size_t i = 0; i < got.size(); ++i) {
        Type t = Type::tensor(got[i].dtype(), StaticShape(got[i].shape().begin(), got[i].shape().end()));
        NDArray want = arrayFromJson(outs[i], t, "outputs[" + std::to_string(i) + "]");
        std::string m = compareArrays(got[i], want, rtol, 1e-300);
        if (!m.empty()) return "output " + std::to_string(i) + ": " + m;
    }
    return {};
}

/// Attribute changes with this key in the trace, as "before -> after".
inline std::vector<std::string> attributes(const Trace& trace, const std::string& key) {
    std::vector<std::string> out;
    for (const TraceStep& s : trace.steps())
        for (const AttributeChange& a : s.attributes)
            if (a.key == key) out.push_back(a.before + " -> " + a.after);
    return out;
}

} // namespace tl::test
