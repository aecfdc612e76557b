#include "ops/ReduceKernel.h"

#include "ir/Graph.h"
#include "ir/GraphCopy.h"
#include "ir/GraphWalk.h"
#include "ops/ArrayOpUtil.h"
#include "ops/Reduce.h"
#include "ops/ReduceFold.h"
#include "ops/ScalarOp.h"

#include <algorithm>
#include <cstring>

namespace tl {

namespace {

// A Composite PyTensor's local_careduce_fusion built: its output is op(i0, e) with
// the accumulator i0 read nowhere else and op a foldable op in the accumulator's
// dtype. Then the reduction folds op over e(i1, ...), which compiles on its own.
struct SplitComposite {
    ScalarOpCode code;
    std::shared_ptr<const ScalarProgram> map;  // i1.. -> e, converted to the accumulator dtype
};

std::optional<SplitComposite> splitComposite(const Composite& c) {
    const Graph& g = *c.graph();
    Variable* acc = g.inputs()[0];
    Variable* out = g.outputs()[0];
    const Node* top = out->owner();
    if (!top || acc->clients().size() != 1 || acc->clients()[0].node != top) return std::nullopt;
    const auto* sop = dynamic_cast<const ScalarOp*>(&top->op());
    if (!sop || !reduceFoldable(sop->code()) || out->type().dtype != acc->type().dtype) return std::nullopt;
    std::vector<Variable*> rest;
    for (Variable* v : top->inputs())
        if (v != acc) rest.push_back(v);
    if (rest.size() + 1 != static_cast<size_t>(top->numInputs()) || rest.empty()) return std::nullopt;
    if (rest.size() > 1 && sop->code() != ScalarOpCode::Add && sop->code() != ScalarOpCode::Mul) return std::nullopt;
    // e's graph: the inputs i1.. and the nodes e needs, then op over `rest` when there are several.
    GraphAssembler a;
    VariableMap map;
    // e never reads the accumulator (its one client is `top`), so the map's inputs are i1.. in order.
    for (size_t k = 1; k < g.inputs().size(); ++k) map[g.inputs()[k]] = a.addInput(g.inputs()[k]->type());
    std::vector<const Variable*> roots(rest.begin(), rest.end());
    for (Node* n : nodesFeedingInOrder(g, roots)) {
        std::vector<Variable*> ins;
        for (Variable* v : n->inputs()) {
            auto it = map.find(v);
            ins.push_back(it != map.end() ? it->second : (map[v] = copyConstant(a, *v, CopyIds::Fresh)));
        }
        Node* copy = copyNode(a, *n, std::move(ins), CopyIds::Fresh);
        map[n->output(0)] = copy->output(0);
    }
    std::vector<Variable*> mapped;
    for (Variable* v : rest) {
        auto it = map.find(v);
        mapped.push_back(it != map.end() ? it->second : (map[v] = copyConstant(a, *v, CopyIds::Fresh)));
    }
    Variable* e = mapped.size() == 1 ? mapped[0] : a.addNode(makeScalarOp(sop->code()), mapped)->output(0);
    if (e->type().dtype != acc->type().dtype) e = a.addNode(makeScalarOp(ScalarOpCode::Cast, acc->type().dtype), {e})->output(0);
    a.setOutputs({e});
    std::unique_ptr<Graph> eg = a.finish();
    return SplitComposite{sop->code(), ScalarProgram::compile(*eg)};
}

} // namespace

std::shared_ptr<const ReducePlan> planReduction(const ReduceOp& op, std::span<const DType> inputs) {
    auto plan = std::make_shared<ReducePlan>();
    plan->opName = op.name();
    plan->inputDTypes.assign(inputs.begin(), inputs.end());
    plan->accDType = op.accumulatorDType(inputs);
    plan->outDType = op.outputDType(inputs);
    const ReduceKind kind = op.reduceKind();
    plan->refuseEmpty = kind == ReduceKind::Max || kind == ReduceKind::Min;
    if (const CompositePtr& c = op.composite()) {
        if (auto split = splitComposite(*c)) {
            plan->foldCode = split->code;
            plan->map = split->map;
        } else {
            // Folded as it stands, from each output's first element (PyTensor's CAReduce
            // without an identity): a binary op on one dtype.
            if (c->numInputs() != 2 || c->inputDType(1) != c->inputDType(0))
                throw OpTypeError(op.name() + ": a Composite that is not op(i0, f(i1, ...)) is folded as a binary "
                                  "op and needs two inputs of the accumulator's dtype");
            plan->combine = std::shared_ptr<const ScalarProgram>(c, &c->program());
        }
        return plan;
    }
    plan->foldCode = op.scalarOp();
    // All and Any read x != 0 (PyTensor's make_node inserts neq for non-bool inputs).
    plan->asBool = kind == ReduceKind::All || kind == ReduceKind::Any;
    if (!reduceFoldKernels(*plan->foldCode, plan->accDType).into)
        throw OpTypeError(op.name() + ": cannot fold " + scalarOpName(*plan->foldCode) + " in " +
                          std::string(dtypeName(plan->accDType)));
    return plan;
}

const ReducePlan& ReducePlanCache::get(const ReduceOp& op, std::span<const DType> inputs) const {
    return m_plans.get(inputs, [&] {
        try {
            return planReduction(op, inputs);
        } catch (const OpTypeError& err) {
            throw ExecError(err.what());
        }
    });
}

} // namespace tl
