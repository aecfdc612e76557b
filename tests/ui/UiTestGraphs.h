#pragma once
// Small graphs for the ui tests, built with the IR directly: a pass-through
// op, chains, random DAGs and a Scan whose body is a short chain.
#include "ir/GraphAssembler.h"
#include "ir/Graph.h"
#include "ops/ScanOp.h"

#include <memory>
#include <random>

namespace tl::testgraphs {

/// n inputs of any type, one output of the first input's type.
class PassOp : public Op {
public:
    explicit PassOp(std::string name = "Pass", OpKind kind = OpKind::Opaque) : Op(kind), m_name(std::move(name)) {}
    std::string name() const override { return m_name; }
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        if (in.empty()) throw OpTypeError("needs an input");
        return {*in[0]};
    }
    void perform(std::span<const NDArray> in, std::span<NDArray> out) const override { out[0] = in[0]; }

private:
    std::string m_name;
};

inline OpPtr pass(std::string name = "Pass", OpKind kind = OpKind::Opaque) { return std::make_shared<PassOp>(std::move(name), kind); }

/// A Scan with one sit_sot whose body is `bodyLength` Pass nodes; buffer of `rows` rows.
inline Node* addScan(GraphAssembler& g, Variable* buffer, int bodyLength, const std::string& name = "scan_fn") {
    GraphAssembler innerA;
    const Type row = Type::tensor(buffer->type().dtype, {buffer->type().shape.begin() + 1, buffer->type().shape.end()});
    Variable* v = innerA.addInput(row);
    for (int i = 0; i < bodyLength; ++i) v = innerA.addNode(pass("Body" + std::to_string(i)), {v})->output(0);
    innerA.setOutputs({v});
    std::shared_ptr<Graph> inner = innerA.finish();
    ScanInfo info;
    info.nSitSot = 1;
    Variable* steps = g.addConstant(NDArray::scalar(DType::Int64, 10));
    return g.addNode(makeScan(info, inner, name), {steps, buffer});
}

/// A random DAG of `n` Pass nodes over `inputs` inputs; each node reads 1-3 earlier values.
inline std::unique_ptr<Graph> randomDag(int n, int inputs, unsigned seed) {
    GraphAssembler gA;
    std::mt19937 rng(seed);
    std::vector<Variable*> vals;
    for (int i = 0; i < inputs; ++i) vals.push_back(gA.addInput(Type::tensor(DType::Float64, {7}), "x" + std::to_string(i)));
    for (int i = 0; i < n; ++i) {
        const int k = 1 + static_cast<int>(rng() % 3);
        std::vector<Variable*> ins;
        for (int j = 0; j < k; ++j) {
            // Mostly recent values: deep graphs, as real ones are.
            const size_t span = std::min<size_t>(vals.size(), 40);
            ins.push_back(vals[vals.size() - 1 - rng() % span]);
        }
        vals.push_back(gA.addNode(pass("Op" + std::to_string(i % 5), i % 3 ? OpKind::Elemwise : OpKind::Opaque), ins)->output(0));
    }
    gA.setOutputs({vals.back()});
    auto g = gA.finish();
    return g;
}

} // namespace tl::testgraphs
