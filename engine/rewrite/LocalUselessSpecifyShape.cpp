// local_useless_specify_shape: SpecifyShape(x, d0, d1, ...) -> x when every dim is
// None or a constant equal to x's static dim (the type already guarantees the
// shape), as PyTensor's local_useless_specify_shape.
//   SpecifyShape(x: (1, 7), 1, 7) -> x        SpecifyShape(x: (?, 7), 1, 7) stays
//   SpecifyShape(x: (?, 7), None, 7) -> x
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class LocalUselessSpecifyShape final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_useless_specify_shape"; }
    std::vector<std::string> tags() const override {
        return {"fast_run", "fast_compile", "useless", "canonicalize", "specialize"};
    }
    std::vector<OpKind> rootKinds() const override { return {OpKind::SpecifyShape}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const Type& t = node.input(0)->type();
        for (int d = 0; d < t.ndim(); ++d) {
            if (node.input(1 + d)->type().isNoneType()) continue;
            if (t.shape[d] == kUnknownDim)
                return MatchResult::fail(options, [&] { return std::string("dim " + std::to_string(d) + " of the input is not static"); });
            auto c = rw::constantIntOf(*node.input(1 + d));
            if (!c) return MatchResult::fail(options, [&] { return std::string("specified dim " + std::to_string(d) + " is not a constant"); });
            if (*c != t.shape[d]) return MatchResult::fail(options, [&] { return std::string("specified dim " + std::to_string(d) + " differs from the type"); });
        }
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        rewriter.replace(node.output(0), node.input(0));
    }
};

} // namespace

const NodeRewrite& localUselessSpecifyShape() {
    static const LocalUselessSpecifyShape r;
    return r;
}

} // namespace tl
