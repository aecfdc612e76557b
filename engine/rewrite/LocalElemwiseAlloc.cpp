// local_elemwise_alloc: f(Alloc(x, dims), y) -> f(x, y) for an elementwise f whose other
// operands provably give its result the Alloc's shape already (every dim of the Alloc
// broadcasts into them, rw::broadcastsInto), so the broadcast array is never built:
//   Alloc(g, Shape_i(x, 0)) * x  ->  g * x     (g of shape (1,) or 0-d, x a vector)
// x gains leading broadcastable axes where the Alloc added dims. Several Allocs of one
// node go in turn, each checked against the operands that stay. PyTensor's version
// (position 1.52, after local_fill_to_alloc, shape_unsafe) needs only that the
// broadcastable patterns allow it and re-Allocs the result where they differ; this one
// leaves such a node alone.
#include "rewrite/DimSources.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct ElemwiseAllocMatch : RewriteMatch {
    std::vector<int> dropped;  // operands that are Allocs to replace by their values
};

class LocalElemwiseAlloc final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_elemwise_alloc"; }
    std::vector<std::string> tags() const override { return {"fast_run"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (!rw::plainElemwiseCode(node) || node.numInputs() < 2 || node.numOutputs() != 1)
            return MatchResult::fail("not a plain one-output Elemwise of two or more operands");
        const int rank = node.output(0)->type().ndim();
        auto m = std::make_unique<ElemwiseAllocMatch>();
        std::vector<bool> gone(static_cast<size_t>(node.numInputs()), false);
        std::vector<const Type*> types;
        std::vector<Type> expanded(static_cast<size_t>(node.numInputs()));
        for (int i = 0; i < node.numInputs(); ++i) {
            const Variable* in = node.input(i);
            const Node* alloc = in->owner();
            types.push_back(&in->type());
            if (!alloc || alloc->op().kind() != OpKind::Alloc || alloc->input(0)->type().ndim() > rank) continue;
            std::vector<const Variable*> rest;
            for (int j = 0; j < node.numInputs(); ++j)
                if (j != i && !gone[static_cast<size_t>(j)]) rest.push_back(node.input(j));
            if (!rw::broadcastsInto(*in, rest)) continue;
            gone[static_cast<size_t>(i)] = true;
            m->dropped.push_back(i);
            expanded[static_cast<size_t>(i)] = rw::expandedType(alloc->input(0)->type(), rank);
            types.back() = &expanded[static_cast<size_t>(i)];
        }
        if (m->dropped.empty()) return MatchResult::fail("no operand is an Alloc the others make unnecessary");
        try {
            if (!rw::compatibleTypes(node.op().inferTypes(types).at(0), node.output(0)->type()))
                return MatchResult::fail("without the Alloc the result's type would change");
        } catch (const OpTypeError&) {
            return MatchResult::fail("the operands without the Alloc do not type-check");
        }
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const ElemwiseAllocMatch&>(match);
        std::vector<Variable*> ins = node.inputs().toVector();
        for (int i : m.dropped)
            ins[static_cast<size_t>(i)] = rw::expandLeft(rewriter, ins[static_cast<size_t>(i)]->owner()->input(0),
                                                         node.output(0)->type().ndim());
        rewriter.replace(node.output(0), rewriter.create(node.opPtr(), std::move(ins))->output(0));
    }
};

} // namespace

const NodeRewrite& localElemwiseAlloc() {
    static const LocalElemwiseAlloc r;
    return r;
}

} // namespace tl
