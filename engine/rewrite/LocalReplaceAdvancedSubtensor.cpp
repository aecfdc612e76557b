// local_replace_AdvancedSubtensor: PyTensor's rewrite of that name (specialize). A take
// along one axis becomes AdvancedSubtensor1, through transposes when the axis is not 0
// (PyTensor's transform_take):
//   AdvancedSubtensor(x, idx)                     -> AdvancedSubtensor1(x, idx)
//   AdvancedSubtensor(x, MakeSlice(None...), idx) -> Transpose(AdvancedSubtensor1(Transpose(x), idx))
//   AdvancedSubtensor(x, idx: (k, m))             -> Reshape(AdvancedSubtensor1(x, idx.flatten()),
//                                                            (k, m, x.shape[1], ...))
// An index of more than one axis is flattened, taken with, and the result reshaped to
// x's dims before the axis, the index's dims, and x's dims after it.
#include "ops/AdvancedSubtensor.h"
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

class LocalReplaceAdvancedSubtensor final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_replace_AdvancedSubtensor"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::AdvancedSubtensor}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        std::string why;
        auto axis = rw::takeAxis(std::span<Variable* const>(node.inputs()).subspan(1), &why, /*anyRank=*/true);
        if (!axis) return MatchResult::fail(options, [&] { return why; });
        auto m = std::make_unique<TakeMatch>();
        m->axis = *axis;
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const int axis = static_cast<const TakeMatch&>(match).axis;
        Variable* x = node.input(0);
        Variable* original = node.input(1 + axis);
        Variable* idx = original->type().ndim() == 1
                            ? original
                            : rw::reshapeTo(rewriter, original, {rewriter.constant(rw::scalarArray(DType::Int64, -1))});
        Variable* out = nullptr;
        if (axis == 0) {
            out = rewriter.create(makeAdvancedSubtensor1(), {x, idx})->output(0);
        } else {
            const int nd = x->type().ndim();
            std::vector<int> shuffle(static_cast<size_t>(nd));
            std::iota(shuffle.begin(), shuffle.end(), 0);
            std::swap(shuffle[0], shuffle[static_cast<size_t>(axis)]);
            Variable* t = rewriter.create(makeDimShuffle(nd, shuffle), {x})->output(0);
            Variable* taken = rewriter.create(makeAdvancedSubtensor1(), {t, idx})->output(0);
            out = rewriter.create(makeDimShuffle(nd, shuffle), {taken})->output(0);
        }
        if (idx != original) {
            std::vector<Variable*> dims;
            for (int d = 0; d < x->type().ndim(); ++d) {
                if (d != axis) dims.push_back(rw::dimOf(rewriter, x, d));
                else
                    for (int k = 0; k < original->type().ndim(); ++k) dims.push_back(rw::dimOf(rewriter, original, k));
            }
            out = rw::reshapeTo(rewriter, out, std::move(dims));
        }
        rewriter.replace(node.output(0), out);
    }
};

} // namespace

const NodeRewrite& localReplaceAdvancedSubtensor() {
    static const LocalReplaceAdvancedSubtensor r;
    return r;
}

} // namespace tl
