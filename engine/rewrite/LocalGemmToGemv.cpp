// local_gemm_to_gemv: a Gemm whose z and x are rows, or whose z and y are columns,
// is a matrix-vector product (PyTensor's rewrite of that name, in its BlasOpt's
// local_gemm_to_gemv fixpoint with local_dimshuffle_lift, which then folds the
// DimShuffles around the new Gemv into its neighbours):
//   Gemm(z (1,n), a, x (1,k), Y (k,n), b) -> Gemv(z[0], a, Y.T, x[0], b)[None, :]
//   Gemm(z (m,1), a, X (m,k), y (k,1), b) -> Gemv(z[:, 0], a, X, y[:, 0], b)[:, None]
// "Row" is a static length-1 first dim over a second that is not; a column the reverse.
#include "ops/BlasOps.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct SideMatch : RewriteMatch {
    bool rows = false;  // z and x are rows; otherwise z and y are columns
};

class LocalGemmToGemv final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_gemm_to_gemv"; }
    std::vector<std::string> tags() const override { return {"fast_run", "blas"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Gemm}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (static_cast<const BlasOp&>(node.op()).inPlace()) return MatchResult::fail("an inplace Gemm");
        auto pattern = [&](int input) {
            const auto& s = node.input(input)->type().shape;
            return std::pair{s[0] == 1, s[1] == 1};
        };
        const auto z = pattern(0);
        auto m = std::make_unique<SideMatch>();
        if (z == std::pair{true, false} && pattern(2) == z) m->rows = true;
        else if (!(z == std::pair{false, true} && pattern(3) == z))
            return MatchResult::fail("z is neither a row with x nor a column with y");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rw, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        Variable *z = node.input(0), *a = node.input(1), *x = node.input(2), *y = node.input(3), *b = node.input(4);
        Variable* result = nullptr;
        if (static_cast<const SideMatch&>(match).rows) {
            Variable* gemv = rw.create(makeGemv(false, false), {rw::dimShuffle(rw, z, {1}), a, rw::dimShuffle(rw, y, {1, 0}),
                                                                rw::dimShuffle(rw, x, {1}), b})->output(0);
            result = rw::dimShuffle(rw, gemv, {-1, 0});
        } else {
            Variable* gemv = rw.create(makeGemv(false, false), {rw::dimShuffle(rw, z, {0}), a, x, rw::dimShuffle(rw, y, {0}), b})
                                 ->output(0);
            result = rw::dimShuffle(rw, gemv, {0, -1});
        }
        rw.replace(node.output(0), result);
    }
};

} // namespace

const NodeRewrite& localGemmToGemv() {
    static const LocalGemmToGemv r;
    return r;
}

} // namespace tl
