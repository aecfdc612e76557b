// local_pow_specialize: powers by a few constant exponents become cheaper ops, as
// PyTensor's local_pow_specialize:
//   pow(x, 2) -> sqr(x)     pow(x, 1) -> x     pow(x, 0.5) -> sqrt(x)
// on x cast to the output's dtype when they differ. Only when the exponent does not
// broadcast x (the result keeps the output's shape). PyTensor's other cases (0, -1,
// -0.5, -2) need ones_like or reciprocal, which tensorlens does not build here.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct PowMatch : RewriteMatch {
    std::optional<ScalarOpCode> op;  // none: x itself
};

class LocalPowSpecialize final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_pow_specialize"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        auto code = rw::plainElemwiseCode(node);
        if (!code || *code != ScalarOpCode::Pow) return MatchResult::fail("not pow");
        auto y = rw::uniqueValue(*node.input(1));
        if (!y) return MatchResult::fail("the exponent is not a constant");
        const Variable* x = node.input(0);
        const Type& out = node.output(0)->type();
        if (x->type().ndim() != out.ndim() || !out.accepts(Type::tensor(out.dtype, x->type().shape)) ||
            !rw::sameBroadcastPattern(x->type(), out))
            return MatchResult::fail("the exponent broadcasts x");
        auto m = std::make_unique<PowMatch>();
        const double e = y->item();
        if (e == 2.0) m->op = ScalarOpCode::Sqr;
        else if (e == 0.5) m->op = ScalarOpCode::Sqrt;
        else if (e != 1.0) return MatchResult::fail(options, [&] { return std::string("exponent " + std::to_string(e) + " has no cheaper form here"); });
        if (m->op) {
            auto t = rw::elemwiseTypeOf(*m->op, {Type::tensor(out.dtype, x->type().shape)});
            if (!t) return MatchResult::fail("the cheaper op rejects x's dtype");
        }
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const PowMatch&>(match);
        // Cast first, then square: pow computes in the output dtype, and so must sqr
        // (PyTensor casts after, which rounds float32 squares and wraps int8 ones).
        Variable* x = rw::castTo(rewriter, node.input(0), node.output(0)->type().dtype);
        rewriter.replace(node.output(0), m.op ? rw::makeElemwiseOf(rewriter, *m.op, {x}) : x);
    }
};

} // namespace

const NodeRewrite& localPowSpecialize() {
    static const LocalPowSpecialize r;
    return r;
}

} // namespace tl
