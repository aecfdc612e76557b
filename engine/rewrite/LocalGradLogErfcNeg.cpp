// local_grad_log_erfc_neg: the gradient of log(erfc(x)),
//     [y *] exp(-x^2) / erfc(x)
// -> [y *] switch(x < t, exp(-x^2) / erfc(x), x sqrt(pi) / (1 - 1/(2x^2) + 3/(4x^4) - 15/(8x^6)))
// (PyTensor's local_grad_log_erfc_neg, stabilize and specialize). Past t both exp(-x^2)
// and erfc(x) underflow and the quotient is 0/0 = NaN; the series is its asymptote.
// t = 26.641747557 for float64 and 9.3 for float32, PyTensor's thresholds. The exponent
// may be written -(x^2), -1 * x^2 or -1 * x * x (nested products flattened), the factor
// y is any other operands of a product around the exp. PyTensor also takes
// exp(-2c w^2) / erfc(c w), which is the gradient's form only for c = 2; this rewrite
// takes x itself. The quotient it keeps under the switch is not matched again.
#include "rewrite/ErfcAsymptote.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <cmath>

namespace tl {

namespace {

using C = ScalarOpCode;

struct GradLogErfcMatch : RewriteMatch {
    Variable* x = nullptr;
    Variable* exp = nullptr;
    Variable* erfc = nullptr;
    std::vector<Variable*> factors;  // y
};

// The operands of a product, nested plain products flattened.
void productOperands(Variable* v, std::vector<Variable*>& out) {
    if (const Node* m = rw::elemwiseOwner(*v, C::Mul)) {
        for (Variable* in : m->inputs()) productOperands(in, out);
        return;
    }
    out.push_back(v);
}

// The x of -(x^2), -1 * x^2 or -1 * x * x; null for any other exponent.
const Variable* squareNegated(Variable* e) {
    if (const Node* n = rw::elemwiseOwner(*e, C::Neg)) {
        const Node* s = rw::elemwiseOwner(*n->input(0), C::Sqr);
        return s ? s->input(0) : nullptr;
    }
    if (!rw::elemwiseOwner(*e, C::Mul)) return nullptr;
    std::vector<Variable*> ops;
    productOperands(e, ops);
    std::vector<Variable*> rest;
    bool minusOne = false;
    for (Variable* v : ops) {
        if (!minusOne && rw::isConstantEqualTo(*v, -1.0)) minusOne = true;
        else rest.push_back(v);
    }
    if (!minusOne) return nullptr;
    if (rest.size() == 2 && rest[0] == rest[1]) return rest[0];
    if (rest.size() == 1)
        if (const Node* s = rw::elemwiseOwner(*rest[0], C::Sqr)) return s->input(0);
    return nullptr;
}

class LocalGradLogErfcNeg final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_grad_log_erfc_neg"; }
    std::vector<std::string> tags() const override { return {"fast_run", "stabilize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != C::TrueDiv) return MatchResult::fail("not a division");
        const Node* erfc = rw::elemwiseOwner(*node.input(1), C::Erfc);
        if (!erfc) return MatchResult::fail("the denominator is not erfc(x)");
        auto m = std::make_unique<GradLogErfcMatch>();
        m->erfc = erfc->output(0);
        m->x = erfc->input(0);
        Variable* num = node.input(0);
        if (rw::elemwiseOwner(*num, C::Exp)) {
            m->exp = num;
        } else if (const Node* mul = rw::elemwiseOwner(*num, C::Mul)) {
            for (Variable* in : mul->inputs()) {
                if (!m->exp && rw::elemwiseOwner(*in, C::Exp)) m->exp = in;
                else m->factors.push_back(in);
            }
        }
        if (!m->exp) return MatchResult::fail("the numerator is not exp(...) or a product with one");
        if (squareNegated(m->exp->owner()->input(0)) != m->x) return MatchResult::fail("the exponent is not -x^2 of erfc's x");
        const Type& xt = m->x->type();
        if (!isFloat(xt.dtype) || !(m->exp->type() == xt) || !(m->erfc->type() == xt))
            return MatchResult::fail("exp and erfc do not keep x's type");
        if (rw::isGuardedByAsymptote(*node.output(0), *m->x)) return MatchResult::fail("already guarded by the asymptote");
        std::vector<Type> ts{xt};
        for (const Variable* y : m->factors) ts.push_back(y->type());
        const std::optional<Type> t = m->factors.empty() ? std::optional<Type>(xt) : rw::elemwiseTypeOf(C::Mul, ts);
        if (!t || !(*t == node.output(0)->type())) return MatchResult::fail("the guarded form has another type");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const GradLogErfcMatch&>(match);
        const DType dt = m.x->type().dtype;
        auto c = [&](double v) { return rewriter.constant(NDArray::scalar(dt, v)); };
        auto op = [&](C code, std::vector<Variable*> ins) { return rw::makeElemwiseOf(rewriter, code, std::move(ins)); };
        Variable* x = m.x;
        Variable* series = rw::erfcAsymptoticSeries(rewriter, op(C::Mul, {x, x}), dt);
        Variable* asymptote = op(C::Mul, {op(C::Mul, {x, op(C::TrueDiv, {c(1.0), series})}), c(std::sqrt(M_PI))});
        const double threshold = dt == DType::Float32 ? 9.3 : 26.641747557;
        Variable* kept = op(C::TrueDiv, {m.exp, m.erfc});
        Variable* r = op(C::Switch, {op(C::Lt, {x, c(threshold)}), kept, asymptote});
        if (!m.factors.empty()) {
            std::vector<Variable*> ins{r};
            ins.insert(ins.end(), m.factors.begin(), m.factors.end());
            r = op(C::Mul, std::move(ins));
        }
        rewriter.replace(node.output(0), r);
    }
};

} // namespace

const NodeRewrite& localGradLogErfcNeg() {
    static const LocalGradLogErfcNeg r;
    return r;
}

} // namespace tl
