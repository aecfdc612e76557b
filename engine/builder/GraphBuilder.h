#pragma once
// The C++ counterpart of building a PyTensor graph: named inputs, constants and
// ops applied to `Var` handles. Math, indexing and scan live in the sibling
// headers (Math.h, Indexing.h, Scan.h, Rop.h); builder/Builder.h includes all.
#include "ir/GraphAssembler.h"

#include <memory>
#include <string>
#include <vector>

namespace tl {

class GraphBuilder;

/// A variable being built. Cheap to copy; valid while its builder lives.
class Var {
public:
    Var() = default;
    Var(GraphBuilder* builder, Variable* v) : m_builder(builder), m_var(v) {}
    bool valid() const { return m_var != nullptr; }
    Variable* get() const { return m_var; }
    Variable* operator->() const { return m_var; }
    GraphBuilder& builder() const { return *m_builder; }
    const Type& type() const { return m_var->type(); }
    int ndim() const { return m_var->type().ndim(); }
    DType dtype() const { return m_var->type().dtype; }
    /// Sets the variable's name (PyTensor's `x.name = ...`).
    Var& named(std::string name);

private:
    GraphBuilder* m_builder = nullptr;
    Variable* m_var = nullptr;
};

class GraphBuilder {
public:
    /// A builder for a top-level graph.
    GraphBuilder();
    /// A builder for an inner graph (scan step): variables of `parent` (or its
    /// ancestors) used here are captured as inner inputs (scan non_sequences).
    explicit GraphBuilder(GraphBuilder* parent);
    ~GraphBuilder();
    GraphBuilder(const GraphBuilder&) = delete;
    GraphBuilder& operator=(const GraphBuilder&) = delete;

    const Graph& graph() const { return m_assembler.graph(); }
    /// The graph under construction, for what the Var API does not cover.
    GraphAssembler& assembler() { return m_assembler; }
    GraphBuilder* parent() const { return m_parent; }

    /// A named graph input (pt.tensor(name, dtype=..., shape=...)).
    Var input(std::string name, DType dtype, StaticShape shape);
    /// A placeholder input of an inner graph (no name, printed *0-<Type>).
    Var placeholder(const Type& type);
    /// A 0-d tensor constant (PyTensor's `pt.constant(v)`); dtype as given.
    Var constant(double value, DType dtype = DType::Float64);
    /// A ScalarType constant (printed `<int64>`), as Subtensor indices are.
    Var scalarConstant(double value, DType dtype = DType::Int64);
    Var constant(NDArray value, std::optional<Type> type = {});

    /// Applies an op; inputs from an enclosing builder are captured first.
    std::vector<Var> apply(OpPtr op, std::vector<Var> inputs);
    /// The same with the output types PyTensor's make_node gives, where they are more
    /// precise than the op infers from its inputs alone (they must be compatible).
    std::vector<Var> apply(OpPtr op, std::vector<Var> inputs, const std::vector<Type>& declared);
    Var apply1(OpPtr op, std::vector<Var> inputs) { return apply(std::move(op), std::move(inputs)).at(0); }

    /// Wraps a Variable of this builder's graph.
    Var wrap(Variable* v) { return Var(this, v); }
    /// `v` as a variable of this graph: itself, or its captured placeholder.
    Var capture(Var v);

    /// Variables captured from enclosing builders, in capture order: (outer, inner placeholder).
    const std::vector<std::pair<Var, Var>>& captures() const { return m_captures; }

    /// Sets the outputs and hands the graph over, holding only what the outputs need
    /// (nodes and constants nothing reads are dropped); the builder is empty afterwards.
    std::unique_ptr<Graph> finish(const std::vector<Var>& outputs);

private:
    GraphAssembler m_assembler;
    GraphBuilder* m_parent = nullptr;
    std::vector<std::pair<Var, Var>> m_captures;
};

} // namespace tl
