// elemwise_fusion: PyTensor's FusionOptimizer. Connected Elemwise nodes of one
// broadcast pattern (existing Composites included) become one multi-output
// Composite; a member value also read outside the group becomes an extra
// output, and a value computed twice inside the group is computed once.
//   Exp(x) - 5, Exp(x) * dx  ->  Composite{...}(x, dx) with outputs (exp(i0) - 5, exp(i0) * i1)
#include "core/HashMix.h"
#include "ir/GraphAssembler.h"
#include "ops/Elemwise.h"
#include "ops/ScalarOp.h"
#include "analysis/DestroyHandler.h"
#include "analysis/FusionGroups.h"
#include "rewrite/Rewrites.h"

#include <cstring>
#include <unordered_map>
#include <unordered_set>

namespace tl {

namespace {

constexpr std::string_view kName = "elemwise_fusion";

// A one-element constant that every element of the group may read as a scalar:
// a constant with all dims 1, or ExpandDims of a 0-d/one-element constant (what
// `exp(x) - 5` builds before constant folding). Inlined as a scalar constant, as
// PyTensor's local_inline_composite_constants does after fusion.
const NDArray* inlineableConstant(const Variable& v) {
    for (int64_t d : v.type().shape)
        if (d != 1) return nullptr;
    if (v.isConstant()) return v.constantValue().size() == 1 ? &v.constantValue() : nullptr;
    const Node* n = v.owner();
    if (n && n->op().kind() == OpKind::DimShuffle && n->numInputs() == 1 && n->input(0)->isConstant() &&
        !n->input(0)->type().isScalarType() && n->input(0)->constantValue().size() == 1 &&
        n->input(0)->type().dtype == v.type().dtype)
        return &n->input(0)->constantValue();
    return nullptr;
}

// Builds the scalar graph of one group; deduplicates equal scalar computations. A
// member output that a reader outside overwrites gets a composite output of its own:
// deduplicated into one shared with other readers, the overwrite would reach them.
class CompositeBuilder {
public:
    CompositeBuilder(const std::vector<Node*>& members, bool inlineConstants)
        : m_members(members), m_inline(inlineConstants) {
        for (Node* m : members) m_inGroup.insert(m);
    }

    /// False when the composite would have no inputs (all were inlined constants) or no
    /// outputs (every member is dead code no graph output needs).
    bool build() {
        for (Node* m : m_members) addMember(*m);
        for (Node* m : m_members)
            for (Variable* o : m->outputs())
                if (readOutside(*o))
                    m_replacements.emplace_back(o, overwrittenInPlace(*o) ? ownOutput(m_map.at(o)) : outputIndex(m_map.at(o)));
        if (m_externals.empty() || m_outputs.empty()) return false;
        m_scalar.setOutputs(m_outputs);
        return true;
    }
    /// The scalar graph, handed over (the builder keeps the outer-side tables).
    GraphAssembler takeScalarGraph() { return std::move(m_scalar); }
    const std::vector<Variable*>& externals() const { return m_externals; }
    /// (member output read outside the group, composite output index)
    const std::vector<std::pair<Variable*, int>>& replacements() const { return m_replacements; }

private:
    bool readOutside(const Variable& v) const {
        for (const Client& c : v.clients())
            if (!c.node || !m_inGroup.count(c.node)) return true;
        return false;
    }

    Variable* scalarConstant(const NDArray& value, DType dtype) {
        const NDArray v0 = value.ndim() == 0 ? value : value.view({}, {}, value.offset());
        std::string key = std::string(dtypeName(dtype)) + ":";
        key.append(static_cast<const char*>(v0.rawData()), dtypeSize(dtype));
        auto [it, fresh] = m_constants.emplace(std::move(key), nullptr);
        if (fresh) it->second = m_scalar.addConstant(v0.copy(), Type::scalar(dtype));
        return it->second;
    }

    Variable* scalarOf(Variable* v) {
        if (auto it = m_map.find(v); it != m_map.end()) return it->second;
        Variable* s;
        if (const NDArray* c = m_inline ? inlineableConstant(*v) : nullptr) {
            s = scalarConstant(*c, v->type().dtype);
        } else {
            s = m_scalar.addInput(Type::scalar(v->type().dtype));
            m_externals.push_back(v);
        }
        m_map[v] = s;
        return s;
    }

    /// The scalar op `code` (cast to `castTo`) on `ins`, computed once per group: the
    /// op is `op` when given, else made here (only when the computation is new).
    Variable* scalarNode(ScalarOpCode code, DType castTo, std::vector<Variable*> ins, const OpPtr& op = nullptr) {
        std::vector<int64_t> key;
        key.reserve(ins.size() + 2);
        key.push_back(static_cast<int64_t>(code));
        key.push_back(code == ScalarOpCode::Cast ? static_cast<int64_t>(castTo) : -1);
        for (Variable* v : ins) key.push_back(v->id());
        auto [it, fresh] = m_memo.emplace(std::move(key), nullptr);
        if (fresh) it->second = m_scalar.addNode(op ? op : makeScalarOp(code, castTo), std::move(ins))->output(0);
        return it->second;
    }
    Variable* scalarNode(const OpPtr& op, std::vector<Variable*> ins) {
        const auto& sop = static_cast<const ScalarOp&>(*op);  // a Composite holds only scalar ops
        return scalarNode(sop.code(), sop.castTo(), std::move(ins), op);
    }

