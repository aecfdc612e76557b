// blas_opt_inplace: PyTensor's local_inplace_gemm, local_inplace_gemv and
// local_inplace_ger. Gemm, Gemv/CGemv and Ger/CGer write into their first input
// (z, y, A) instead of a copy when the destroy handler can order every other
// reader of it first; never a constant, a graph input or a graph output.
//   CGemv{no_inplace}(AllocEmpty(5), 1.0, A, x, 0.0) -> CGemv{inplace}(...), d={0: [0]}
#include "analysis/DestroyChecker.h"
#include "ops/BlasOps.h"
#include "rewrite/Rewrites.h"

#include <algorithm>
#include <array>

namespace tl {

namespace {

constexpr std::string_view kName = "blas_opt_inplace";

class InplaceBlas final : public GraphPass {
public:
    std::string_view name() const override { return kName; }
    std::vector<std::string> tags() const override { return {"fast_run", "inplace", "blas_opt_inplace"}; }

    bool run(Rewriter& rewriter, const RewriteOptions&) override {
        // The products that update an input; nothing to do in a graph without them.
        constexpr std::array kUpdates = {OpKind::Gemm, OpKind::Gemv, OpKind::CGemv, OpKind::Ger, OpKind::CGer};
        const Graph& g = rewriter.graph();
        if (std::none_of(kUpdates.begin(), kUpdates.end(), [&](OpKind k) { return g.countOfKind(k) > 0; })) return false;
        DestroyChecker checker(g);
        bool changed = false;
        for (Node* n : g.toposort()) {
            if (std::find(kUpdates.begin(), kUpdates.end(), n->kind()) == kUpdates.end()) continue;
            const auto* blas = dynamic_cast<const BlasOp*>(&n->op());
            if (!blas || blas->inPlace()) continue;
            if (auto why = checker.tryDestroy(*n, 0)) {
                rewriter.notifyMatchFailure(kName, *n, [&] { return *why; });
                continue;
            }
            OpPtr op = blas->withInPlace(true);
            const std::string before = aliasMapText(n->op().destroyMap()), after = aliasMapText(op->destroyMap());
            RewriteScope scope(rewriter, kName, n);
            rewriter.setOp(n, std::move(op));
            rewriter.attribute(n->id(), "destroy_map", before, after, "writes into its first input instead of a copy");
            scope.setChanged();
            changed = true;
        }
        return changed;
    }
};

} // namespace

std::unique_ptr<GraphPass> makeInplaceBlas() { return std::make_unique<InplaceBlas>(); }

} // namespace tl
