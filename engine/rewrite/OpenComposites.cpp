#include "rewrite/OpenComposites.h"

#include "ir/GraphAssembler.h"
#include "ir/GraphCopy.h"
#include "ops/Elemwise.h"
#include "ops/ScalarOp.h"

#include <cstring>
#include <optional>
#include <unordered_map>

namespace tl {

namespace {

const Elemwise* openable(const Node& n) {
    if (n.op().kind() != OpKind::Elemwise) return nullptr;
    const auto& e = static_cast<const Elemwise&>(n.op());
    if (!e.isComposite() || !e.inplacePattern().empty()) return nullptr;
    const Graph& body = *e.composite()->graph();
    for (const Node* b : body.nodes())
        if (b->op().kind() != OpKind::Scalar) return nullptr;  // a nested Composite: left fused
    for (const Variable* o : body.outputs())
        if (!o->owner()) return nullptr;  // an output that is an input or a constant has no node to stand for it
    return &e;
}

// The tensor of `rank` dims of 1 holding a body constant's value (bytes copied, so
// int64 constants stay exact).
NDArray broadcastConstant(const NDArray& scalar, int rank) {
    NDArray a = NDArray::empty(scalar.dtype(), Shape(static_cast<size_t>(rank), 1));
    std::memcpy(a.rawData(), scalar.rawData(), dtypeSize(scalar.dtype()));
    return a;
}

struct OpenedNode {
    OpPtr op;
    std::vector<int> inputs;  // >= 0: the Composite's input; < 0: -(k + 1), the k-th opened node's output
};

// The Elemwise nodes of `e`'s body over inputs of `inputTypes`, in body order, or
// nullopt when their types do not come out as the Composite's outputs.
struct OpenedBody {
    std::vector<OpenedNode> nodes;
    std::vector<std::pair<int, NDArray>> constants;  // input slots >= numInputs: constants
    std::vector<int> outputs;                         // opened node index per body output
};

std::optional<OpenedBody> openBody(const Elemwise& e, const std::vector<Type>& inputTypes,
                                   const std::vector<Type>& outputTypes) {
    const Graph& body = *e.composite()->graph();
    const int rank = outputTypes.empty() ? 0 : outputTypes[0].ndim();
    OpenedBody r;
    // Slot numbering: composite inputs 0..n-1, then constants, then node outputs as -(k + 1).
    std::unordered_map<const Variable*, int> slot;
    std::vector<Type> slotTypes = inputTypes;
    for (size_t i = 0; i < body.inputs().size(); ++i) slot[body.inputs()[i]] = static_cast<int>(i);
    std::vector<Type> nodeTypes;
    auto typeOf = [&](int s) -> const Type& { return s >= 0 ? slotTypes[s] : nodeTypes[-s - 1]; };
    std::unordered_map<const Node*, int> index;
    for (const Node* b : body.toposort()) {
        OpenedNode on;
        for (const Variable* in : b->inputs()) {
            auto it = slot.find(in);
            if (it == slot.end()) {
                if (!in->isConstant()) return std::nullopt;
                const int s = static_cast<int>(slotTypes.size());
                NDArray value = broadcastConstant(in->constantValue(), rank);
                slotTypes.push_back(Type::tensor(value.dtype(), StaticShape(static_cast<size_t>(rank), 1)));
                r.constants.push_back({s, std::move(value)});
                it = slot.emplace(in, s).first;
            }
            on.inputs.push_back(it->second);
        }
        const auto& sop = static_cast<const ScalarOp&>(b->op());
        on.op = makeElemwise(sop.code(), sop.castTo());
        std::vector<const Type*> ins;
        for (int s : on.inputs) ins.push_back(&typeOf(s));
        std::vector<Type> outs;
        try {
            outs = on.op->inferTypes(ins);
        } catch (const std::exception&) {
            return std::nullopt;
        }
        if (outs.size() != 1) return std::nullopt;
        nodeTypes.push_back(outs[0]);
        const int k = static_cast<int>(r.nodes.size());
        index[b] = k;
        slot[b->output(0)] = -(k + 1);
        r.nodes.push_back(std::move(on));
    }
    for (size_t o = 0; o < body.outputs().size(); ++o) {
        const int k = index.at(body.outputs()[o]->owner());
        if (!(nodeTypes[k] == outputTypes[o])) return std::nullopt;
        r.outputs.push_back(k);
    }
    return r;
}

} // namespace

bool hasOpenableComposite(const Graph& step) {
    for (const Node* n : step.nodes())
        if (openable(*n)) return true;
    return false;
}

std::unique_ptr<Graph> openComposites(const Graph& step) {
    if (!hasOpenableComposite(step)) return nullptr;
    GraphAssembler g;
    g.reserveIds(step.nextNodeId(), step.nextVarId());
    VariableMap map;
    for (const Variable* in : step.inputs()) map[in] = g.addInput(in->type(), in->name(), in->id());
    for (const Variable* c : step.constants()) map[c] = copyConstant(g, *c, CopyIds::Keep);
    bool opened = false;
    for (const Node* n : step.toposort()) {
        std::vector<Variable*> ins;
        for (const Variable* in : n->inputs()) ins.push_back(map.at(in));
        std::optional<OpenedBody> body;
        if (const Elemwise* e = openable(*n)) {
            std::vector<Type> inTypes, outTypes;
            for (const Variable* in : n->inputs()) inTypes.push_back(in->type());
            for (const Variable* o : n->outputs()) outTypes.push_back(o->type());
            body = openBody(*e, inTypes, outTypes);
        }
        if (!body) {
            Node* c = copyNode(g, *n, ins, CopyIds::Keep);
            for (int k = 0; k < n->numOutputs(); ++k) map[n->output(k)] = c->output(k);
            continue;
        }
        std::vector<Variable*> slots = ins;
        for (auto& [s, value] : body->constants) {
            slots.resize(static_cast<size_t>(s) + 1, nullptr);
            slots[s] = g.addConstant(value);
        }
        std::vector<Variable*> made;
        for (const OpenedNode& on : body->nodes) {
            std::vector<Variable*> args;
            for (int s : on.inputs) args.push_back(s >= 0 ? slots[s] : made[-s - 1]);
            made.push_back(g.addNode(on.op, std::move(args))->output(0));
        }
        for (int k = 0; k < n->numOutputs(); ++k) {
            map[n->output(k)] = made[body->outputs[k]];
            if (!n->output(k)->name().empty()) g.setVariableName(made[body->outputs[k]], n->output(k)->name());
        }
        opened = true;
    }
    if (!opened) return nullptr;
    std::vector<Variable*> outs;
    for (const Variable* o : step.outputs()) outs.push_back(map.at(o));
    g.setOutputs(std::move(outs));
    return g.finish();
}

} // namespace tl
