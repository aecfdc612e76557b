// local_careduce_fusion: PyTensor's rewrite of the same name (rewriting/elemwise.py,
// fusion phase after elemwise_fusion). A Sum or Prod of an Elemwise becomes one
// CAReduce over a Composite that folds the elementwise value into the accumulator,
// so the elementwise result is never stored:
//   Sum{axis=1}(Composite{sqr((i0 - i1))}(x, y))  ->  CAReduce{Composite{(i0 + sqr((i1 - i2)))}, axis=1}(x, y)
// As PyTensor: only reductions of add or mul, only a single-output Elemwise whose
// result nothing else reads. tensorlens differs in one point: PyTensor 2.34 fuses
// an Elemwise of one input only (its code leaves several inputs as a TODO, and it
// runs before constants are inlined into Composites), tensorlens any number of
// inputs, broadcast as the Elemwise broadcast them (docs/rewrites/local_careduce_fusion.md).
#include "ir/GraphAssembler.h"
#include "ops/Elemwise.h"
#include "ops/Reduce.h"
#include "ops/ScalarOp.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <unordered_map>

namespace tl {

namespace {

constexpr std::string_view kName = "local_careduce_fusion";

struct CareduceMatch : RewriteMatch {
    const Node* elemwise = nullptr;
};

// A one-element constant that broadcasts (all dims 1), held in the Composite as a
// scalar constant, as elemwise_fusion inlines them.
std::optional<NDArray> inlineable(const Variable& v) {
    for (int64_t d : v.type().shape)
        if (d != 1) return std::nullopt;
    return rw::uniqueValue(v);
}

// The reduction's scalar graph: acc, then the Elemwise's inputs that are not
// inlined constants as scalars (`kept` lists them); output fold(acc,
// elemwise(inputs)), in the accumulator's dtype.
std::unique_ptr<Graph> foldedGraph(const ReduceOp& reduce, const Node& elem, DType acc, std::vector<Variable*>* kept) {
    const auto& e = static_cast<const Elemwise&>(elem.op());
    GraphAssembler g;
    Variable* carried = g.addInput(Type::scalar(acc));
    std::vector<std::optional<NDArray>> constants;
    size_t variables = 0;
    for (Variable* v : elem.inputs()) {
        constants.push_back(inlineable(*v));
        variables += constants.back() ? 0 : 1;
    }
    if (variables == 0) constants.assign(constants.size(), std::nullopt);  // keep the shape's inputs
    std::vector<Variable*> ins;
    for (size_t i = 0; i < elem.inputs().size(); ++i) {
        Variable* v = elem.inputs()[i];
        if (constants[i]) {
            ins.push_back(g.addConstant(constants[i]->astype(v->type().dtype), Type::scalar(v->type().dtype)));
        } else {
            ins.push_back(g.addInput(Type::scalar(v->type().dtype)));
            kept->push_back(v);
        }
    }
    Variable* value;
    if (!e.isComposite()) {
        value = g.addNode(makeScalarOp(e.scalarOp(), e.castTo()), ins)->output(0);
    } else {
        // The Composite's body inlined (PyTensor's Composite flattens nested Composites too).
        const Graph& body = *e.composite()->graph();
        std::unordered_map<const Variable*, Variable*> map;
        for (size_t k = 0; k < body.inputs().size(); ++k) map[body.inputs()[k]] = ins[k];
        auto mapped = [&](Variable* v) -> Variable* {
            if (auto it = map.find(v); it != map.end()) return it->second;
            return map[v] = g.addConstant(v->constantValue().copy(), v->type());
        };
        for (Node* n : body.toposort()) {
            std::vector<Variable*> a;
            for (Variable* v : n->inputs()) a.push_back(mapped(v));
            map[n->output(0)] = g.addNode(n->opPtr(), std::move(a))->output(0);
        }
        value = mapped(body.outputs()[0]);
    }
    Variable* out = g.addNode(makeScalarOp(reduce.scalarOp()), {carried, value})->output(0);
    if (out->type().dtype != acc) out = g.addNode(makeScalarOp(ScalarOpCode::Cast, acc), {out})->output(0);
    g.setOutputs({out});
    return g.finish();
}

class LocalCareduceFusion final : public NodeRewrite {
public:
    std::string_view name() const override { return kName; }
    std::vector<std::string> tags() const override { return {"fast_run", "fusion"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Reduce}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const auto& op = static_cast<const ReduceOp&>(node.op());
        if (op.composite()) return MatchResult::fail("the reduction is fused already");
        if (op.scalarOp() != ScalarOpCode::Add && op.scalarOp() != ScalarOpCode::Mul)
            return MatchResult::fail("only reductions of add or mul are fused (PyTensor's rule)");
        const Node* elem = node.input(0)->owner();
        if (!elem || elem->op().kind() != OpKind::Elemwise) return MatchResult::fail("the reduced value is not an Elemwise's");
        if (elem->numOutputs() != 1) return MatchResult::fail("the Elemwise has several outputs");
        if (node.input(0)->clients().size() != 1)
            return MatchResult::fail(options, [&] {
                return elem->label() + "'s result has " + std::to_string(node.input(0)->clients().size()) +
                       " readers: fusing would compute it twice";
            });
        if (!static_cast<const Elemwise&>(elem->op()).inplacePattern().empty())
            return MatchResult::fail("the Elemwise works in place");
        if (static_cast<const Elemwise&>(elem->op()).isScalarLoop()) return MatchResult::fail("a ScalarLoop is not fused");
        auto m = std::make_unique<CareduceMatch>();
        m->elemwise = elem;
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& op = static_cast<const ReduceOp&>(node.op());
        const Node& elem = *static_cast<const CareduceMatch&>(match).elemwise;
        std::vector<DType> inDTypes{node.input(0)->type().dtype};
        const DType acc = op.accumulatorDType(inDTypes);
        std::vector<Variable*> ins;
        auto composite = std::make_shared<const Composite>(*foldedGraph(op, elem, acc, &ins));
        ReduceParams params = op.reduceParams();
        params.dtype = node.output(0)->type().dtype;  // what the Sum or Prod gave, as PyTensor passes car_op.dtype
        params.accDType = acc;
        params.noZerosInInput = false;
        OpPtr fused = makeCAReduce(composite, op.axes(), params);
        Node* created = rewriter.create(fused, ins);
        rewriter.attribute(created->id(), "fused", "", std::to_string(elem.id()) + ", " + std::to_string(node.id()),
                           elem.op().name() + " folded into " + op.name());
        rewriter.replace(node.output(0), created->output(0));
    }
};

} // namespace

const NodeRewrite& localCareduceFusion() {
    static const LocalCareduceFusion r;
    return r;
}

} // namespace tl
