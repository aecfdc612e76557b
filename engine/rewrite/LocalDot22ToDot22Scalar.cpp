// local_dot22_to_dot22scalar: a product with a Dot22 and a scalar factor folds the
// scalar into the BLAS call, Dot22Scalar(x, y, a) = a * (x @ y) (PyTensor's rewrite of
// that name, position 12 of its BlasOpt, after the Gemv and Ger forms have taken the
// vector products). As PyTensor:
//   mul(Dot22(x, y), s)        -> Dot22Scalar(x, y, s)
//   mul(Dot22(x, y), s, z)     -> mul(Dot22Scalar(x, y, s), z)
// where s has static length 1 in every dim (DimShuffles of it looked through, the
// dims dropped) and the product's dtype holds it, cast to that dtype (an int64
// scalar into a float64 product; not a float64 scalar into a float32 one). The first Dot22 among the factors is taken, and the first such scalar.
// PyTensor's reordering of a nested mul(Dot22, mul(s, z)) is not done: the
// canonizer has flattened those by now.
#include "ops/BlasOps.h"
#include "ops/DimShuffle.h"
#include "ops/ScalarOps.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <algorithm>
#include <array>

namespace tl {

namespace {

struct Dot22ScalarMatch : RewriteMatch {
    int dotIndex = -1;
    int scalarIndex = -1;
    Variable* scalar = nullptr;  // the scalar factor below its DimShuffles
};

// PyTensor's _as_scalar: the 0-d value behind `v` when every dim of v has static
// length 1, looked up through DimShuffles; null for an integer one the product's
// dtype cannot take without an upcast.
Variable* scalarBehind(Variable* v, DType productDType) {
    const auto& shape = v->type().shape;
    if (!v->type().isTensorType() || !std::all_of(shape.begin(), shape.end(), [](int64_t d) { return d == 1; }))
        return nullptr;
    while (v->owner() && v->owner()->kind() == OpKind::DimShuffle) v = v->owner()->input(0);
    if (isInteger(v->type().dtype)) {
        const std::array<DType, 2> both = {v->type().dtype, productDType};
        if (upcastDTypes(both) != productDType) return nullptr;
    }
    return v;
}

class LocalDot22ToDot22Scalar final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_dot22_to_dot22scalar"; }
    std::vector<std::string> tags() const override { return {"fast_run", "blas"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != ScalarOpCode::Mul) return MatchResult::fail("not a mul");
        auto m = std::make_unique<Dot22ScalarMatch>();
        for (int i = 0; i < node.numInputs() && m->dotIndex < 0; ++i)
            if (const Node* p = node.input(i)->owner(); p && p->kind() == OpKind::Dot22) m->dotIndex = i;
        if (m->dotIndex < 0) return MatchResult::fail("no factor is a Dot22");
        const DType product = node.input(m->dotIndex)->type().dtype;
        for (int i = 0; i < node.numInputs() && m->scalarIndex < 0; ++i) {
            if (i == m->dotIndex) continue;
            Variable* s = scalarBehind(node.input(i), product);
            const std::array<DType, 2> both = {node.input(i)->type().dtype, product};
            if (s && upcastDTypes(both) == product) {
                m->scalarIndex = i;
                m->scalar = s;
            }
        }
        if (m->scalarIndex < 0) return MatchResult::fail("no scalar factor the product's dtype takes");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rw, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const Dot22ScalarMatch&>(match);
        const Node& dot = *node.input(m.dotIndex)->owner();
        Variable* a = m.scalar;
        if (a->type().ndim() > 0) a = rw::dimShuffle(rw, a, {});
        a = rw::castTo(rw, a, dot.output(0)->type().dtype);
        Variable* scaled = rw.create(makeDot22Scalar(), {dot.input(0), dot.input(1), a})->output(0);
        std::vector<Variable*> rest;
        for (int i = 0; i < node.numInputs(); ++i)
            if (i != m.dotIndex && i != m.scalarIndex) rest.push_back(node.input(i));
        if (rest.empty()) {
            rw.replace(node.output(0), scaled);
            return;
        }
        rest.insert(rest.begin(), scaled);
        rw.replace(node.output(0), rw::makeElemwiseOf(rw, ScalarOpCode::Mul, std::move(rest)));
    }
};

} // namespace

const NodeRewrite& localDot22ToDot22Scalar() {
    static const LocalDot22ToDot22Scalar r;
    return r;
}

} // namespace tl
