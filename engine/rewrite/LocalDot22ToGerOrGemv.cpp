// local_dot22_to_ger_or_gemv: a Dot22 with a dimension of static length 1 is a
// matrix-vector product, an inner product or an outer product; BLAS has a cheaper
// call for each (PyTensor's local_dot22_to_ger_or_gemv, in its BlasOpt's
// local_gemm_to_gemv fixpoint with local_dimshuffle_lift, which then folds the
// ExpandDims / DropDims pt.dot put around vectors into the new ones). In PyTensor's
// order:
//   Dot22(x (n,1), y (1,m)) -> Ger(Alloc(0, n, m), 1, x[:, 0], y[0])
//   Dot22(x (1,k), y (k,1)) -> Gemv(AllocEmpty(1), 1, y.T, x[0], 0)[None, :]
//   Dot22(x (1,k), Y (k,m)) -> Gemv(AllocEmpty(m), 1, Y.T, x[0], 0)[None, :]
//   Dot22(X (n,k), y (k,1)) -> Gemv(AllocEmpty(n), 1, X, y[:, 0], 0)[:, None]
// A zero beta never reads Gemv's uninitialised first input (ops/BlasOps.h).
#include "ops/Alloc.h"
#include "ops/BlasOps.h"
#include "ops/DimShuffle.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

enum class ProductForm { Outer, Inner, RowTimesMatrix, MatrixTimesColumn };

struct FormMatch : RewriteMatch {
    ProductForm form{};
};

class LocalDot22ToGerOrGemv final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_dot22_to_ger_or_gemv"; }
    std::vector<std::string> tags() const override { return {"fast_run", "blas"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Dot22}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const Type& x = node.input(0)->type();
        const Type& y = node.input(1)->type();
        if (x.ndim() != 2 || y.ndim() != 2) return MatchResult::fail("not two matrices");
        auto one = [](const Type& t, int d) { return t.shape[static_cast<size_t>(d)] == 1; };
        auto m = std::make_unique<FormMatch>();
        if (one(x, 1) && one(y, 0)) m->form = ProductForm::Outer;
        else if (one(x, 0) && one(y, 1)) m->form = ProductForm::Inner;
        else if (one(x, 0) && !one(y, 0) && !one(y, 1)) m->form = ProductForm::RowTimesMatrix;
        else if (!one(x, 0) && !one(x, 1) && one(y, 1)) m->form = ProductForm::MatrixTimesColumn;
        else return MatchResult::fail("no dimension of static length 1 makes it a vector product");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rw, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const FormMatch&>(match);
        Variable* x = node.input(0);
        Variable* y = node.input(1);
        const DType dtype = x->type().dtype;
        Variable* one = rw.constant(rw::scalarArray(dtype, 1));
        auto shuffle = [&](Variable* v, std::vector<int> order) { return rw::dimShuffle(rw, v, std::move(order)); };
        auto gemv = [&](Variable* length, Variable* a, Variable* v) {
            Variable* empty = rw.create(makeAllocEmpty(dtype), {length})->output(0);
            Variable* zero = rw.constant(rw::scalarArray(dtype, 0));
            return rw.create(makeGemv(false, false), {empty, one, a, v, zero})->output(0);
        };
        Variable* result = nullptr;
        switch (m.form) {
        case ProductForm::Outer: {
            Variable* zeros = rw.create(makeAlloc(), {rw.constant(rw::scalarArray(dtype, 0)), rw::dimOf(rw, x, 0),
                                                      rw::dimOf(rw, y, 1)})->output(0);
            result = rw.create(makeGer(false, false), {zeros, one, shuffle(x, {0}), shuffle(y, {1})})->output(0);
            break;
        }
        case ProductForm::Inner:
            result = shuffle(gemv(rw.constant(rw::scalarArray(DType::Int64, 1)), shuffle(y, {1, 0}), shuffle(x, {1})), {-1, 0});
            break;
        case ProductForm::RowTimesMatrix:
            result = shuffle(gemv(rw::dimOf(rw, y, 1), shuffle(y, {1, 0}), shuffle(x, {1})), {-1, 0});
            break;
        case ProductForm::MatrixTimesColumn:
            result = shuffle(gemv(rw::dimOf(rw, x, 0), x, shuffle(y, {0})), {0, -1});
            break;
        }
        rw.replace(node.output(0), result);
    }
};

} // namespace

const NodeRewrite& localDot22ToGerOrGemv() {
    static const LocalDot22ToGerOrGemv r;
    return r;
}

} // namespace tl
