// local_pow_specialize: powers by a few constant exponents become cheaper ops, as
// PyTensor's local_pow_specialize:
//   pow(x, 2) -> sqr(x)      pow(x, 1) -> x       pow(x, 0.5) -> sqrt(x)
//   pow(x, 0) -> ones like x                      pow(x, -1) -> reciprocal(x)
//   pow(x, -2) -> reciprocal(sqr(x))              pow(x, -0.5) -> reciprocal(sqrt(x))
// on x cast to the output's dtype when they differ. Only when the exponent does not
// broadcast x (the result keeps the output's shape). The reciprocal forms only for a
// float output: reciprocal of an integer is a float, where pow stays an integer.
// Other integer exponents are local_pow_to_nested_squaring's.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

// What pow(x, e) becomes: `ops` applied to x in order (none: x itself), or ones.
struct PowMatch : RewriteMatch {
    bool ones = false;
    std::vector<ScalarOpCode> ops;
};

class LocalPowSpecialize final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_pow_specialize"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const char* why = "";
        const auto exponent = rw::powExponentKeepingShape(node, why);
        if (!exponent) return MatchResult::fail(why);
        const Variable* x = node.input(0);
        const Type& out = node.output(0)->type();
        auto m = std::make_unique<PowMatch>();
        using C = ScalarOpCode;
        const double e = *exponent;
        if (e == 2.0) m->ops = {C::Sqr};
        else if (e == 0.5) m->ops = {C::Sqrt};
        else if (e == 0.0) m->ones = true;
        else if (e == -1.0) m->ops = {C::Reciprocal};
        else if (e == -2.0) m->ops = {C::Sqr, C::Reciprocal};
        else if (e == -0.5) m->ops = {C::Sqrt, C::Reciprocal};
        else if (e != 1.0) return MatchResult::fail(options, [&] { return std::string("exponent " + std::to_string(e) + " has no cheaper form here"); });
        if (e < 0 && !isFloat(out.dtype)) return MatchResult::fail("a reciprocal would turn the integer power into a float");
        Type t = Type::tensor(out.dtype, x->type().shape);
        for (C op : m->ops) {
            auto next = rw::elemwiseTypeOf(op, {t});
            if (!next || next->dtype != out.dtype) return MatchResult::fail("the cheaper op rejects x's dtype");
            t = *next;
        }
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const PowMatch&>(match);
        const DType out = node.output(0)->type().dtype;
        Variable* x = node.input(0);
        if (m.ones) {
            // PyTensor's alloc_like(1, x): x's shape (known dims as constants, Shape_i
            // for the others); a 0-d x needs no Alloc.
            const NDArray one = rw::scalarArray(out, 1);
            rewriter.replace(node.output(0), x->type().ndim() == 0 ? rewriter.constant(one) : rw::fillLike(rewriter, one, x));
            return;
        }
        // Cast first, then square: pow computes in the output dtype, and so must sqr
        // (PyTensor casts after, which rounds float32 squares and wraps int8 ones).
        Variable* v = rw::castTo(rewriter, x, out);
        for (ScalarOpCode op : m.ops) v = rw::makeElemwiseOf(rewriter, op, {v});
        rewriter.replace(node.output(0), v);
    }
};

} // namespace

const NodeRewrite& localPowSpecialize() {
    static const LocalPowSpecialize r;
    return r;
}

} // namespace tl
