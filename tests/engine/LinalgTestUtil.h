#pragma once
// What the linear-algebra and BLAS suites share: the reference values NumPy and SciPy
// computed (tests/data/linalg_reference.json, made by tests/data/make_linalg_reference.py,
// and PyTensor's gradient ops in linalg_grad_reference.json beside it),
// running one op on arrays, and running a node of it in a graph so errors carry the
// node's name as users see them.
#include "ShapeOpsTestUtil.h"
#include "TestSupport.h"

#include "exec/Executor.h"
#include "ir/GraphAssembler.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace tl::test {

struct RefCase {
    std::map<std::string, NDArray> inputs;
    std::vector<NDArray> outputs;
    nlohmann::json params;
};

inline NDArray arrayFromRef(const nlohmann::json& j) {
    const DType d = *parseDType(j["dtype"].get<std::string>());
    Shape s = j["shape"].get<Shape>();
    // Non-finite values are written "nan", "inf", "-inf" (JSON has no literal for them).
    std::vector<double> data;
    for (const auto& x : j["data"]) {
        if (!x.is_string()) {
            data.push_back(x.get<double>());
            continue;
        }
        const std::string t = x.get<std::string>();
        if (t == "nan") data.push_back(std::numeric_limits<double>::quiet_NaN());
        else if (t == "inf" || t == "-inf") data.push_back(t == "inf" ? std::numeric_limits<double>::infinity()
                                                                       : -std::numeric_limits<double>::infinity());
        else throw std::runtime_error("tests/data: bad number '" + t + "' in a reference case");
    }
    return NDArray::fromVector(d, s, data);
}

/// A case of tests/data/<file>: linalg_reference.json, or another file of its format
/// (linalg_grad_reference.json, PyTensor's gradient ops); throws naming it when missing.
inline RefCase refCase(const std::string& name, const std::string& file = "linalg_reference.json") {
    static std::map<std::string, nlohmann::json> docs;
    auto doc = docs.find(file);
    if (doc == docs.end()) {
        std::ifstream in(sourcePath("tests/data/" + file));
        if (!in) throw std::runtime_error("tests/data/" + file + " is missing");
        doc = docs.emplace(file, nlohmann::json::parse(in)).first;
    }
    const auto& cases = doc->second["cases"];
    if (!cases.contains(name)) throw std::runtime_error("no reference case " + name + " in tests/data/" + file);
    RefCase r;
    for (auto it = cases[name]["inputs"].begin(); it != cases[name]["inputs"].end(); ++it)
        r.inputs[it.key()] = arrayFromRef(*it);
    for (const auto& o : cases[name]["outputs"]) r.outputs.push_back(arrayFromRef(o));
    r.params = cases[name]["params"];
    return r;
}

/// Runs `op` in a one-node graph on `inputs` (the executor's error messages, with
/// the node's label); returns the outputs.
inline std::vector<NDArray> runNode(const OpPtr& op, const std::vector<NDArray>& inputs) {
    GraphAssembler a;
    std::vector<Variable*> ins;
    for (size_t i = 0; i < inputs.size(); ++i) {
        Shape s = inputs[i].shape();
        ins.push_back(a.addInput(Type::tensor(inputs[i].dtype(), StaticShape(s.begin(), s.end())), "in" + std::to_string(i)));
    }
    Node* n = a.addNode(op, ins);
    a.setOutputs(n->outputs().toVector());
    auto g = a.finish();
    return run(*g, inputs);
}

/// The message of what f throws, or "" when it does not.
/// a @ b of two 2-d float64 arrays (test-side, a plain triple loop).
inline NDArray refMatmul(const NDArray& a, const NDArray& b) {
    const int64_t m = a.dim(0), k = a.dim(1), n = b.dim(1);
    std::vector<double> c(static_cast<size_t>(m * n), 0.0);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j)
            for (int64_t p = 0; p < k; ++p)
                c[i * n + j] += a.get(std::vector<int64_t>{i, p}) * b.get(std::vector<int64_t>{p, j});
    return NDArray::fromVector(DType::Float64, {m, n}, c);
}

/// The transpose of a 2-d array, as a contiguous copy.
inline NDArray refTranspose(const NDArray& a) {
    return a.view({a.dim(1), a.dim(0)}, {a.strides()[1], a.strides()[0]}, a.offset()).copy();
}

/// a * diag(s) (scales the columns).
inline NDArray scaleColumns(const NDArray& a, const NDArray& s) {
    NDArray r = a.astype(DType::Float64);
    for (int64_t i = 0; i < r.dim(0); ++i)
        for (int64_t j = 0; j < r.dim(1); ++j)
            r.set(std::vector<int64_t>{i, j}, r.get(std::vector<int64_t>{i, j}) * s.flatGet(j));
    return r;
}

} // namespace tl::test

/// Compares against a reference with a relative tolerance and an absolute one for
/// entries near zero (LAPACK rounding of the reference and ours differ in the last bits).
#define TL_COMPARE_REF(got, want, tol) TL_COMPARE_ARRAYS((got).astype(DType::Float64), (want).astype(DType::Float64), tol, tol)
