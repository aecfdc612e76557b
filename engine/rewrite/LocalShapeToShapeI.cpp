// local_shape_to_shape_i: Shape(x) -> MakeVector(Shape_i{0}(x), ..., Shape_i{n-1}(x)),
// static dims as constants at once (PyTensor's local_shape_to_shape_i builds the
// vector from its ShapeFeature), so each dim can be tracked on its own.
//   Shape(x: (?, 7)) -> MakeVector{dtype='int64'}(Shape_i{0}(x), 7)
#include "ops/MakeVector.h"
#include "ops/Shape.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class LocalShapeToShapeI final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_shape_to_shape_i"; }
    std::vector<std::string> tags() const override {
        return {"fast_run", "fast_compile", "shape", "infer_shape", "canonicalize", "specialize"};
    }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Shape}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const Type& t = node.input(0)->type();
        if (t.ndim() == 0) return MatchResult::fail("a 0-d input has the constant shape ()");
        if (t.fullyKnown()) return MatchResult::fail("the shape is static (local_shape_ground's case)");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        Variable* x = node.input(0);
        const Type& t = x->type();
        std::vector<Variable*> dims;
        for (int d = 0; d < t.ndim(); ++d) {
            if (t.shape[d] != kUnknownDim) dims.push_back(rewriter.constant(rw::scalarArray(DType::Int64, t.shape[d])));
            else dims.push_back(rewriter.create(makeShapeI(d), {x})->output(0));
        }
        rewriter.replace(node.output(0), rewriter.create(makeMakeVector(DType::Int64), dims)->output(0));
    }
};

} // namespace

const NodeRewrite& localShapeToShapeI() {
    static const LocalShapeToShapeI r;
    return r;
}

} // namespace tl
