// local_subtensor_make_vector: constant indexing of a vector built from 0-d values
// picks those values (PyTensor's local_subtensor_make_vector):
//   MakeVector{dtype='int64'}(Shape_i{0}(x), 3)[0]  -> Shape_i{0}(x)
//   MakeVector{dtype='int64'}(a, b, c)[-1]          -> c
//   MakeVector(a, b, c)[-2:]                        -> MakeVector(b, c)
//   MakeVector(a, b, c)[::2][...]                   -> MakeVector(a, c)   (any constant slice)
//   MakeVector(a, b, c)[1:2]                        -> ExpandDims(b)      (one value)
//   AdvancedSubtensor1(MakeVector(a, b, c), [2, 0]) -> MakeVector(c, a)
// Shapes are rebuilt this way (local_shape_to_shape_i), so a dim read off a shape
// vector becomes the Shape_i that the shape rewrites can track or ground. A value
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
    std::vector<int> elements;  // the vector's inputs picked, in order
    bool single = false;        // an integer index: the value itself, not a vector of it
};

// The elements a constant slice of an n-element vector picks, or nullopt.
std::optional<std::vector<int>> sliceElements(const rw::SubtensorPart& p, int64_t n) {
    std::optional<int64_t> parts[3];
    Variable* vars[3] = {p.start, p.stop, p.step};
    for (int k = 0; k < 3; ++k) {
        if (!vars[k]) continue;
        parts[k] = rw::constantIntOf(*vars[k]);
        if (!parts[k]) return std::nullopt;
    }
    if (parts[2] && *parts[2] == 0) return std::nullopt;  // an error at run time
    const ResolvedSlice r = resolveSlice(parts[0], parts[1], parts[2], n);
    std::vector<int> picked;
    for (int64_t i = 0; i < r.length; ++i) picked.push_back(static_cast<int>(r.start + i * r.step));
    return picked;
}

class LocalSubtensorMakeVector final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_subtensor_make_vector"; }
    std::vector<std::string> tags() const override { return {"fast_run", "fast_compile", "shape", "infer_shape", "useless", "canonicalize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Subtensor, OpKind::AdvancedSubtensor1}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const Node* vec = node.input(0)->owner();
        if (!vec || vec->op().kind() != OpKind::MakeVector) return MatchResult::fail("not indexing a MakeVector");
        const int64_t n = vec->numInputs();
        auto m = std::make_unique<ElementMatch>();
        auto pick = [&](int64_t index) {
            const int64_t at = index < 0 ? index + n : index;
            if (at < 0 || at >= n) return false;
            m->elements.push_back(static_cast<int>(at));
            return true;
        };
        if (node.op().kind() == OpKind::AdvancedSubtensor1) {
            const Variable* idx = rw::constantBehind(*node.input(1));
            if (!idx || idx->type().ndim() != 1) return MatchResult::fail("the indices are not a constant vector");
            const NDArray& values = idx->constantValue();
            for (int64_t i = 0; i < values.size(); ++i)
                if (!pick(static_cast<int64_t>(values.flatGet(i))))
                    return MatchResult::fail("an index is outside the vector (an error at run time)");
            return MatchResult::ok(std::move(m));
        }
        const auto parts = rw::subtensorParts(node);
        if (parts.size() != 1) return MatchResult::fail("not one index entry");
        if (parts[0].entry.kind == IndexEntry::Kind::Index) {
            const auto index = rw::constantIntOf(*parts[0].index);
            if (!index) return MatchResult::fail("the index is not a constant");
            if (!pick(*index)) return MatchResult::fail("the index is outside the vector (an error at run time)");
            m->single = true;
            return MatchResult::ok(std::move(m));
        }
        auto picked = sliceElements(parts[0], n);
        if (!picked) return MatchResult::fail("a slice part is not a constant");
        m->elements = std::move(*picked);
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const ElementMatch&>(match);
        const Node* vec = node.input(0)->owner();
        const DType dtype = node.output(0)->type().dtype;
        auto value = [&](int element) {
            Variable* v = vec->input(element);
            if (v->type().isScalarType()) v = rewriter.create(makeTensorFromScalar(), {v})->output(0);
            return rw::castTo(rewriter, v, dtype);
        };
        Variable* r = nullptr;
        if (m.single) r = value(m.elements.front());
        else if (m.elements.size() == 1) r = rw::dimShuffle(rewriter, value(m.elements.front()), {-1});
        else {
            std::vector<Variable*> ins;
            for (int e : m.elements) ins.push_back(vec->input(e));
            r = rewriter.create(vec->opPtr(), std::move(ins))->output(0);
        }
        rewriter.replace(node.output(0), r);
    }
};

} // namespace

const NodeRewrite& localSubtensorMakeVector() {
    static const LocalSubtensorMakeVector r;
    return r;
}

} // namespace tl
