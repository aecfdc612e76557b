// local_track_shape_i: Shape_i{i}(y) -> the variable that fixes y's dim i, read off
// y's producer as PyTensor's ShapeFeature reads it (op.infer_shape) and its
// local_track_shape_i installs it:
//   Shape_i{0}(Alloc(v, n, 7))         -> n            (also AllocEmpty's dims)
//   Shape_i{0}(SpecifyShape(x, n, 7))  -> n
//   Shape_i{1}(Transpose(x))           -> Shape_i{0}(x)   (DimShuffle maps the axis)
//   Shape_i{0}(Unbroadcast{0}(x))      -> Shape_i{0}(x)   (also DeepCopyOp)
// The dim becomes a 0-d int64 tensor (a constant, or a Cast{int64} of the input).
// Not tracked through Elemwise (an unknown dim may broadcast at run time) nor Assert
// (the Shape_i could then outlive the only reader of the assertion).
#include "ops/DimShuffle.h"
#include "ops/Shape.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct TrackMatch : RewriteMatch {
    Variable* dim = nullptr;        // the dim input to use, or
    Variable* shapeOf = nullptr;    // the variable whose Shape_i{axis} to take
    int axis = 0;
};

class LocalTrackShapeI final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_track_shape_i"; }
    std::vector<std::string> tags() const override {
        return {"fast_run", "fast_compile", "shape", "canonicalize", "specialize"};
    }
    std::vector<OpKind> rootKinds() const override { return {OpKind::ShapeI}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const int i = static_cast<const ShapeIOp&>(node.op()).axis();
        const Variable* y = node.input(0);
        const Node* p = y->owner();
        if (!p) return MatchResult::fail("the input has no producer");
        auto m = std::make_unique<TrackMatch>();
        switch (p->op().kind()) {
        case OpKind::Alloc: m->dim = p->input(1 + i); break;
        case OpKind::AllocEmpty: m->dim = p->input(i); break;
        case OpKind::SpecifyShape: m->dim = p->input(1 + i); break;
        case OpKind::DimShuffle: {
            const int a = static_cast<const DimShuffleOp&>(p->op()).newOrder().at(static_cast<size_t>(i));
            if (a < 0) return MatchResult::fail(options, [&] { return std::string("dim " + std::to_string(i) + " is a new broadcastable axis"); });
            m->shapeOf = p->input(0);
            m->axis = a;
            break;
        }
        case OpKind::Unbroadcast:
        case OpKind::DeepCopy:
            m->shapeOf = p->input(0);
            m->axis = i;
            break;
        default: return MatchResult::fail(options, [&] { return std::string(p->label() + " does not fix the shape by its inputs"); });
        }
        if (m->dim && !m->dim->isConstant() && m->dim->type().isScalarType() && !isInteger(m->dim->type().dtype))
            return MatchResult::fail("the dim is not an integer");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const TrackMatch&>(match);
        Variable* r = m.dim ? rw::asInt64Scalar(rewriter, m.dim)
                            : rewriter.create(makeShapeI(m.axis), {m.shapeOf})->output(0);
        rewriter.replace(node.output(0), r);
    }
};

} // namespace

const NodeRewrite& localTrackShapeI() {
    static const LocalTrackShapeI r;
    return r;
}

} // namespace tl
