#pragma once
// A graph under construction. Inputs, constants and nodes are added here (by
// the builder, the loaders, a rewrite making a new inner graph); once finish()
// hands the graph over, the only way to change it is a Rewriter, which tells
// its listeners about every edit. Graph itself has no public mutators.
#include "ir/Graph.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tl {

class GraphAssembler {
public:
    GraphAssembler();
    ~GraphAssembler();
    GraphAssembler(const GraphAssembler&) = delete;
    GraphAssembler& operator=(const GraphAssembler&) = delete;
    GraphAssembler(GraphAssembler&&) noexcept;
    GraphAssembler& operator=(GraphAssembler&&) noexcept;

    /// The graph so far, for queries while building.
    const Graph& graph() const { return *m_graph; }

    /// A new graph input (inner-graph placeholder for Composite/Scan bodies).
    Variable* addInput(Type type, std::string name = {}, std::optional<VarId> id = {});
    /// A constant; its type is `type` if given (must accept the value) or the value's exact type.
    Variable* addConstant(NDArray value, std::optional<Type> type = {}, std::string name = {},
                          std::optional<VarId> id = {});
    /// A new Apply node. Output types come from the op's type inference; `declared`
    /// types, when given, must be compatible and are used instead (imported graphs keep
    /// what they printed). Throws GraphError naming the node on a type error.
    Node* addNode(OpPtr op, std::vector<Variable*> inputs, std::optional<NodeId> id = {},
                  const std::vector<Type>* declared = nullptr, const std::vector<VarId>* outputIds = nullptr);
    void setOutputs(std::vector<Variable*> outputs);
    void setVariableName(Variable* v, std::string name);
    /// Gives graph input `input` the value it holds when a run gives none (a PyTensor
    /// shared variable's); GraphError when it is not an input or the value does not fit its type.
    void setSharedValue(Variable* input, NDArray value);
    /// Raises the next ids handed out (never lowers them): a loaded graph keeps
    /// the ids it had already used, so ids of deleted nodes are never reused.
    void reserveIds(NodeId nextNode, VarId nextVar);

    /// Hands the graph over; the assembler starts a new empty one.
    std::unique_ptr<Graph> finish();

private:
    std::unique_ptr<Graph> m_graph;
};

} // namespace tl
