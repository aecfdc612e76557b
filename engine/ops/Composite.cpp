#include "ops/Composite.h"

#include "ir/Graph.h"
#include "ir/GraphCopy.h"
#include "ir/GraphWalk.h"
#include "ops/ScalarOp.h"

#include <cctype>
#include <cstdint>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace tl {

namespace {

// The scalar graph's needed part, with the same ids (the dprint importer and the
// GUI follow a body's nodes by id).
GraphAssembler copyNeeded(const Graph& src, const std::vector<Node*>& nodes) {
    GraphAssembler g;
    VariableMap map;
    for (Variable* in : src.inputs()) {
        if (!in->type().isScalarType())
            throw std::invalid_argument("Composite input " + std::to_string(map.size()) + " has type " +
                                        in->type().toString() + "; a Composite takes ScalarTypes");
        map[in] = g.addInput(in->type(), "", in->id());
    }
    auto mapped = [&](Variable* v, const std::string& where) -> Variable* {
        if (auto it = map.find(v); it != map.end()) return it->second;
        if (v->isConstant()) return map[v] = g.addConstant(v->constantValue(), v->type(), "", v->id());
        throw std::invalid_argument(where + ": variable " + std::to_string(v->id()) + " is not an input of the scalar graph");
    };
    std::vector<Variable*> ins;
    for (Node* n : nodes) {
        if (!dynamic_cast<const ScalarOp*>(&n->op()))
            throw std::invalid_argument(n->label() + ": a Composite's inner graph may hold only scalar ops");
        ins.clear();
        for (Variable* v : n->inputs()) ins.push_back(mapped(v, n->label()));
        Node* c = copyNode(g, *n, ins, CopyIds::Keep);
        for (int i = 0; i < n->numOutputs(); ++i) map[n->output(i)] = c->output(i);
    }
    std::vector<Variable*> outs;
    for (size_t i = 0; i < src.outputs().size(); ++i) {
        Variable* o = src.outputs()[i];
        if (o->isGraphInput())
            throw std::invalid_argument("Composite output " + std::to_string(i) + " is an input; use identity");
        outs.push_back(mapped(o, "Composite output " + std::to_string(i)));
    }
    if (outs.empty()) throw std::invalid_argument("a Composite needs at least one output");
    g.setOutputs(std::move(outs));
    return g;
}

// PyTensor's Composite.__str__ renaming: inputs i<k>, outputs o<k>, and every
// other non-constant variable with several clients t<index>, where index counts
// the graph's variables (PyTensor enumerates a set; tensorlens fixes the order:
// inputs, constants by first use, then node outputs in topological order).
void nameVariables(GraphAssembler& a, const std::vector<Node*>& order) {
    const Graph& g = a.graph();
    // Per-variable flags by slot: a fused chain's scalar graph has tens of thousands.
    std::vector<char> io(g.numVariables(), 0), seen(g.numVariables(), 0);
    for (size_t i = 0; i < g.inputs().size(); ++i) {
        a.setVariableName(g.inputs()[i], "i" + std::to_string(i));
        io[g.inputs()[i]->slot()] = 1;
    }
    for (size_t i = 0; i < g.outputs().size(); ++i) {
        a.setVariableName(g.outputs()[i], "o" + std::to_string(i));
        io[g.outputs()[i]->slot()] = 1;
    }
    std::vector<Variable*> vars(g.inputs().begin(), g.inputs().end());
    auto firstSight = [&](const Variable* v) { return !std::exchange(seen[v->slot()], 1); };
    for (const Variable* v : vars) seen[v->slot()] = 1;
    for (Node* n : order)
        for (Variable* v : n->inputs())
            if (v->isConstant() && firstSight(v)) vars.push_back(v);
    for (Node* n : order)
        for (Variable* v : n->outputs())
            if (firstSight(v)) vars.push_back(v);
    for (size_t i = 0; i < vars.size(); ++i) {
        Variable* v = vars[i];
        if (v->isConstant() || io[v->slot()]) continue;
        a.setVariableName(v, v->clients().size() > 1 ? "t" + std::to_string(i) : std::string());
    }
}

// PyTensor's pprint of the single output: OperatorPrinter ops fully
// parenthesised (`(a + b + c)`, `(-a)`), others as calls, constants by value.
std::string prettyOutput(const Graph& g, const std::vector<Node*>& order) {
    std::unordered_map<const Variable*, std::string> text;
    auto of = [&](const Variable* v) -> std::string {
        if (auto it = text.find(v); it != text.end()) return it->second;
        if (v->isConstant()) return formatScalarLiteral(v->constantValue());
        return v->name();
    };
    for (Node* n : order) {
        const auto& op = static_cast<const ScalarOp&>(n->op());
        const ScalarOpInfo& info = scalarOpInfo(op.code());
        std::string s;
        if (!info.infix.empty()) {
            if (n->numInputs() == 1) {
                s = "(" + std::string(info.infix) + of(n->input(0)) + ")";
            } else {
                s = "(";
                for (int i = 0; i < n->numInputs(); ++i) {
                    if (i) s += " " + std::string(info.infix) + " ";
                    s += of(n->input(i));
                }
                s += ")";
            }
        } else {
            s = op.name() + "(";
            for (int i = 0; i < n->numInputs(); ++i) {
                if (i) s += ", ";
                s += of(n->input(i));
            }
            s += ")";
        }
        text[n->output(0)] = std::move(s);
    }
    return of(g.outputs()[0]);
}

std::string signatureOf(const Graph& g, const std::vector<Node*>& order) {
    // Appended in place, references as numbers: a fused chain has thousands of lines.
    // By variable slot: input k -> -(k + 1), node k's output -> k, kNoRef for constants.
    constexpr int64_t kNoRef = INT64_MIN;
    std::vector<int64_t> ref(g.numVariables(), kNoRef);
    std::string sig;
    for (size_t i = 0; i < g.inputs().size(); ++i) {
        ref[g.inputs()[i]->slot()] = -static_cast<int64_t>(i) - 1;
        sig += "in ";
        sig += dtypeName(g.inputs()[i]->type().dtype);
        sig += ';';
    }
    auto append = [&](const Variable* v) {
        if (const int64_t r = ref[v->slot()]; r != kNoRef) {
            sig += r < 0 ? 'i' : 'n';
            sig += std::to_string(r < 0 ? -r - 1 : r);
            return;
        }
        sig += 'c';
        sig += dtypeName(v->type().dtype);
        sig += ':';
        sig += formatScalarLiteral(v->constantValue());
    };
    for (size_t k = 0; k < order.size(); ++k) {
        const Node* n = order[k];
        sig += 'n';
        sig += std::to_string(k);
        sig += '=';
        sig += n->op().name();
        sig += '(';
        for (int i = 0; i < n->numInputs(); ++i) {
            if (i) sig += ',';
            append(n->input(i));
        }
        sig += "):";
        sig += dtypeName(n->output(0)->type().dtype);
        sig += ';';
        ref[n->output(0)->slot()] = static_cast<int64_t>(k);
    }
    for (Variable* o : g.outputs()) {
        sig += "out ";
        append(o);
        sig += ';';
    }
    return sig;
}

} // namespace

