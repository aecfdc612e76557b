// local_useless_elemwise: elementwise ops that compute nothing new, as PyTensor's
// local_useless_elemwise:
//   identity(x), add(x), mul(x)   -> x
//   eq(x, x) -> ones, neq(x, x) / xor(x, x) -> zeros   (integer and bool x only:
//                                   for floats NaN == NaN is false, PyTensor ignores that)
//   and(x, 0) -> zeros, or(x, 0) -> x, and(x, True) -> x, or(x, True) -> ones (bool x)
// Only when the result keeps the output's type (the constant must not broadcast x).
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct UselessMatch : RewriteMatch {
    Variable* same = nullptr;  // replace by this input, or
    bool fill = false;         // by an array like `like` holding `value`
    int64_t value = 0;
    Variable* like = nullptr;
};

class LocalUselessElemwise final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_useless_elemwise"; }
    std::vector<std::string> tags() const override {
        return {"fast_run", "fast_compile", "useless", "canonicalize", "specialize"};
    }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        auto code = rw::plainElemwiseCode(node);
        if (!code) return MatchResult::fail("not a plain (non-inplace, non-Composite) Elemwise");
        const Type& out = node.output(0)->type();
        auto m = std::make_unique<UselessMatch>();
        auto sameAs = [&](Variable* v) -> MatchResult {
            if (!(v->type() == out)) return MatchResult::fail("the result would change the output's type");
            m->same = v;
            return MatchResult::ok(std::move(m));
        };
        auto fillWith = [&](int64_t value, Variable* like) -> MatchResult {
            if (!rw::sameBroadcastPattern(like->type(), out) || like->type().ndim() != out.ndim())
                return MatchResult::fail("the operand does not have the output's shape");
            m->fill = true;
            m->value = value;
            m->like = like;
            return MatchResult::ok(std::move(m));
        };
        const int n = node.numInputs();
        if (n == 1 && (*code == ScalarOpCode::Identity || *code == ScalarOpCode::Add || *code == ScalarOpCode::Mul))
            return sameAs(node.input(0));
        if (n != 2) return MatchResult::fail("not a rewritable arity");
        Variable* a = node.input(0);
        Variable* b = node.input(1);
        const bool nonFloat = !isFloat(a->type().dtype);
        switch (*code) {
        case ScalarOpCode::Eq:
            if (a == b && nonFloat) return fillWith(1, a);
            break;
        case ScalarOpCode::Neq:
        case ScalarOpCode::Xor:
            if (a == b && nonFloat) return fillWith(0, a);
            break;
        case ScalarOpCode::And:
        case ScalarOpCode::Or:
            for (int ci = 0; ci < 2; ++ci) {
                Variable* c = node.input(ci);
                Variable* other = node.input(1 - ci);
                auto u = rw::uniqueValue(*c);
                if (!u) continue;
                // The constant must not stretch `other` (it would make the result larger).
                if (!(other->type().ndim() == out.ndim() && rw::sameBroadcastPattern(other->type(), out))) continue;
                const bool isAnd = *code == ScalarOpCode::And;
                if (u->item() == 0.0) return isAnd ? fillWith(0, other) : sameAs(other);
                if (out.dtype == DType::Bool) return isAnd ? sameAs(other) : fillWith(1, other);
            }
            break;
        default: break;
        }
        return MatchResult::fail("nothing useless here");
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const UselessMatch&>(match);
        Variable* r = m.same;
        if (m.fill) r = rw::fillLike(rewriter, rw::scalarArray(node.output(0)->type().dtype, m.value), m.like);
        rewriter.replace(node.output(0), r);
    }
};

} // namespace

const NodeRewrite& localUselessElemwise() {
    static const LocalUselessElemwise r;
    return r;
}

} // namespace tl