    void addMember(const Node& m) {
        const auto& e = static_cast<const Elemwise&>(m.op());
        std::vector<Variable*> ins;
        for (Variable* v : m.inputs()) ins.push_back(scalarOf(v));
        if (!e.isComposite()) {
            m_map[m.output(0)] = scalarNode(e.scalarOp(), e.castTo(), std::move(ins));
            return;
        }
        const Graph& inner = *e.composite()->graph();
        std::unordered_map<const Variable*, Variable*> im;
        for (size_t k = 0; k < inner.inputs().size(); ++k) im[inner.inputs()[k]] = ins[k];
        auto mapped = [&](Variable* v) {
            return v->isConstant() ? scalarConstant(v->constantValue(), v->type().dtype) : im.at(v);
        };
        for (Node* n : inner.toposort()) {
            std::vector<Variable*> a;
            for (Variable* v : n->inputs()) a.push_back(mapped(v));
            im[n->output(0)] = scalarNode(n->opPtr(), std::move(a));
        }
        for (int k = 0; k < m.numOutputs(); ++k) m_map[m.output(k)] = mapped(inner.outputs()[k]);
    }

    int outputIndex(Variable* s) {
        if (!s->owner()) s = scalarNode(ScalarOpCode::Identity, DType::Float64, {s});  // an output must be computed
        auto [it, fresh] = m_outputIndex.emplace(s, static_cast<int>(m_outputs.size()));
        if (fresh) m_outputs.push_back(s);
        return it->second;
    }

    // A fresh output computing `s`, shared with no other.
    int ownOutput(Variable* s) {
        m_outputs.push_back(m_scalar.addNode(makeScalarOp(ScalarOpCode::Identity, DType::Float64), {s})->output(0));
        return static_cast<int>(m_outputs.size()) - 1;
    }

    const std::vector<Node*>& m_members;
    bool m_inline;
    std::unordered_set<const Node*> m_inGroup;
    GraphAssembler m_scalar;
    std::unordered_map<const Variable*, Variable*> m_map;  // outer variable -> scalar variable
    std::vector<Variable*> m_externals;
    std::unordered_map<std::vector<int64_t>, Variable*, IntListHash> m_memo;  // (code, cast, input ids) -> value
    std::unordered_map<std::string, Variable*> m_constants;
    std::vector<Variable*> m_outputs;
    std::unordered_map<const Variable*, int> m_outputIndex;
    std::vector<std::pair<Variable*, int>> m_replacements;
};

bool fuse(Rewriter& rewriter, const std::vector<Node*>& members) {
    auto builder = std::make_unique<CompositeBuilder>(members, true);
    if (!builder->build()) {
        builder = std::make_unique<CompositeBuilder>(members, false);
        if (!builder->build()) return false;  // dead members: nothing reads them
    }
    std::string ids;
    for (const Node* m : members) ids += (ids.empty() ? "" : ", ") + std::to_string(m->id());
    const NodeId root = members.back()->id();
    OpPtr op = makeCompositeElemwise(std::make_shared<const Composite>(builder->takeScalarGraph()));
    const auto& comp = *static_cast<const Elemwise&>(*op).composite();
    const std::string detail = std::to_string(members.size()) + " Elemwise nodes -> one Composite of " +
                               std::to_string(comp.numNodes()) + " scalar ops, " + std::to_string(comp.numInputs()) +
                               " inputs, " + std::to_string(comp.numOutputs()) + " outputs";

    {
        RewriteScope step(rewriter, kName, members.back());
        Node* fused = rewriter.create(op, builder->externals());
        const NodeId fusedId = fused->id();
        // Replacing prunes the members (their pointers die): everything needed is copied above.
        for (auto [old, k] : builder->replacements()) rewriter.replace(old, fused->output(k));
        rewriter.attribute(fusedId, "fused", "", ids, detail);
        rewriter.cloned(fusedId, root);
        step.setChanged();
    }
    return true;
}

class ElemwiseFusion final : public GraphPass {
public:
    std::string_view name() const override { return kName; }
    std::vector<std::string> tags() const override { return {"fast_run", "fusion", "elemwise"}; }
    bool run(Rewriter& rewriter, const RewriteOptions&) override {
        const std::vector<FusionGroup> groups = findFusionGroups(rewriter.graph());
        if (rewriter.wantsMatchFailures()) {
            std::unordered_set<const Node*> grouped;
            for (const FusionGroup& g : groups) grouped.insert(g.members.begin(), g.members.end());
            for (const Node* n : rewriter.graph().nodes())
                if (n->op().kind() == OpKind::Elemwise && !grouped.count(n))
                    rewriter.notifyMatchFailure(kName, *n, [n] {
                        if (static_cast<const Elemwise&>(n->op()).isScalarLoop()) return std::string("a ScalarLoop is never fused");
                        return std::string(isFuseableElemwise(*n)
                                               ? "no fuseable Elemwise of its broadcast pattern feeds it, reads it or shares its full-size input"
                                               : "it works inplace or has an output that is not a tensor of its broadcast pattern");
                    });
        }
        bool changed = false;
        for (const FusionGroup& g : groups) changed |= fuse(rewriter, g.members);
        return changed;
    }
};

} // namespace

std::unique_ptr<GraphPass> makeElemwiseFusion() { return std::make_unique<ElemwiseFusion>(); }

} // namespace tl
