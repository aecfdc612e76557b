// rewrite_inv_eye_to_eye (PyTensor's, canonicalize and stabilize): the inverse of an
// identity matrix is itself,
//   inv(Eye(n, m, 0)) -> Eye(n, m, 0)      pinv(Eye(n, m, 0)) -> Eye(n, m, 0)
// Only an Eye whose offset is the constant 0 (PyTensor reads it as data). As in
// PyTensor the shapes are not compared: inv of a non-square eye fails before the
// rewrite and not after.
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class RewriteInvEyeToEye final : public NodeRewrite {
public:
    std::string_view name() const override { return "rewrite_inv_eye_to_eye"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "stabilize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (!rw::blockwiseCoreOf(*node.output(0), {OpKind::MatrixInverse, OpKind::MatrixPinv}))
            return MatchResult::fail("not an inv() or pinv()");
        if (!rw::isEyeOnDiagonal(*node.input(0))) return MatchResult::fail("not the inverse of an Eye with k=0");
        if (node.input(0)->type().dtype != node.output(0)->type().dtype) return MatchResult::fail("the Eye's dtype is not the inverse's");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        rewriter.replace(node.output(0), node.input(0));
    }
};

} // namespace

const NodeRewrite& rewriteInvEyeToEye() {
    static const RewriteInvEyeToEye r;
    return r;
}

} // namespace tl