Composite::Composite(const Graph& scalarGraph) {
    GraphAssembler copy = copyNeeded(scalarGraph, nodesFeedingInOrder(scalarGraph, scalarGraph.outputs()));
    const std::vector<Node*> order = copy.graph().toposort();
    finishFrom(std::move(copy), order);
}

Composite::Composite(GraphAssembler&& scalarGraph) {
    const Graph& g = scalarGraph.graph();
    // The walk from the outputs reaches every node exactly when all are needed; its
    // order is then the copy's own toposort, so both constructors name and sign alike.
    std::vector<Node*> order = g.toposort();
    bool allNeeded = order.size() == g.numNodes() && !g.outputs().empty();
    for (size_t k = 0; allNeeded && k < order.size(); ++k) allNeeded = dynamic_cast<const ScalarOp*>(&order[k]->op()) != nullptr;
    for (const Variable* in : g.inputs()) allNeeded = allNeeded && in->type().isScalarType();
    for (const Variable* out : g.outputs()) allNeeded = allNeeded && !out->isGraphInput();
    std::vector<Variable*> constants;
    if (allNeeded) constants = g.constants();
    for (const Variable* c : constants) allNeeded = allNeeded && !c->clients().empty();
    if (!allNeeded) {  // dead nodes to drop, or an error copyNeeded names
        GraphAssembler copy = copyNeeded(g, nodesFeedingInOrder(g, g.outputs()));
        const std::vector<Node*> copyOrder = copy.graph().toposort();
        finishFrom(std::move(copy), copyOrder);
        return;
    }
    for (Variable* c : constants) scalarGraph.setVariableName(c, "");  // as copyNeeded leaves them
    finishFrom(std::move(scalarGraph), order);
}

void Composite::finishFrom(GraphAssembler&& assembler, const std::vector<Node*>& order) {
    nameVariables(assembler, order);
    std::unique_ptr<Graph> g = assembler.finish();
    m_program = ScalarProgram::compile(*g);
    if (g->outputs().size() > 1 || order.size() > 10) m_name = "Composite{...}";
    else m_name = "Composite{" + prettyOutput(*g, order) + "}";
    m_signature = signatureOf(*g, order);
    m_graph = std::move(g);
}

int Composite::numInputs() const { return static_cast<int>(m_graph->inputs().size()); }
int Composite::numOutputs() const { return static_cast<int>(m_graph->outputs().size()); }
size_t Composite::numNodes() const { return m_graph->numNodes(); }

std::string pythonCapitalize(const std::string& s) {
    std::string r = s;
    for (size_t i = 0; i < r.size(); ++i) {
        const auto c = static_cast<unsigned char>(r[i]);
        r[i] = static_cast<char>(i == 0 ? std::toupper(c) : std::tolower(c));
    }
    return r;
}

} // namespace tl
