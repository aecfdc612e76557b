// local_useless_switch: a switch that cannot choose, as PyTensor's:
//   switch(c, a, b) with c a constant holding one value -> a where it is nonzero, else b
//   switch(c, a, a), or two constants of one value       -> a
//   switch(le(Shape_i(x), 0), 0, Shape_i(x))             -> Shape_i(x)  (a length is never
//                                                           negative; scan builds this)
// cast to the switch's dtype. PyTensor broadcasts the kept branch to the output's
// pattern when the condition or the other branch would have stretched it; tensorlens
// keeps the switch then (the branch must already have the output's rank and length-1
// dims), so the rewrite never adds an Alloc.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct KeptBranch : RewriteMatch {
    Variable* branch = nullptr;
};

bool isLengthOf(const Variable& v) { return v.owner() && v.owner()->op().kind() == OpKind::ShapeI; }

// switch(le(Shape_i(x), 0), 0, Shape_i(x)): the length itself.
bool isClampedLength(const Node& sw) {
    const Variable* cond = sw.input(0);
    Node* le = rw::elemwiseOwner(*cond, ScalarOpCode::Le);
    if (!le || sw.output(0)->type().ndim() != 0) return false;
    return isLengthOf(*le->input(0)) && rw::isConstantEqualTo(*le->input(1), 0.0) &&
           rw::isConstantEqualTo(*sw.input(1), 0.0) && sw.input(2) == le->input(0);
}

bool sameConstant(const Variable& a, const Variable& b) {
    auto x = rw::uniqueValue(a), y = rw::uniqueValue(b);
    return x && y && a.type().shape == b.type().shape && x->flatGet(0) == y->flatGet(0);
}

class LocalUselessSwitch final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_useless_switch"; }
    std::vector<std::string> tags() const override {
        return {"fast_run", "fast_compile", "useless", "canonicalize", "specialize", "shape_unsafe"};
    }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        if (rw::plainElemwiseCode(node) != ScalarOpCode::Switch) return MatchResult::fail("not a switch");
        Variable* kept = nullptr;
        if (auto c = rw::uniqueValue(*node.input(0)))
            kept = node.input(c->flatGet(0) != 0 ? 1 : 2);
        else if (node.input(1) == node.input(2) || sameConstant(*node.input(1), *node.input(2)))
            kept = node.input(1);
        else if (isClampedLength(node))
            kept = node.input(2);
        if (!kept) return MatchResult::fail(options, [] { return std::string("the switch depends on its condition"); });
        if (!rw::sameBroadcastPattern(kept->type(), node.output(0)->type()))
            return MatchResult::fail("the condition or the other branch broadcasts the kept branch");
        auto m = std::make_unique<KeptBranch>();
        m->branch = kept;
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        Variable* branch = static_cast<const KeptBranch&>(match).branch;
        rewriter.replace(node.output(0), rw::castTo(rewriter, branch, node.output(0)->type().dtype));
    }
};

} // namespace

const NodeRewrite& localUselessSwitch() {
    static const LocalUselessSwitch r;
    return r;
}

} // namespace tl
