// local_Shape_i_ground: Shape_i{i}(x) where x's dim i is static -> that constant
// (PyTensor's local_Shape_i_ground).
//   Shape_i{1}(x: (?, 7)) -> 7
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"
#include "ops/Shape.h"

namespace tl {

namespace {

class ShapeIOfStaticDim final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_Shape_i_ground"; }
    std::vector<std::string> tags() const override {
        return {"fast_run", "fast_compile", "shape", "infer_shape", "useless", "canonicalize"};
    }
    std::vector<OpKind> rootKinds() const override { return {OpKind::ShapeI}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const int axis = static_cast<const ShapeIOp&>(node.op()).axis();
        const Type& t = node.input(0)->type();
        if (t.isScalarType() || axis >= t.ndim()) return MatchResult::fail("input is not a tensor of enough dims");
        if (t.shape[axis] == kUnknownDim) return MatchResult::fail(options, [&] { return std::string("dim " + std::to_string(axis) + " is unknown"); });
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const int axis = static_cast<const ShapeIOp&>(node.op()).axis();
        const int64_t len = node.input(0)->type().shape[axis];
        rewriter.replace(node.output(0), rewriter.constant(rw::scalarArray(DType::Int64, len)));
    }
};

} // namespace

const NodeRewrite& shapeIOfStaticDim() {
    static const ShapeIOfStaticDim r;
    return r;
}

} // namespace tl
