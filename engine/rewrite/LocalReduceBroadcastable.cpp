// local_reduce_broadcastable: a reduction over axes of static length 1 folds one
// element along them, which is that element: those axes are dropped by a DimShuffle
// and the reduction keeps the others, or goes when none are left (cast to its dtype):
//   Sum{axis=0}(x: (1, n))        -> x.dimshuffle(1)
//   Max{axes=[0, 1]}(x: (1, n))   -> Max{axis=0}(x.dimshuffle(1))
//   Any{axes=None}(x: (1, 1))     -> cast(x.dimshuffle(), bool)
// As PyTensor's (canonicalize, specialize, uncanonicalize), with two differences where
// its result would change a value: a ProdWithoutZeros (or CAReduce{mul_without_zeros})
// of one element 0 is 1, not 0, so it is kept; and a fused CAReduce{Composite} folds its
// body even over one element, so it is kept too. The kept reduction keeps its dtype and
// acc_dtype (PyTensor's rebuilds it with the class defaults).
#include "ops/Reduce.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <algorithm>

namespace tl {

namespace {

struct CutAxes : RewriteMatch {
    std::vector<int> kept;     // input axes the DimShuffle keeps
    std::vector<int> reduced;  // the reduction's axes among them, renumbered
};

bool foldsOneElementToItself(const ReduceOp& op) {
    if (op.composite() || op.numInputs() != 1) return false;
    if (op.reduceKind() == ReduceKind::ProdWithoutZeros) return false;
    return !(op.reduceKind() == ReduceKind::CAReduce && op.scalarOp() == ScalarOpCode::MulWithoutZeros);
}

class LocalReduceBroadcastable final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_reduce_broadcastable"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "specialize", "uncanonicalize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Reduce}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const auto& op = static_cast<const ReduceOp&>(node.op());
        if (!foldsOneElementToItself(op))
            return MatchResult::fail("a fused, ProdWithoutZeros or multi-input reduction does not fold one element to itself");
        const Type& in = node.input(0)->type();
        const std::vector<int> axes = op.reducedAxes(in.ndim());
        auto m = std::make_unique<CutAxes>();
        bool cut = false;
        for (int a = 0; a < in.ndim(); ++a) {
            const bool reduced = std::find(axes.begin(), axes.end(), a) != axes.end();
            if (reduced && in.shape[a] == 1) {
                cut = true;
                continue;
            }
            if (reduced) m->reduced.push_back(static_cast<int>(m->kept.size()));
            m->kept.push_back(a);
        }
        if (!cut) return MatchResult::fail(options, [] { return std::string("no reduced axis has static length 1"); });
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const CutAxes&>(match);
        const auto& op = static_cast<const ReduceOp&>(node.op());
        Variable* kept = rw::dimShuffle(rewriter, node.input(0), m.kept);
        Variable* out = m.reduced.empty()
                            ? rw::castTo(rewriter, kept, node.output(0)->type().dtype)
                            : rewriter.create(op.withAxes(m.reduced), {kept})->output(0);
        rewriter.replace(node.output(0), out);
    }
};

} // namespace

const NodeRewrite& localReduceBroadcastable() {
    static const LocalReduceBroadcastable r;
    return r;
}

} // namespace tl
