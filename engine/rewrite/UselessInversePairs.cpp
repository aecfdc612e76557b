// useless_<f>_of_<g>: f(g(x)) -> x for the pairs of elementwise functions that undo each
// other, as PyTensor's pattern rewrites of the same names (canonicalize, specialize):
// neg and neg, reciprocal and reciprocal, tanh and arctanh, sinh and arcsinh, deg2rad
// and rad2deg each way round, and cosh(arccosh(x)). As PyTensor's, x is returned also
// where g is undefined (tanh(arctanh(2)) is NaN, the rewrite gives 2; cosh(arccosh(x))
// for x < 1 likewise) and where g overflows or loses digits (arctanh(tanh(20)) is inf).
// Not arccosh(cosh(x)), which PyTensor also rewrites to x: it is |x|, a different number
// for every negative x. The result is cast to f's dtype when g(x) changed it.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <array>
#include <string>

namespace tl {

namespace {

class UselessInversePair final : public NodeRewrite {
public:
    UselessInversePair(ScalarOpCode outer, ScalarOpCode inner)
        : m_outer(outer), m_inner(inner),
          m_name("useless_" + elemwiseOpName(outer) + "_of_" + elemwiseOpName(inner)) {}

    std::string_view name() const override { return m_name; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != m_outer) return MatchResult::fail("not the outer function");
        if (!rw::elemwiseOwner(*node.input(0), m_inner)) return MatchResult::fail("not of the inverse function");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        Variable* x = node.input(0)->owner()->input(0);
        rewriter.replace(node.output(0), rw::castTo(rewriter, x, node.output(0)->type().dtype));
    }

private:
    ScalarOpCode m_outer, m_inner;
    std::string m_name;
};

} // namespace

const std::vector<const NodeRewrite*>& uselessInversePairs() {
    using C = ScalarOpCode;
    static const std::array<UselessInversePair, 9> pairs{{
        {C::Deg2Rad, C::Rad2Deg}, {C::Rad2Deg, C::Deg2Rad}, {C::Cosh, C::ArcCosh},
        {C::Tanh, C::ArcTanh}, {C::ArcTanh, C::Tanh}, {C::Sinh, C::ArcSinh}, {C::ArcSinh, C::Sinh},
        {C::Neg, C::Neg}, {C::Reciprocal, C::Reciprocal},
    }};
    static const std::vector<const NodeRewrite*> list = [] {
        std::vector<const NodeRewrite*> v;
        for (const UselessInversePair& p : pairs) v.push_back(&p);
        return v;
    }();
    return list;
}

} // namespace tl
