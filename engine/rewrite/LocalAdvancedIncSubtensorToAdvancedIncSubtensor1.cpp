// local_AdvancedIncSubtensor_to_AdvancedIncSubtensor1: PyTensor's rewrite of that name
// (specialize). An increment or set along one axis becomes AdvancedIncSubtensor1, as
// PyTensor's inc_subtensor of transform_take builds it: through transposes of x and y
// when the axis is not 0. Not with ignore_duplicates (AdvancedIncSubtensor1 always
// accumulates repeated indices).
//   AdvancedIncSubtensor(x, y, idx)                      -> AdvancedIncSubtensor1{no_inplace,inc}(x, y, idx)
//   AdvancedSetSubtensor(M, y, MakeSlice(None...), idx) -> Transpose(AdvancedIncSubtensor1{no_inplace,set}(Transpose(M), y', idx))
//   AdvancedIncSubtensor(x, y, idx: (k, m))              -> AdvancedIncSubtensor1(x, Reshape(Alloc(y, k, m, ...), (k*m, ...)),
//                                                                                Reshape(idx, [-1]))
// An index of two or more axes is flattened, and y broadcast to the region's shape
// and reshaped to the flattened region's (PyTensor's inc_subtensor of a Reshape).
#include "ops/Alloc.h"
#include "ops/AdvancedIncSubtensor.h"
#include "ops/DimShuffle.h"
#include "rewrite/AdvancedTakeAxis.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <numeric>

namespace tl {

namespace {

struct TakeMatch : RewriteMatch {
    int axis = 0;
};

class LocalAdvancedIncSubtensorToAdvancedIncSubtensor1 final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_AdvancedIncSubtensor_to_AdvancedIncSubtensor1"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::AdvancedIncSubtensor}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const auto& op = static_cast<const AdvancedIncSubtensorOp&>(node.op());
        if (op.ignoreDuplicates()) return MatchResult::fail("ignore_duplicates: AdvancedIncSubtensor1 accumulates repeated indices");
        std::string why;
        auto axis = rw::takeAxis(std::span<Variable* const>(node.inputs()).subspan(2), &why, /*anyRank=*/true);
        if (!axis) return MatchResult::fail(options, [&] { return why; });
        const int regionDims = node.input(0)->type().ndim() - 1 + node.input(2 + *axis)->type().ndim();
        if (node.input(1)->type().ndim() > regionDims) return MatchResult::fail("the value has more dims than x[idx]");
        auto m = std::make_unique<TakeMatch>();
        m->axis = *axis;
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& op = static_cast<const AdvancedIncSubtensorOp&>(node.op());
        const int axis = static_cast<const TakeMatch&>(match).axis;
        Variable* x = node.input(0);
        Variable* y = node.input(1);
        Variable* idx = node.input(2 + axis);
        if (idx->type().ndim() != 1) {
            Variable* flat = rw::reshapeTo(rewriter, idx, {rewriter.constant(rw::scalarArray(DType::Int64, -1))});
            if (y->type().ndim() > 0) {
                // The region x[idx] has x's dims with the axis replaced by idx's; flattened,
                // by the one dim of the flat index.
                std::vector<Variable*> region{y}, flatRegion;
                for (int d = 0; d < x->type().ndim(); ++d) {
                    if (d != axis) {
                        region.push_back(rw::dimOf(rewriter, x, d));
                        flatRegion.push_back(region.back());
                        continue;
                    }
                    for (int k = 0; k < idx->type().ndim(); ++k) region.push_back(rw::dimOf(rewriter, idx, k));
                    flatRegion.push_back(rw::dimOf(rewriter, flat, 0));
                }
                y = rw::reshapeTo(rewriter, rewriter.create(makeAlloc(), std::move(region))->output(0), std::move(flatRegion));
            }
            idx = flat;
        }
        OpPtr inc = makeAdvancedIncSubtensor1(op.inplace(), op.setInsteadOfInc());
        Variable* out = nullptr;
        if (axis == 0) {
            out = rewriter.create(inc, {x, y, idx})->output(0);
        } else {
            const int nd = x->type().ndim(), yd = y->type().ndim(), offset = nd - yd;
            std::vector<int> shuffle(static_cast<size_t>(nd));
            std::iota(shuffle.begin(), shuffle.end(), 0);
            std::swap(shuffle[0], shuffle[static_cast<size_t>(axis)]);
            // inc_subtensor of a DimShuffle: dim p of the transposed region is dim shuffle[p] of
            // the region, which y (aligned to the right) has as its dim shuffle[p] - offset.
            std::vector<int> yNew;
            for (int p = 0; p < nd; ++p) {
                const int d = shuffle[static_cast<size_t>(p)] - offset;
                yNew.push_back(d >= 0 ? d : -1);
            }
            Variable* xt = rewriter.create(makeDimShuffle(nd, shuffle), {x})->output(0);
            Variable* yt = rewriter.create(makeDimShuffle(yd, yNew), {y})->output(0);
            Variable* r = rewriter.create(inc, {xt, yt, idx})->output(0);
            out = rewriter.create(makeDimShuffle(nd, shuffle), {r})->output(0);
        }
        rewriter.replace(node.output(0), out);
    }
};

} // namespace

const NodeRewrite& localAdvancedIncSubtensorToAdvancedIncSubtensor1() {
    static const LocalAdvancedIncSubtensorToAdvancedIncSubtensor1 r;
    return r;
}

} // namespace tl
