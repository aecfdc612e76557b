// local_gemm_to_ger: a Gemm of a column by a row is an outer product, BLAS's Ger,
// when b is the constant 1 or 0 (PyTensor's rewrite of that name, in its BlasOpt's
// local_gemm_to_gemv fixpoint):
//   Gemm(z, a, x (m,1), y (1,n), 1) -> Ger(z, a, x[:, 0], y[0])
//   Gemm(z, a, x (m,1), y (1,n), 0) -> Ger(zeros(m, n), a, x[:, 0], y[0])
// Any other b pre-scales z, which Ger cannot do, and a b that is not a constant may
// be anything: both stay a Gemm.
#include "ops/Alloc.h"
#include "ops/BlasOps.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct BetaMatch : RewriteMatch {
    bool zeroBeta = false;
};

class LocalGemmToGer final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_gemm_to_ger"; }
    std::vector<std::string> tags() const override { return {"fast_run", "blas"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Gemm}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (static_cast<const BlasOp&>(node.op()).inPlace()) return MatchResult::fail("an inplace Gemm");
        if (node.input(2)->type().shape[1] != 1 || node.input(3)->type().shape[0] != 1)
            return MatchResult::fail("x is not a column or y not a row");
        auto m = std::make_unique<BetaMatch>();
        if (rw::isConstantEqualTo(*node.input(4), 0)) m->zeroBeta = true;
        else if (!rw::isConstantEqualTo(*node.input(4), 1)) return MatchResult::fail("b is not the constant 0 or 1");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rw, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        Variable *z = node.input(0), *a = node.input(1), *x = node.input(2), *y = node.input(3);
        if (static_cast<const BetaMatch&>(match).zeroBeta) {
            Variable* zero = rw.constant(rw::scalarArray(x->type().dtype, 0));
            z = rw.create(makeAlloc(), {zero, rw::dimOf(rw, x, 0), rw::dimOf(rw, y, 1)})->output(0);
        }
        Node* ger = rw.create(makeGer(false, false), {z, a, rw::dimShuffle(rw, x, {0}), rw::dimShuffle(rw, y, {1})});
        rw.replace(node.output(0), ger->output(0));
    }
};

} // namespace

const NodeRewrite& localGemmToGer() {
    static const LocalGemmToGer r;
    return r;
}

} // namespace tl
