// local_dimshuffle_lift, as PyTensor's (canonicalize):
//   DimShuffle(Elemwise(x, y))  -> Elemwise(DimShuffle(x), DimShuffle(y))   (the Elemwise
//                                  has one output and this DimShuffle is its only client)
//   DimShuffle(DimShuffle(x))   -> DimShuffle(x) with the composed order
//   DimShuffle{0, 1, ...}(x)    -> x   (also when it only moves or swaps length-1 axes)
// After it, chains of Elemwise carry no DimShuffle between them, so fusion sees one
// cluster. The DimShuffles pushed onto the inputs are composed or dropped at once.
#include "ops/DimShuffle.h"
#include "ops/Elemwise.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

/// PyTensor's is_dimshuffle_useless: every axis stays, or moves between length-1 axes.
bool isUseless(const std::vector<int>& order, const Type& in) {
    if (static_cast<int>(order.size()) != in.ndim()) return false;
    for (int i = 0; i < in.ndim(); ++i) {
        if (order[i] == i) continue;
        const bool targetBcast = order[i] == -1 || in.shape[order[i]] == 1;
        if (!(in.shape[i] == 1 && targetBcast)) return false;
    }
    return true;
}

/// The order of DimShuffle(order2) applied after DimShuffle(order1).
std::vector<int> compose(const std::vector<int>& order1, const std::vector<int>& order2) {
    std::vector<int> out;
    for (int a : order2) out.push_back(a == -1 ? -1 : order1[static_cast<size_t>(a)]);
    return out;
}

/// Where a DimShuffle with `order` applied to `v` really starts, and the order from there.
struct Shuffle {
    Variable* source;
    std::vector<int> order;
    bool identity;
};

Shuffle plan(Variable* v, const std::vector<int>& order) {
    Shuffle s{v, order, false};
    if (const Node* p = v->owner(); p && p->op().kind() == OpKind::DimShuffle) {
        s.source = p->input(0);
        s.order = compose(static_cast<const DimShuffleOp&>(p->op()).newOrder(), order);
    }
    s.identity = isUseless(s.order, s.source->type());
    return s;
}

Variable* build(Rewriter& rw, const Shuffle& s) {
    if (s.identity) return s.source;
    return rw.create(makeDimShuffle(s.source->type().ndim(), s.order), {s.source})->output(0);
}

struct LiftMatch : RewriteMatch {
    bool throughElemwise = false;
    std::vector<Shuffle> inputs;  // one per Elemwise input, or the single composed shuffle
};

class LocalDimshuffleLift final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_dimshuffle_lift"; }
    std::vector<std::string> tags() const override { return {"fast_run", "fast_compile", "canonicalize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::DimShuffle}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const auto& order = static_cast<const DimShuffleOp&>(node.op()).newOrder();
        Variable* in = node.input(0);
        const Node* p = in->owner();
        auto m = std::make_unique<LiftMatch>();
        if (p && p->op().kind() == OpKind::Elemwise && p->numOutputs() == 1 && in->clients().size() == 1 &&
            static_cast<const Elemwise&>(p->op()).inplacePattern().empty()) {
            m->throughElemwise = true;
            for (Variable* e : p->inputs()) m->inputs.push_back(plan(e, order));
            return MatchResult::ok(std::move(m));
        }
        Shuffle s = plan(in, order);
        if (!s.identity && s.source == in)
            return MatchResult::fail("the input is not an Elemwise with one client nor a DimShuffle, and the order moves axes");
        m->inputs.push_back(std::move(s));
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const LiftMatch&>(match);
        Variable* r;
        if (m.throughElemwise) {
            std::vector<Variable*> ins;
            for (const Shuffle& s : m.inputs) ins.push_back(build(rewriter, s));
            r = rewriter.create(node.input(0)->owner()->opPtr(), std::move(ins))->output(0);
        } else {
            r = build(rewriter, m.inputs.front());
        }
        rewriter.replace(node.output(0), r);
    }
};

} // namespace

const NodeRewrite& localDimshuffleLift() {
    static const LocalDimshuffleLift r;
    return r;
}

} // namespace tl
