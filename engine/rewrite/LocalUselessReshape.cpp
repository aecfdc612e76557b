// local_useless_reshape: Reshape(x, shape) -> x when the reshape cannot change x's
// shape, as PyTensor's (useless, canonicalize, specialize; "shape_unsafe"):
//   Reshape{1}(x: (?,), [8]) -> SpecifyShape(x, 8)      both 1-d, neither static 1
//   Reshape{2}(x, Shape(x)) -> x
//   Reshape{2}(x: (?, 3), [Shape_i{0}(x), 3]) -> x     every dim x's own
//   Reshape{2}(x: (?, 3), [-1, 3]) -> x                one -1, the others x's own
//   Reshape{2}(x: (?, ?), [Shape_i{0}(x), n]) -> x     all but one dim x's own
// The last case is PyTensor's too: a valid program can only reshape to x's own
// shape there, so only a wrong `n` would notice (a shape error the rewrite hides).
// The reshape's output may know dims x does not (a constant shape entry): x then
// replaces it through SpecifyShape, as FunctionGraph.replace converts it.
//   Reshape{2}(x: (?, 3), [n, -1]) stays: two dims are not x's own
#include "ops/Shape.h"
#include "ops/Subtensor.h"
#include "rewrite/ConvertVariable.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"
#include "rewrite/StaticShapeValue.h"

namespace tl {

namespace {

// Whether the 0-d `entry` is provably dim `d` of `x`: a static value equal to x's
// static dim, Shape_i{d}(x), or Shape(x)[d] (PyTensor's _is_shape_i_of_x; its
// constant test does not look through Elemwise, rw::staticIntValue does: a size
// computed from static sizes is that size either way).
bool isDimOf(const Variable& entry, const Variable& x, int d) {
    if (entry.type().ndim() != 0) return false;
    const int64_t known = x.type().shape[d];
    if (auto c = rw::staticIntValue(entry); c && known != kUnknownDim && *c == known) return true;
    const Node* owner = entry.owner();
    if (!owner) return false;
    if (owner->kind() == OpKind::ShapeI)
        return static_cast<const ShapeIOp&>(owner->op()).axis() == d && owner->input(0) == &x;
    if (owner->kind() == OpKind::Subtensor) {
        const auto& entries = static_cast<const SubtensorOp&>(owner->op()).entries();
        const Node* shape = owner->input(0)->owner();
        return entries.size() == 1 && entries[0].kind == IndexEntry::Kind::Index && shape &&
               shape->kind() == OpKind::Shape && shape->input(0) == &x && rw::constantIntOf(*owner->input(1)) == d;
    }
    return false;
}

// The entries of the shape vector: a MakeVector's inputs, or a constant vector's
// elements (PyTensor's _unpack_shape_vector).
struct ShapeEntries {
    std::vector<const Variable*> parts;  // MakeVector inputs
    std::vector<int64_t> values;         // a constant vector's elements
    size_t size() const { return parts.empty() ? values.size() : parts.size(); }
};
std::optional<ShapeEntries> unpackShape(const Variable& shape) {
    ShapeEntries e;
    if (shape.isConstant()) {
        const NDArray v = shape.constantValue().astype(DType::Int64);
        e.values.assign(v.data<int64_t>(), v.data<int64_t>() + v.size());
        return e;
    }
    const Node* owner = shape.owner();
    if (!owner || owner->kind() != OpKind::MakeVector) return std::nullopt;
    e.parts.assign(owner->inputs().begin(), owner->inputs().end());
    return e;
}

class LocalUselessReshape final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_useless_reshape"; }
    std::vector<std::string> tags() const override {
        return {"fast_run", "fast_compile", "useless", "canonicalize", "specialize", "shape_unsafe"};
    }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Reshape}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const Variable& x = *node.input(0);
        const Variable& shape = *node.input(1);
        const Type& in = x.type();
        const Type& out = node.output(0)->type();
        if (in.ndim() != out.ndim()) return MatchResult::fail("the reshape changes the rank");
        if (!rw::convertibleTo(out, in)) return MatchResult::fail("the input's static shape contradicts the output's");
        if (in.ndim() == 1 && rw::sameBroadcastPattern(in, out)) return ok();
        if (const Node* s = shape.owner(); s && s->kind() == OpKind::Shape && s->input(0) == &x) return ok();
        const auto entries = unpackShape(shape);
        if (!entries) return MatchResult::fail("the shape is neither a constant, a MakeVector nor Shape of the input");
        if (entries->size() != static_cast<size_t>(in.ndim())) return MatchResult::fail("the shape's length is not the rank");
        int minusOnes = 0, unmatched = 0;
        for (int d = 0; d < in.ndim(); ++d) {
            const std::optional<int64_t> value = entries->parts.empty() ? std::optional<int64_t>(entries->values[d])
                                                                         : rw::constantIntOf(*entries->parts[d]);
            const bool own = entries->parts.empty() ? in.shape[d] != kUnknownDim && *value == in.shape[d]
                                                    : isDimOf(*entries->parts[d], x, d);
            if (own) continue;
            if (value == -1) ++minusOnes;
            else ++unmatched;
        }
        if (minusOnes <= 1 && unmatched == 0) return ok();
        if (minusOnes == 0 && unmatched == 1) return ok();  // PyTensor's shape-unsafe case
        return MatchResult::fail(options, [&] {
            return std::to_string(unmatched + minusOnes) + " of " + std::to_string(in.ndim()) +
                   " shape entries are not the input's own dims (" + std::to_string(minusOnes) + " of them -1)";
        });
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        rewriter.replace(node.output(0), node.input(0));
    }

private:
    static MatchResult ok() { return MatchResult::ok(std::make_unique<RewriteMatch>()); }
};

} // namespace

const NodeRewrite& localUselessReshape() {
    static const LocalUselessReshape r;
    return r;
}

} // namespace tl
