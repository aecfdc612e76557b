// local_sum_prod_of_mul_or_div: factors that are constant along the reduced axes
// leave the reduction (specialize, as PyTensor's):
//   sum(a * X) -> a * sum(X)        a of static length 1 on every reduced axis
//   sum(X / a) -> sum(X) / a
//   prod(a * X) -> a ** n * prod(X), prod(X / a) -> prod(X) / a ** n
//                                   n = the number of elements each result folds
// The factors are squeezed to the result's axes; where every factor is constant along
// the reduced axes, those axes have length 1 and the product itself is the result.
// `sum(a / X)` stays (X would still be inverted element by element). Every factor is
// cast to the product's dtype first, as the product did, so the reduction still folds
// in that dtype: PyTensor's folds the uncast X (a float32 X beside a float64 a sums
// in float32 there) and stays only where the reduction's dtype is not the product's.
#include "ops/Reduce.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <algorithm>

namespace tl {

namespace {

struct Factors : RewriteMatch {
    std::vector<Variable*> outer, inner;  // constant along the reduced axes / not
    std::vector<int> axes;                // the reduced axes (of the product's rank)
    bool division = false;                // X / a: inner = {X}, outer = {a}
};

bool constantAlong(const Type& t, int ndim, const std::vector<int>& axes) {
    const int pad = ndim - t.ndim();
    return std::all_of(axes.begin(), axes.end(), [&](int a) { return a < pad || t.shape[static_cast<size_t>(a - pad)] == 1; });
}

class LocalSumProdOfMulOrDiv final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_sum_prod_of_mul_or_div"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Reduce}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const auto& op = static_cast<const ReduceOp&>(node.op());
        if ((op.reduceKind() != ReduceKind::Sum && op.reduceKind() != ReduceKind::Prod) || op.numInputs() != 1)
            return MatchResult::fail("not a Sum or Prod");
        const Variable* product = node.input(0);
        const Node* p = product->owner();
        const auto code = p ? rw::plainElemwiseCode(*p) : std::nullopt;
        if (code != ScalarOpCode::Mul && code != ScalarOpCode::TrueDiv)
            return MatchResult::fail(options, [] { return std::string("not a reduction of a product or quotient"); });
        const DType dtype = product->type().dtype;
        if (node.output(0)->type().dtype != dtype)
            return MatchResult::fail("the reduction changes the dtype");
        const int ndim = product->type().ndim();
        auto m = std::make_unique<Factors>();
        m->axes = op.reducedAxes(ndim);
        if (*code == ScalarOpCode::TrueDiv) {
            if (!constantAlong(p->input(1)->type(), ndim, m->axes))
                return MatchResult::fail("the denominator varies along a reduced axis");
            m->division = true;
            m->inner = {p->input(0)};
            m->outer = {p->input(1)};
        } else {
            for (int i = 0; i < p->numInputs(); ++i)
                (constantAlong(p->input(i)->type(), ndim, m->axes) ? m->outer : m->inner).push_back(p->input(i));
            if (m->outer.empty()) return MatchResult::fail("every factor varies along a reduced axis");
        }
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const Factors&>(match);
        const Type& productType = node.input(0)->type();
        const int ndim = productType.ndim();
        const DType dtype = productType.dtype;
        std::vector<int> keep;
        for (int a = 0; a < ndim; ++a)
            if (std::find(m.axes.begin(), m.axes.end(), a) == m.axes.end()) keep.push_back(a);
        auto squeezed = [&](Variable* v) {
            return rw::dimShuffle(rewriter, rw::expandLeft(rewriter, rw::castTo(rewriter, v, dtype), ndim), keep);
        };
        auto multiply = [&](const std::vector<Variable*>& vs) {
            return vs.size() == 1 ? vs[0] : rw::makeElemwiseOf(rewriter, ScalarOpCode::Mul, vs, dtype);
        };
        std::vector<Variable*> outer;
        for (Variable* v : m.outer) outer.push_back(squeezed(v));
        Variable* a = multiply(outer);
        if (m.inner.empty()) {  // the reduced axes have length 1: nothing left to fold
            rewriter.replace(node.output(0), a);
            return;
        }
        std::vector<Variable*> inner;
        for (Variable* v : m.inner) inner.push_back(rw::castTo(rewriter, v, dtype));
        Variable* x = rw::expandLeft(rewriter, multiply(inner), ndim);  // the reduction's axes are the product's
        if (static_cast<const ReduceOp&>(node.op()).reduceKind() == ReduceKind::Prod) {
            std::vector<Variable*> lengths;  // a ** (the number of elements each result folds)
            for (int axis : m.axes) lengths.push_back(rw::dimOf(rewriter, x, axis));
            Variable* n = lengths.empty() ? rewriter.constant(rw::scalarArray(DType::Int64, 1)) : multiply(lengths);
            a = rw::makeElemwiseOf(rewriter, ScalarOpCode::Pow, {a, rw::castTo(rewriter, n, dtype)}, dtype);
        }
        Variable* folded = rewriter.create(node.opPtr(), {x})->output(0);
        Variable* out = m.division ? rw::makeElemwiseOf(rewriter, ScalarOpCode::TrueDiv, {folded, a}, dtype)
                                   : rw::makeElemwiseOf(rewriter, ScalarOpCode::Mul, {a, folded}, dtype);
        rewriter.replace(node.output(0), out);
    }
};

} // namespace

const NodeRewrite& localSumProdOfMulOrDiv() {
    static const LocalSumProdOfMulOrDiv r;
    return r;
}

} // namespace tl
