// local_mul_specialize: constant factors 1 and -1 and nested negations leave a
// product, as PyTensor's local_mul_specialize (after canonicalize, mul may have many
// inputs):
//   mul(1, x, y) -> mul(x, y)      mul(-1, x) -> neg(x)      mul(neg(x), y) -> mul(-1, x, y)
//   mul(1, x)    -> x
// Not: mul(-1, x, y) (it would only trade a constant for a neg node). PyTensor turns
// mul(0, ...) into zeros; tensorlens keeps it (0 * inf is nan). Only when the result
// keeps the output's shape (a dropped constant must not have broadcast the rest).
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct MulMatch : RewriteMatch {
    std::vector<Variable*> rest;
    bool negate = false;
};

class LocalMulSpecialize final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_mul_specialize"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        auto code = rw::plainElemwiseCode(node);
        if (!code || *code != ScalarOpCode::Mul) return MatchResult::fail("not mul");
        const Type& out = node.output(0)->type();
        if (out.dtype == DType::Bool) return MatchResult::fail("bool product");
        auto m = std::make_unique<MulMatch>();
        int negNodes = 0, constants = 0;
        for (Variable* in : node.inputs()) {
            // Unwrap neg(neg(...(x))): each flips the sign.
            while (in->owner() && rw::plainElemwiseCode(*in->owner()) == ScalarOpCode::Neg) {
                m->negate = !m->negate;
                in = in->owner()->input(0);
                ++negNodes;
            }
            if (rw::isConstantEqualTo(*in, 1.0)) {
                ++constants;
            } else if (rw::isConstantEqualTo(*in, -1.0)) {
                ++constants;
                m->negate = !m->negate;
            } else {
                m->rest.push_back(in);
            }
        }
        if (negNodes == 0 && constants == 0) return MatchResult::fail("no factor 1, -1 or neg");
        if (m->rest.empty()) return MatchResult::fail("only constants (constant folding's case)");
        if (m->rest.size() > 1 && m->negate && negNodes == 0 && constants == 1)
            return MatchResult::fail("mul(-1, x, y) has no cheaper form");
        if (m->rest.size() == 1 && m->negate && isUnsigned(out.dtype))
            return MatchResult::fail("unsigned negation");
        for (Variable* v : m->rest)
            if (v->type().dtype != out.dtype) return MatchResult::fail("a factor has another dtype than the product");
        std::vector<Type> ts;
        for (Variable* v : m->rest) ts.push_back(v->type());
        if (m->negate && m->rest.size() > 1) ts.push_back(Type::tensor(out.dtype, {}));
        std::optional<Type> rt = ts.size() == 1 ? std::optional<Type>(ts.front()) : rw::elemwiseTypeOf(ScalarOpCode::Mul, ts);
        if (!rt || !rw::sameBroadcastPattern(*rt, out) || !out.accepts(*rt))
            return MatchResult::fail("the remaining factors do not keep the output's shape");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const MulMatch&>(match);
        const DType dt = node.output(0)->type().dtype;
        Variable* r;
        if (m.rest.size() == 1) {
            r = m.negate ? rw::makeElemwiseOf(rewriter, ScalarOpCode::Neg, {m.rest.front()}) : m.rest.front();
        } else {
            std::vector<Variable*> ins = m.rest;
            if (m.negate) ins.insert(ins.begin(), rewriter.constant(rw::scalarArray(dt, -1)));
            r = rw::makeElemwiseOf(rewriter, ScalarOpCode::Mul, std::move(ins));
        }
        rewriter.replace(node.output(0), r);
    }
};

} // namespace

const NodeRewrite& localMulSpecialize() {
    static const LocalMulSpecialize r;
    return r;
}

} // namespace tl
