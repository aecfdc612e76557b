// rewrite_inv_inv (PyTensor's, canonicalize and stabilize): two inverses in a row
// undo each other, for inv and pinv in any combination,
//   inv(inv(X)) -> X      pinv(inv(X)) -> X      inv(pinv(X)) -> X
// As PyTensor's, it takes X to be invertible: inv(inv(X)) of a singular X fails
// before the rewrite and is X after.
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

constexpr std::initializer_list<OpKind> kInverses = {OpKind::MatrixInverse, OpKind::MatrixPinv};

class RewriteInvInv final : public NodeRewrite {
public:
    std::string_view name() const override { return "rewrite_inv_inv"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "stabilize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (!rw::blockwiseCoreOf(*node.output(0), kInverses)) return MatchResult::fail("not an inv() or pinv()");
        if (!rw::blockwiseCoreOf(*node.input(0), kInverses)) return MatchResult::fail("not the inverse of an inverse");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        rewriter.replace(node.output(0), node.input(0)->owner()->input(0));
    }
};

} // namespace

const NodeRewrite& rewriteInvInv() {
    static const RewriteInvInv r;
    return r;
}

} // namespace tl
