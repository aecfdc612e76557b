#pragma once
// Composite: a fused scalar function (PyTensor's pytensor.scalar.Composite).
// It owns an inner Graph of ScalarOp nodes over ScalarType inputs with one or
// more outputs, names its variables as PyTensor does (inputs i0, i1, ...,
// outputs o0, o1, ..., intermediates used more than once t<k>), prints as
// `Composite{(exp(i0) - 5.0)}` or `Composite{...}`, and is compiled once into a
// ScalarProgram that Elemwise runs block by block.
#include "ops/ScalarProgram.h"

#include <memory>
#include <string>
#include <vector>

namespace tl {

class Graph;
class GraphAssembler;
class Node;

class Composite {
public:
    /// Copies the part of `scalarGraph` its outputs need (ids kept), names the
    /// variables and compiles the program. Inputs must be ScalarTypes and every
    /// node a ScalarOp; an output may not be an input (PyTensor asserts the
    /// same; use identity). Throws std::invalid_argument naming the problem.
    explicit Composite(const Graph& scalarGraph);
    /// The same from a graph still being assembled (outputs set), taken over
    /// without a copy when its outputs need every node, as a fusion builds it.
    explicit Composite(GraphAssembler&& scalarGraph);

    /// The inner graph (named, immutable); what Elemwise::innerGraph returns.
    const std::shared_ptr<const Graph>& graph() const { return m_graph; }
    int numInputs() const;
    int numOutputs() const;
    DType inputDType(int i) const { return m_program->inputDType(i); }
    DType outputDType(int o) const { return m_program->outputDType(o); }
    const ScalarProgram& program() const { return *m_program; }
    size_t numNodes() const;

    /// PyTensor's str(Composite): `Composite{(-5.0 + exp(i0))}` for one output and
    /// at most 10 nodes, `Composite{...}` otherwise.
    const std::string& name() const { return m_name; }
    /// A canonical text of the inner graph (ops, dtypes, constants, wiring), equal
    /// for structurally equal composites: Elemwise equality and hashing use it.
    const std::string& signature() const { return m_signature; }

private:
    void finishFrom(GraphAssembler&& assembler, const std::vector<Node*>& order);

    std::shared_ptr<const Graph> m_graph;
    std::shared_ptr<const ScalarProgram> m_program;
    std::string m_name;
    std::string m_signature;
};

using CompositePtr = std::shared_ptr<const Composite>;

/// Python's str.capitalize (first character upper, the rest lower, ASCII), which
/// PyTensor's Elemwise.__str__ applies to its scalar op's name.
std::string pythonCapitalize(const std::string& s);

} // namespace tl
