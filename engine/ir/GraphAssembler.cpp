#include "ir/GraphAssembler.h"

namespace tl {

GraphAssembler::GraphAssembler() : m_graph(std::make_unique<Graph>()) {}
GraphAssembler::~GraphAssembler() = default;
GraphAssembler::GraphAssembler(GraphAssembler&&) noexcept = default;
GraphAssembler& GraphAssembler::operator=(GraphAssembler&&) noexcept = default;

void GraphAssembler::setSharedValue(Variable* input, NDArray value) { m_graph->setSharedValue(input, std::move(value)); }

Variable* GraphAssembler::addInput(Type type, std::string name, std::optional<VarId> id) {
    return m_graph->addInput(std::move(type), std::move(name), id);
}

Variable* GraphAssembler::addConstant(NDArray value, std::optional<Type> type, std::string name,
                                      std::optional<VarId> id) {
    return m_graph->addConstant(std::move(value), std::move(type), std::move(name), id);
}

Node* GraphAssembler::addNode(OpPtr op, std::vector<Variable*> inputs, std::optional<NodeId> id,
                              const std::vector<Type>* declared, const std::vector<VarId>* outputIds) {
    return m_graph->addNode(std::move(op), std::move(inputs), id, declared, outputIds);
}

void GraphAssembler::setOutputs(std::vector<Variable*> outputs) { m_graph->setOutputs(std::move(outputs)); }

void GraphAssembler::setVariableName(Variable* v, std::string name) { m_graph->setVariableName(v, std::move(name)); }

void GraphAssembler::reserveIds(NodeId nextNode, VarId nextVar) { m_graph->reserveIds(nextNode, nextVar); }

std::unique_ptr<Graph> GraphAssembler::finish() {
    auto g = std::move(m_graph);
    m_graph = std::make_unique<Graph>();
    return g;
}

} // namespace tl
