#pragma once
// The shape shared by the stabilize rewrites that replace a chain of unary Elemwise
// ops by a stabler one (log(sigmoid(x)) -> -softplus(-x), log1p(exp(x)) -> softplus(x)):
// match() finds the chain's input x, checks that the replacement computes the same
// type, and apply() builds it. Each rewrite is its own file; this holds only the match
// record and the type check.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"


namespace tl::rw {

struct ChainMatch : RewriteMatch {
    Variable* x = nullptr;
    ScalarOpCode variant{};  // which replacement, for rewrites with two
};

/// The type `codes` (applied innermost first) give `x`, or nullopt when an op rejects it.
inline std::optional<Type> chainType(const Type& x, std::initializer_list<ScalarOpCode> codes) {
    std::optional<Type> t = x;
    for (ScalarOpCode c : codes)
        if (t) t = elemwiseTypeOf(c, {*t});
    return t;
}

/// A match on x when the chain `codes` of x has exactly `node`'s output type.
inline MatchResult chainMatch(const Node& node, Variable* x, std::initializer_list<ScalarOpCode> codes,
                              ScalarOpCode variant = ScalarOpCode::Identity) {
    const std::optional<Type> t = chainType(x->type(), codes);
    if (!t || !(*t == node.output(0)->type())) return MatchResult::fail("the stable form has another type");
    auto m = std::make_unique<ChainMatch>();
    m->x = x;
    m->variant = variant;
    return MatchResult::ok(std::move(m));
}

/// The chain `codes` of x, innermost first.
inline Variable* buildChain(Rewriter& rw, Variable* x, std::initializer_list<ScalarOpCode> codes) {
    for (ScalarOpCode c : codes) x = makeElemwiseOf(rw, c, {x});
    return x;
}

} // namespace tl::rw
