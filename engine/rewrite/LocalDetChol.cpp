// local_det_chol (PyTensor's, stabilize and specialize): the determinant of a matrix
// whose Cholesky factor the graph computes anyway is the squared product of the
// factor's diagonal,
//   det(X), L = cholesky(X)  ->  prod(diagonal(L) ** 2, axis=-1)
// A Cholesky exists only for a positive definite X (its det is that product); as in
// PyTensor, a Cholesky that returns NaN instead of raising (on_error='nan') passes its
// NaN on to the determinant.
#include "ops/Diagonal.h"
#include "ops/Reduce.h"
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct DetCholMatch : RewriteMatch {
    Variable* factor = nullptr;
};

class LocalDetChol final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_det_chol"; }
    std::vector<std::string> tags() const override { return {"fast_run", "stabilize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }
    bool matchReadsSiblings() const override { return true; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (!rw::blockwiseCoreOf(*node.output(0), {OpKind::Det})) return MatchResult::fail("not a det()");
        for (const Client& c : node.input(0)->clients())
            if (!c.isGraphOutput() && rw::blockwiseCoreOf(*c.node->output(0), {OpKind::Cholesky})) {
                auto m = std::make_unique<DetCholMatch>();
                m->factor = c.node->output(0);
                return MatchResult::ok(std::move(m));
            }
        return MatchResult::fail("no Cholesky factor of its matrix in the graph");
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        Variable* factor = static_cast<const DetCholMatch&>(match).factor;
        const int nd = factor->type().ndim();
        Variable* diagonal = rewriter.create(makeExtractDiag(0, nd - 2, nd - 1), {factor})->output(0);
        Variable* two = rewriter.constant(rw::scalarArray(DType::Int8, 2));
        Variable* squares = rw::makeElemwiseOf(rewriter, ScalarOpCode::Pow, {diagonal, two});
        Variable* det = rewriter.create(makeReduce(ReduceKind::Prod, std::vector<int>{nd - 2}), {squares})->output(0);
        rewriter.replace(node.output(0), rw::castTo(rewriter, det, node.output(0)->type().dtype));
    }
};

} // namespace

const NodeRewrite& localDetChol() {
    static const LocalDetChol r;
    return r;
}

} // namespace tl
