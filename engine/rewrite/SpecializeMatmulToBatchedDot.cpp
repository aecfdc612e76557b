// specialize_matmul_to_batched_dot: a Matmul whose two inputs have the same batch dims
// (the same static length-1 pattern, so no batch dim broadcasts) is one BatchedDot,
// PyTensor's specialize rewrite of that name. BatchedDot takes one batch dim: more
// are raveled into one and unraveled after, as PyTensor does.
//   Matmul(x (b,m,k), y (b,k,n))       -> BatchedDot(x, y)
//   Matmul(x (a,b,m,k), y (a,b,k,n))   -> Reshape(BatchedDot(Reshape(x, (-1,m,k)), Reshape(y, (-1,k,n))), (a,b,m,n))
// Never fires where a batch dim of length 1 broadcasts against another: BatchedDot
// would need that input copied to the full batch.
#include "ops/BlasOps.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class SpecializeMatmulToBatchedDot final : public NodeRewrite {
public:
    std::string_view name() const override { return "specialize_matmul_to_batched_dot"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (!rw::isMatmul(node)) return MatchResult::fail("not a Matmul");
        const Type& x = node.input(0)->type();
        const Type& y = node.input(1)->type();
        if (x.ndim() < 3) return MatchResult::fail("no batch dim");
        if (x.ndim() != y.ndim()) return MatchResult::fail("the inputs have different batch dims");
        for (int d = 0; d < x.ndim() - 2; ++d)
            if ((x.shape[d] == 1) != (y.shape[d] == 1))
                return MatchResult::fail("a batch dim of length 1 broadcasts (BatchedDot would copy it)");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rw, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        Variable* x = node.input(0);
        Variable* y = node.input(1);
        const int nd = x->type().ndim();
        if (nd == 3) {
            rw.replace(node.output(0), rw.create(makeBatchedDot(), {x, y})->output(0));
            return;
        }
        auto reshape = [&](Variable* v, std::vector<Variable*> dims) { return rw::reshapeTo(rw, v, std::move(dims)); };
        Variable* minusOne = rw.constant(rw::scalarArray(DType::Int64, -1));
        Variable* x3 = reshape(x, {minusOne, rw::dimOf(rw, x, nd - 2), rw::dimOf(rw, x, nd - 1)});
        Variable* y3 = reshape(y, {minusOne, rw::dimOf(rw, y, nd - 2), rw::dimOf(rw, y, nd - 1)});
        Variable* product = rw.create(makeBatchedDot(), {x3, y3})->output(0);
        std::vector<Variable*> dims;
        for (int d = 0; d < nd - 1; ++d) dims.push_back(rw::dimOf(rw, x, d));
        dims.push_back(rw::dimOf(rw, y, nd - 1));
        rw.replace(node.output(0), reshape(product, std::move(dims)));
    }
};

} // namespace

const NodeRewrite& specializeMatmulToBatchedDot() {
    static const SpecializeMatmulToBatchedDot r;
    return r;
}

} // namespace tl
