#pragma once
// A minimal op and a chain graph for tests of the graph IR itself.
#include "ir/Graph.h"
#include "ir/GraphAssembler.h"

#include <memory>
#include <vector>

namespace tl::irtest {

// A minimal op for IR tests: n inputs of any type, one output of the first input's type.
class PassOp : public Op {
public:
    PassOp() : Op(OpKind::Opaque) {}
    std::string name() const override { return "Pass"; }
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        if (in.empty()) throw OpTypeError("needs an input");
        return {*in[0]};
    }
    void perform(std::span<const NDArray> in, std::span<NDArray> out) const override { out[0] = in[0]; }
};

struct Chain {
    Variable* x = nullptr;
    std::vector<Node*> nodes;
    std::unique_ptr<Graph> owned;
    Graph& g;
    explicit Chain(int n) : owned(build(n)), g(*owned) {}

private:
    std::unique_ptr<Graph> build(int n) {
        GraphAssembler ga;
        x = ga.addInput(Type::tensor(DType::Float64, {7}), "x");
        Variable* v = x;
        auto op = std::make_shared<PassOp>();
        for (int i = 0; i < n; ++i) {
            nodes.push_back(ga.addNode(op, {v}));
            v = nodes.back()->output(0);
        }
        ga.setOutputs({v});
        return ga.finish();
    }
};

} // namespace tl::irtest
