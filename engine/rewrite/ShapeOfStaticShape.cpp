// local_shape_ground: Shape(x) of a fully static shape -> a constant (PyTensor's
// local_shape_ground, registered in its infer_shape/ShapeOpt position).
//   Shape(x: (2, 7)) -> [2 7]
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class ShapeOfStaticShape final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_shape_ground"; }
    std::vector<std::string> tags() const override { return {"fast_run", "fast_compile", "shape", "infer_shape"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Shape}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const Type& t = node.input(0)->type();
        for (int d = 0; d < t.ndim(); ++d)
            if (t.shape[d] == kUnknownDim) return MatchResult::fail(options, [&] { return std::string("dim " + std::to_string(d) + " of " + t.toString() + " is unknown"); });
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const Type& t = node.input(0)->type();
        NDArray v = NDArray::empty(DType::Int64, {t.ndim()});
        for (int d = 0; d < t.ndim(); ++d) v.data<int64_t>()[d] = t.shape[d];
        rewriter.replace(node.output(0), rewriter.constant(std::move(v)));
    }
};

} // namespace

const NodeRewrite& shapeOfStaticShape() {
    static const ShapeOfStaticShape r;
    return r;
}

} // namespace tl
