// local_reshape_chain: Reshape(Reshape(x, s1), s2) -> Reshape(x, s2), as PyTensor's
// (canonicalize, specialize; "shape_unsafe": the inner reshape's own shape check goes).
//   Reshape{2}(Reshape{1}(x: (2, 3), [-1]), [3, 2]) -> Reshape{2}(x, [3, 2])
// The new Reshape gets the static shape PyTensor's make_node gives it from x and s2;
// where that knows less than the old output did (x of unknown size, s2 deduced from
// the inner reshape's static size), it replaces the old one through SpecifyShape.
// An inner reshape with other readers stays for them; only the outer one moves.
#include "ops/Reshape.h"
#include "rewrite/ConvertVariable.h"
#include "rewrite/Rewrites.h"
#include "rewrite/StaticShapeValue.h"

namespace tl {

namespace {

class LocalReshapeChain final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_reshape_chain"; }
    std::vector<std::string> tags() const override {
        return {"fast_run", "fast_compile", "canonicalize", "specialize", "shape_unsafe"};
    }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Reshape}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const Node* inner = node.input(0)->owner();
        if (!inner || inner->kind() != OpKind::Reshape) return MatchResult::fail("the input is not a Reshape");
        const int ndim = static_cast<const ReshapeOp&>(node.op()).ndim();
        const std::optional<Type> joined = rw::reshapeStaticType(*inner->input(0), *node.input(1), ndim);
        if (!joined || !rw::convertibleTo(node.output(0)->type(), *joined))
            return MatchResult::fail("the joined reshape's static shape contradicts the output's");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        Variable* x = node.input(0)->owner()->input(0);
        const int ndim = static_cast<const ReshapeOp&>(node.op()).ndim();
        Variable* joined = rw::reshapeWithStaticShape(rewriter, x, node.input(1), ndim);
        rewriter.replace(node.output(0), joined);
    }
};

} // namespace

const NodeRewrite& localReshapeChain() {
    static const LocalReshapeChain r;
    return r;
}

} // namespace tl
