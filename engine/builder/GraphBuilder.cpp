#include "builder/GraphBuilder.h"

#include "ir/Rewriter.h"

#include <stdexcept>

namespace tl {

Var& Var::named(std::string name) {
    m_builder->assembler().setVariableName(m_var, std::move(name));
    return *this;
}

GraphBuilder::GraphBuilder() = default;
GraphBuilder::GraphBuilder(GraphBuilder* parent) : m_parent(parent) {}
GraphBuilder::~GraphBuilder() = default;

Var GraphBuilder::input(std::string name, DType dtype, StaticShape shape) {
    return Var(this, m_assembler.addInput(Type::tensor(dtype, std::move(shape)), std::move(name)));
}

Var GraphBuilder::placeholder(const Type& type) { return Var(this, m_assembler.addInput(type)); }

Var GraphBuilder::constant(double value, DType dtype) {
    return Var(this, m_assembler.addConstant(NDArray::scalar(dtype, value)));
}

Var GraphBuilder::scalarConstant(double value, DType dtype) {
    return Var(this, m_assembler.addConstant(NDArray::scalar(dtype, value), Type::scalar(dtype)));
}

Var GraphBuilder::constant(NDArray value, std::optional<Type> type) {
    return Var(this, m_assembler.addConstant(std::move(value), std::move(type)));
}

Var GraphBuilder::capture(Var v) {
    if (!v.valid()) throw std::invalid_argument("capture of an empty Var");
    if (&v.get()->graph() == &m_assembler.graph()) return v;
    for (auto& [outer, inner] : m_captures)
        if (outer.get() == v.get()) return inner;
    if (!m_parent) throw std::invalid_argument("variable belongs to an unrelated graph");
    // Constants are copied rather than captured, as PyTensor's scan does.
    if (v.get()->isConstant()) return constant(v.get()->constantValue(), v.type());
    Var outer = m_parent->capture(v);
    Var inner = placeholder(v.type());
    m_captures.emplace_back(outer, inner);
    return inner;
}

std::vector<Var> GraphBuilder::apply(OpPtr op, std::vector<Var> inputs) {
    std::vector<Variable*> ins;
    ins.reserve(inputs.size());
    for (Var& v : inputs) ins.push_back(capture(v).get());
    Node* n = m_assembler.addNode(std::move(op), std::move(ins));
    std::vector<Var> outs;
    for (Variable* o : n->outputs()) outs.emplace_back(this, o);
    return outs;
}

std::vector<Var> GraphBuilder::apply(OpPtr op, std::vector<Var> inputs, const std::vector<Type>& declared) {
    std::vector<Variable*> ins;
    ins.reserve(inputs.size());
    for (Var& v : inputs) ins.push_back(capture(v).get());
    Node* n = m_assembler.addNode(std::move(op), std::move(ins), std::nullopt, &declared);
    std::vector<Var> outs;
    for (Variable* o : n->outputs()) outs.emplace_back(this, o);
    return outs;
}

std::unique_ptr<Graph> GraphBuilder::finish(const std::vector<Var>& outputs) {
    std::vector<Variable*> outs;
    for (const Var& v : outputs) outs.push_back(capture(v).get());
    m_assembler.setOutputs(std::move(outs));
    // Nodes built on the way that no output uses (the subtensor handed to
    // incSubtensor, a discarded intermediate) are not part of the program, as
    // they are not part of the FunctionGraph PyTensor builds from its outputs.
    auto g = m_assembler.finish();
    Rewriter(*g).pruneDead();
    return g;
}

} // namespace tl
