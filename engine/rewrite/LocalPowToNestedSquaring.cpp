// local_pow_to_nested_squaring: pow(x, n) for an integer constant |n| <= 512 becomes
// repeated squaring, as PyTensor's local_pow_to_nested_squaring:
//   pow(x, 3)  -> Composite{(sqr(i0) * i0)}(x)
//   pow(x, 6)  -> Composite{(sqr(sqr(i0)) * sqr(i0))}(x)
//   pow(x, -3) -> reciprocal(Composite{(sqr(i0) * i0)}(x))
// The binary digits of |n| from the highest: x^(2^k) is k squarings, the product of
// the ones |n| needs. |n| <= 2 gives plain nodes (sqr, or x itself), larger powers
// one Composite (so fusion does not see a tower of Elemwise nodes). Runs after
// local_pow_specialize in the same driver, which has already taken 0, ±1, ±2 and
// ±0.5. As there, x is cast to the output's dtype first, only an exponent that does
// not broadcast x qualifies, and a negative one needs a float output.
#include "ir/GraphAssembler.h"
#include "ops/Elemwise.h"
#include "ops/ScalarOp.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <cmath>

namespace tl {

namespace {

constexpr int64_t kMaxExponent = 512;  // PyTensor's bound

struct NestedSquaringMatch : RewriteMatch {
    int64_t n = 0;  // the exponent
};

// The scalar graph of x^|n| over one input of `dtype`: squarings, then the product
// of the powers |n|'s binary digits select, the highest first (PyTensor's order).
std::unique_ptr<Graph> squaringGraph(int64_t n, DType dtype) {
    GraphAssembler a;
    std::vector<Variable*> pow2{a.addInput(Type::scalar(dtype))};
    while ((int64_t{1} << pow2.size()) <= n) pow2.push_back(a.addNode(makeScalarOp(ScalarOpCode::Sqr), {pow2.back()})->output(0));
    Variable* product = nullptr;
    for (int k = static_cast<int>(pow2.size()) - 1; k >= 0; --k) {
        if (!(n & (int64_t{1} << k))) continue;
        product = product ? a.addNode(makeScalarOp(ScalarOpCode::Mul), {product, pow2[k]})->output(0) : pow2[k];
    }
    a.setOutputs({product});
    return a.finish();
}

class LocalPowToNestedSquaring final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_pow_to_nested_squaring"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const char* why = "";
        const auto exponent = rw::powExponentKeepingShape(node, why);
        if (!exponent) return MatchResult::fail(why);
        const double e = *exponent;
        if (!(std::abs(e) <= static_cast<double>(kMaxExponent)) || e != std::trunc(e) || e == 0.0)
            return MatchResult::fail(options, [&] { return "exponent " + std::to_string(e) + " is not a nonzero integer up to 512"; });
        const Variable* x = node.input(0);
        const Type& out = node.output(0)->type();
        if (e < 0 && !isFloat(out.dtype)) return MatchResult::fail("a reciprocal would turn the integer power into a float");
        if (out.dtype == DType::Bool || !rw::elemwiseTypeOf(ScalarOpCode::Sqr, {Type::tensor(out.dtype, x->type().shape)}))
            return MatchResult::fail("sqr rejects the output's dtype");
        auto m = std::make_unique<NestedSquaringMatch>();
        m->n = static_cast<int64_t>(e);
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const int64_t n = static_cast<const NestedSquaringMatch&>(match).n;
        const int64_t a = n < 0 ? -n : n;
        const DType out = node.output(0)->type().dtype;
        Variable* v = rw::castTo(rewriter, node.input(0), out);
        if (a == 2) v = rw::makeElemwiseOf(rewriter, ScalarOpCode::Sqr, {v});
        else if (a > 2) v = rewriter.create(makeCompositeElemwise(*squaringGraph(a, out)), {v})->output(0);
        if (n < 0) v = rw::makeElemwiseOf(rewriter, ScalarOpCode::Reciprocal, {v});
        rewriter.replace(node.output(0), v);
    }
};

} // namespace

const NodeRewrite& localPowToNestedSquaring() {
    static const LocalPowToNestedSquaring r;
    return r;
}

} // namespace tl
