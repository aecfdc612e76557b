// local_pow_canonicalize: powers with nothing to compute, in canonicalize so that the
// canonizers see the plain value (the gradient of x ** 2 is 2 * x ** 1):
//   x ** 1 -> x,   x ** 0 -> ones like x,   1 ** y -> ones like y
// cast to the power's dtype. IEEE pow gives 1 for x ** 0 and 1 ** y even where x or y
// is NaN, so these hold for every value. As PyTensor's, except that where the other
// operand would broadcast the result (a vector exponent of a scalar x), PyTensor
// builds broadcast_arrays and tensorlens keeps the power (local_pow_specialize then
// sees the same node in specialize).
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct KnownPower : RewriteMatch {
    Variable* same = nullptr;  // x ** 1: x, or
    Variable* like = nullptr;  // ones shaped like this operand
};

class LocalPowCanonicalize final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_pow_canonicalize"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        if (rw::plainElemwiseCode(node) != ScalarOpCode::Pow) return MatchResult::fail("not pow");
        Variable* x = node.input(0);
        Variable* y = node.input(1);
        auto m = std::make_unique<KnownPower>();
        if (rw::isConstantEqualTo(*x, 1.0)) m->like = y;
        else if (rw::isConstantEqualTo(*y, 0.0)) m->like = x;
        else if (rw::isConstantEqualTo(*y, 1.0)) m->same = x;
        Variable* kept = m->same ? m->same : m->like;
        if (!kept) return MatchResult::fail(options, [] { return std::string("neither 1 ** y, x ** 0 nor x ** 1"); });
        if (!rw::sameBroadcastPattern(kept->type(), node.output(0)->type()))
            return MatchResult::fail("the other operand broadcasts the result");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const KnownPower&>(match);
        const DType dtype = node.output(0)->type().dtype;
        rewriter.replace(node.output(0), m.same ? rw::castTo(rewriter, m.same, dtype) : rw::fullLike(rewriter, dtype, 1, m.like));
    }
};

} // namespace

const NodeRewrite& localPowCanonicalize() {
    static const LocalPowCanonicalize r;
    return r;
}

} // namespace tl
