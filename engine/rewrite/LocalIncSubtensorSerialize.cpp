// local_IncSubtensor_serialize (PyTensor's, canonicalize and its own walk just before
// it): a sum whose terms include increments of subtensors becomes one chain of
// increments on the sum of the rest,
//   add(x, inc(b, c, i), inc(b, d, j))  ->  inc(inc(add(x, b, b), c, i), d, j)
// The gradient of f(a[0], a[1], a[2]) with respect to a is a sum of three
// IncSubtensor(zeros_like(a), g_k, k): three arrays the size of a, only to be added.
// As a chain, the zeros add away in canonicalize and each increment can later work
// in place on the one buffer. Movable terms: IncSubtensor, AdvancedIncSubtensor1 and
// AdvancedIncSubtensor that add (not set), are read only by this sum, and already
// have the sum's full shape (each later increment must land on an array of that shape).
#include "ops/AdvancedIncSubtensor.h"
#include "ops/IncSubtensor.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

bool addsIntoSubtensor(const Node& n) {
    switch (n.kind()) {
    case OpKind::IncSubtensor: return !static_cast<const IncSubtensorOp&>(n.op()).setInsteadOfInc();
    case OpKind::AdvancedIncSubtensor1: return !static_cast<const AdvancedIncSubtensor1Op&>(n.op()).setInsteadOfInc();
    case OpKind::AdvancedIncSubtensor: return !static_cast<const AdvancedIncSubtensorOp&>(n.op()).setInsteadOfInc();
    default: return false;
    }
}

// PyTensor's `movable`: an increment of the sum's whole shape that only the sum reads.
bool movable(const Variable& term, const Type& sum) {
    const Node* inc = term.owner();
    return inc && addsIntoSubtensor(*inc) && term.type().accepts(sum) && term.clients().size() == 1;
}

struct SerializeMatch : RewriteMatch {
    Node* sum = nullptr;  // the add the increment is a term of
};

// Rooted at the increments, not at the add: a graph without increments (most) costs
// this rewrite nothing, not a look at every add.
class LocalIncSubtensorSerialize final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_IncSubtensor_serialize"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize"}; }
    std::vector<OpKind> rootKinds() const override {
        return {OpKind::IncSubtensor, OpKind::AdvancedIncSubtensor1, OpKind::AdvancedIncSubtensor};
    }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const Variable& term = *node.output(0);
        if (term.clients().size() != 1 || term.clients().front().isGraphOutput())
            return MatchResult::fail("not read by exactly one node");
        Node* sum = term.clients().front().node;
        if (rw::plainElemwiseCode(*sum) != ScalarOpCode::Add) return MatchResult::fail("its reader is not an add");
        if (!movable(term, sum->output(0)->type()))
            return MatchResult::fail("not an increment (a set), or not of the sum's shape");
        auto m = std::make_unique<SerializeMatch>();
        m->sum = sum;
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node&, const RewriteMatch& match, const RewriteOptions&) const override {
        Node& sum = *static_cast<const SerializeMatch&>(match).sum;
        const Type& sumType = sum.output(0)->type();
        std::vector<Variable*> rest, moved;
        for (Variable* in : sum.inputs()) (movable(*in, sumType) ? moved : rest).push_back(in);
        for (Variable* m : moved) rest.push_back(m->owner()->input(0));
        // PyTensor's variadic_add: one term is itself.
        Variable* tip = rest.size() == 1 ? rest[0] : rw::makeElemwiseOf(rewriter, ScalarOpCode::Add, std::move(rest));
        for (Variable* m : moved) {
            std::vector<Variable*> ins(m->owner()->inputs().begin(), m->owner()->inputs().end());
            ins[0] = tip;
            tip = rewriter.create(m->owner()->opPtr(), std::move(ins))->output(0);
        }
        rewriter.replace(sum.output(0), tip);
    }
};

} // namespace

const NodeRewrite& localIncSubtensorSerialize() {
    static const LocalIncSubtensorSerialize r;
    return r;
}

} // namespace tl
