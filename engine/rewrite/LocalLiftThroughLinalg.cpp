// local_lift_through_linalg (PyTensor's, specialize): an inverse, a pseudo-inverse or a
// Cholesky factor of a matrix assembled from smaller ones is assembled from theirs,
//   inv(block_diag(a, b))  -> block_diag(inv(a), inv(b))      (and pinv, cholesky)
//   inv(kron(a, b))        -> kron(inv(a), inv(b))            (and pinv, cholesky)
// so the cubic work runs on the small matrices (n^3 + p^3 instead of (n p)^3 for the
// Kronecker product). The result is cast to the op's dtype.
//
// A batched block_diag lifts too: every op here is a Blockwise, so the blocks' batch
// axes broadcast as before. kron only of two matrices (of arrays with more axes it
// multiplies every axis). The Cholesky factors keep the node's own parameters
// (PyTensor's calls cholesky() with its defaults, the lower factor even where the node
// asked for the upper one); the pseudo-inverses are the general ones, hermitian=False,
// as PyTensor's (a Hermitian product need not have Hermitian factors). An inverse or a
// Cholesky factor of a block or factor that is not square fails where the whole matrix
// was singular, as in PyTensor; one statically known not to be square is left alone.
// A Kronecker product of two negative definite factors has a Cholesky factor while
// they have none: the lifted factors fail there (NaN with on_error='nan').
#include "ops/Blockwise.h"
#include "ops/Linalg.h"
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"
#include "rewrite/StructuredMatrixForms.h"

namespace tl {

namespace {

const Node* assembledFrom(const Variable& m) {
    if (const Node* blocks = rw::blockDiagonalOf(m, false)) return blocks;
    return rw::kroneckerOfMatrices(m);
}

class LocalLiftThroughLinalg final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_lift_through_linalg"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const Op* core = rw::blockwiseCoreOf(&node, {OpKind::MatrixInverse, OpKind::Cholesky, OpKind::MatrixPinv});
        if (!core) return MatchResult::fail("not an inv(), pinv() or cholesky()");
        const Node* parts = assembledFrom(*node.input(0));
        if (!parts) return MatchResult::fail("its matrix is neither a block_diag nor a kron of two matrices");
        if (core->kind() != OpKind::MatrixPinv && !rw::inputsMaybeSquare(*parts))
            return MatchResult::fail("a block or factor is not square");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const OpPtr& core = static_cast<const BlockwiseOp&>(node.op()).corePtr();
        const OpPtr partOp = core->kind() == OpKind::MatrixPinv ? makeMatrixPinv(false) : core;
        const Node* parts = node.input(0)->owner();
        std::vector<Variable*> lifted;
        for (Variable* m : parts->inputs()) lifted.push_back(rw::applyLinalgBlockwise(rewriter, partOp, {m}));
        Variable* assembled = parts->kind() == OpKind::KroneckerProduct
                                  ? rewriter.create(makeKroneckerProduct(), lifted)->output(0)
                                  : rw::applyLinalgBlockwise(rewriter, makeBlockDiagonal(parts->numInputs()), lifted);
        rewriter.replace(node.output(0), rw::castTo(rewriter, assembled, node.output(0)->type().dtype));
    }
};

} // namespace

const NodeRewrite& localLiftThroughLinalg() {
    static const LocalLiftThroughLinalg r;
    return r;
}

} // namespace tl
