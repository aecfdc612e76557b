#include "builder/Rop.h"

#include "builder/Math.h"
#include "builder/rop/OpRop.h"
#include "ir/GraphWalk.h"

#include <stdexcept>
#include <unordered_map>

namespace tl {

std::vector<Var> forwardTangents(GraphBuilder& b, const std::vector<Var>& outputs, const std::vector<Var>& wrt,
                                 const std::vector<Var>& tangents) {
    if (wrt.size() != tangents.size()) throw std::invalid_argument("Rop: wrt and eval_points differ in length");
    const Graph& g = b.graph();
    std::unordered_map<const Variable*, Variable*> tangentOf;
    for (size_t i = 0; i < wrt.size(); ++i) {
        if (!wrt[i].valid() || &wrt[i]->graph() != &g) throw std::invalid_argument("Rop: wrt " + std::to_string(i) + " is not a variable of this graph");
        if (tangents[i].valid()) tangentOf[wrt[i].get()] = b.capture(tangents[i]).get();
    }

    // The nodes the outputs depend on, in the graph's topological order.
    std::vector<const Variable*> roots;
    for (const Var& o : outputs) {
        if (!o.valid() || &o->graph() != &g) throw std::invalid_argument("Rop: an output is not a variable of this graph");
        roots.push_back(o.get());
    }

    std::vector<Variable*> ins;
    for (Node* n : nodesFeedingInOrder(g, roots)) {
        ins.assign(n->numInputs(), nullptr);
        bool any = false;
        for (int i = 0; i < n->numInputs(); ++i) {
            auto it = tangentOf.find(n->input(i));
            if (it == tangentOf.end()) continue;
            Variable* t = it->second;
            const Type& want = n->input(i)->type();
            if (t->type().ndim() != want.ndim() || t->type().isScalarType() != want.isScalarType())
                throw std::invalid_argument("Rop: the tangent of input " + std::to_string(i) + " of " + n->label() +
                                            " is " + t->type().toString() + ", expected the rank of " + want.toString());
            if (t->type().dtype != want.dtype) t = cast(b.wrap(t), want.dtype).get();
            ins[i] = t;
            any = true;
        }
        if (!any) continue;  // zero in, zero out
        std::vector<Variable*> outs = ropOfNode(b, *n, ins);
        if (static_cast<int>(outs.size()) != n->numOutputs())
            throw std::logic_error("Rop: " + n->label() + " returned " + std::to_string(outs.size()) + " tangents for " +
                                   std::to_string(n->numOutputs()) + " outputs");
        for (int k = 0; k < n->numOutputs(); ++k)
            if (outs[k]) tangentOf[n->output(k)] = outs[k];
    }

    std::vector<Var> result;
    for (const Var& o : outputs) {
        auto it = tangentOf.find(o.get());
        result.push_back(it == tangentOf.end() ? Var() : b.wrap(it->second));
    }
    return result;
}

std::vector<Var> rop(const std::vector<Var>& outputs, const std::vector<Var>& wrt, const std::vector<Var>& evalPoints) {
    if (outputs.empty()) return {};
    if (wrt.size() != evalPoints.size()) throw std::invalid_argument("Rop: `wrt` must be the same length as `eval_points`");
    GraphBuilder& b = outputs[0].builder();
    for (size_t i = 0; i < wrt.size(); ++i) {
        if (!evalPoints[i].valid()) throw std::invalid_argument("Rop: eval_points[" + std::to_string(i) + "] is empty");
        if (wrt[i].ndim() != evalPoints[i].ndim())
            throw std::invalid_argument("Rop: elements " + std::to_string(i) +
                                        " of `wrt` and `eval_point` have mismatched dimensionalities: " +
                                        std::to_string(wrt[i].ndim()) + " and " + std::to_string(evalPoints[i].ndim()));
    }
    std::vector<Var> t = forwardTangents(b, outputs, wrt, evalPoints);
    for (size_t i = 0; i < t.size(); ++i)
        if (!t[i].valid())
            throw std::invalid_argument("Rop: output " + std::to_string(i) +
                                        " does not depend on any variable in wrt (or only through non-differentiable ops)");
    return t;
}

Var rop(const Var& output, const Var& wrt, const Var& evalPoint) { return rop(std::vector<Var>{output}, {wrt}, {evalPoint}).at(0); }

} // namespace tl
