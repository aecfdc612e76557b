// local_subtensor_make_vector: an element of a vector built from 0-d values is that
// value (PyTensor's local_subtensor_make_vector, for a constant integer index):
//   MakeVector{dtype='int64'}(Shape_i{0}(x), 3)[0]  -> Shape_i{0}(x)
//   MakeVector{dtype='int64'}(a, b, c)[-1]          -> c
// Shapes are rebuilt this way (local_shape_to_shape_i), so a dim read off a shape
// vector becomes the Shape_i that the shape rewrites can track or ground. The value
// keeps the vector's dtype (a Cast when the element is narrower) and becomes a 0-d
// tensor if it was a scalar. An index outside the vector stays: the Subtensor raises
// PyTensor's IndexError at run time.
#include "ops/MakeVector.h"
#include "ops/Subtensor.h"
#include "ops/TensorScalar.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct ElementMatch : RewriteMatch {
    int element = 0;
};

class LocalSubtensorMakeVector final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_subtensor_make_vector"; }
    std::vector<std::string> tags() const override { return {"fast_run", "fast_compile", "shape", "infer_shape", "useless", "canonicalize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Subtensor}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const auto& entries = static_cast<const SubtensorOp&>(node.op()).entries();
        if (entries.size() != 1 || entries[0].kind != IndexEntry::Kind::Index) return MatchResult::fail("not one integer index");
        const Node* vec = node.input(0)->owner();
        if (!vec || vec->op().kind() != OpKind::MakeVector) return MatchResult::fail("not an element of a MakeVector");
        const auto index = rw::constantIntOf(*node.input(1));
        if (!index) return MatchResult::fail("the index is not a constant");
        const int64_t n = vec->numInputs();
        const int64_t at = *index < 0 ? *index + n : *index;
        if (at < 0 || at >= n) return MatchResult::fail("the index is outside the vector (an error at run time)");
        auto m = std::make_unique<ElementMatch>();
        m->element = static_cast<int>(at);
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const int element = static_cast<const ElementMatch&>(match).element;
        Variable* v = node.input(0)->owner()->input(element);
        if (v->type().isScalarType()) v = rewriter.create(makeTensorFromScalar(), {v})->output(0);
        rewriter.replace(node.output(0), rw::castTo(rewriter, v, node.output(0)->type().dtype));
    }
};

} // namespace

const NodeRewrite& localSubtensorMakeVector() {
    static const LocalSubtensorMakeVector r;
    return r;
}

} // namespace tl
