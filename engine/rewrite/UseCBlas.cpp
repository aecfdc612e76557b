// use_c_gemv and use_c_ger: PyTensor's Gemv and Ger ops become CGemv and CGer, the
// forms its C backend runs when a BLAS library is linked (blas_c.py, the use_c_blas
// pass of BlasOpt, position 20); inplace (destructive) or not as they were; float32 and
// float64 only. tensorlens computes both forms with the same BLAS call; the rewrites
// make the graph PyTensor compiles. One class, told apart by the op it starts from.
//   Gemv{no_inplace}(y, a, A, x, b) -> CGemv{no_inplace}(y, a, A, x, b)
//   Ger{non-destructive}(A, a, x, y) -> CGer{non-destructive}(A, a, x, y)
#include "ops/BlasOps.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class UseCBlas final : public NodeRewrite {
public:
    explicit UseCBlas(OpKind from) : m_from(from) {}
    std::string_view name() const override { return m_from == OpKind::Gemv ? "use_c_gemv" : "use_c_ger"; }
    std::vector<std::string> tags() const override { return {"fast_run", "c_blas"}; }
    std::vector<OpKind> rootKinds() const override { return {m_from}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const DType d = node.output(0)->type().dtype;
        if (d != DType::Float32 && d != DType::Float64) return MatchResult::fail("not float32 or float64");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const bool inPlace = static_cast<const BlasOp&>(node.op()).inPlace();
        OpPtr op = m_from == OpKind::Gemv ? makeGemv(inPlace, true) : makeGer(inPlace, true);
        std::vector<Variable*> inputs(node.inputs().begin(), node.inputs().end());
        rewriter.replace(node.output(0), rewriter.create(std::move(op), std::move(inputs))->output(0));
    }

private:
    OpKind m_from;
};

} // namespace

const NodeRewrite& useCGemv() {
    static const UseCBlas r(OpKind::Gemv);
    return r;
}

const NodeRewrite& useCGer() {
    static const UseCBlas r(OpKind::Ger);
    return r;
}

} // namespace tl
