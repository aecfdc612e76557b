// local_batched_matmul_to_core_matmul: a batch dim of a Matmul that only one input
// has (the other's is a static 1 and broadcasts) moves into that input's core dims,
// so one matrix product computes the whole batch (PyTensor's rewrite of that name in
// canonicalize, and local_batched_matmul_to_core_matmul_with_reshape in specialize).
//   Matmul(x (b,1,k), y (1,k,n))  -> ExpandDims(Matmul(x[:, 0, :], y[0]), 1)          no reshape
//   Matmul(x (b,m,k), y (1,k,n))  -> Reshape(Matmul(Reshape(x, (b*m, k)), y[0]), (b, m, n))
//   Matmul(x (1,m,k), y (b,k,n))  -> the same through y's columns: y moved to (k, b*n)
// x's batch axes go next to its rows (m), y's next to its columns (n); the axes the
// other input broadcasts are squeezed away. Without reshapes (canonicalize) only a
// single axis moving into a row x (m = 1) or a column y (n = 1) can go; more, or a
// real m or n, needs the reshaping variant (specialize). The product of the moved
// tensors is a Matmul again, a Dot where no batch dim is left.
#include "ops/Blockwise.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <algorithm>
#include <numeric>

namespace tl {

namespace {

struct MergeMatch : RewriteMatch {
    std::vector<int> xAxes, yAxes;  // batch axes x (y) has and y (x) broadcasts
};

// numpy.moveaxis: the axes `from` of v at the positions `to` (both non-negative),
// the others in their order; v itself when nothing moves.
Variable* moveAxes(Rewriter& rw, Variable* v, const std::vector<int>& from, const std::vector<int>& to) {
    const int nd = v->type().ndim();
    std::vector<int> order(static_cast<size_t>(nd), -1);
    for (size_t k = 0; k < from.size(); ++k) order[static_cast<size_t>(to[k])] = from[k];
    int next = 0;
    for (int& o : order) {
        if (o >= 0) continue;
        while (std::find(from.begin(), from.end(), next) != from.end()) ++next;
        o = next++;
    }
    std::vector<int> identity(static_cast<size_t>(nd));
    std::iota(identity.begin(), identity.end(), 0);
    return order == identity ? v : rw::dimShuffle(rw, v, order);
}

Variable* squeezeAxes(Rewriter& rw, Variable* v, const std::vector<int>& axes) {
    if (axes.empty()) return v;
    std::vector<int> keep;
    for (int d = 0; d < v->type().ndim(); ++d)
        if (std::find(axes.begin(), axes.end(), d) == axes.end()) keep.push_back(d);
    return rw::dimShuffle(rw, v, keep);
}

Variable* expandAxis(Rewriter& rw, Variable* v, int axis) {
    std::vector<int> order(static_cast<size_t>(v->type().ndim()));
    std::iota(order.begin(), order.end(), 0);
    order.insert(order.begin() + axis, -1);
    return rw::dimShuffle(rw, v, order);
}

// The positions of `axes` in the other input once `moved` (its own merged axes) are
// gone from its batch dims.
std::vector<int> afterRemoving(std::vector<int> axes, const std::vector<int>& moved) {
    for (auto i = moved.rbegin(); i != moved.rend(); ++i)
        for (int& a : axes)
            if (a > *i) --a;
    return axes;
}

std::vector<int> range(int from, int count) {
    std::vector<int> r(static_cast<size_t>(count));
    std::iota(r.begin(), r.end(), from);
    return r;
}

class LocalBatchedMatmulToCoreMatmul final : public NodeRewrite {
public:
    explicit LocalBatchedMatmulToCoreMatmul(bool withReshape) : m_withReshape(withReshape) {}
    std::string_view name() const override {
        return m_withReshape ? "local_batched_matmul_to_core_matmul_with_reshape" : "local_batched_matmul_to_core_matmul";
    }
    std::vector<std::string> tags() const override {
        return {"fast_run", m_withReshape ? "specialize" : "canonicalize"};
    }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (!rw::isMatmul(node)) return MatchResult::fail("not a Matmul");
        const Type& x = node.input(0)->type();
        const Type& y = node.input(1)->type();
        if (x.ndim() != y.ndim() || x.ndim() < 3) return MatchResult::fail("no batch dims of the same rank");
        const int nd = x.ndim();
        auto m = std::make_unique<MergeMatch>();
        for (int d = 0; d < nd - 2; ++d) {
            if (y.shape[d] == 1 && x.shape[d] != 1) m->xAxes.push_back(d);
            if (x.shape[d] == 1 && y.shape[d] != 1) m->yAxes.push_back(d);
        }
        if (m->xAxes.empty() && m->yAxes.empty()) return MatchResult::fail("no batch dim that only one input has");
        const bool xRow = x.shape[nd - 2] == 1, yCol = y.shape[nd - 1] == 1;
        const bool reshapes = (!m->xAxes.empty() && (m->xAxes.size() > 1 || !xRow)) ||
                              (!m->yAxes.empty() && (m->yAxes.size() > 1 || !yCol));
        if (reshapes && !m_withReshape)
            return MatchResult::fail("the batch dims join core dims through a reshape (done in specialize)");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rw, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const MergeMatch&>(match);
        Variable* x = node.input(0);
        Variable* y = node.input(1);
        const int nd = x->type().ndim(), batch = nd - 2;
        const int nx = static_cast<int>(m.xAxes.size()), ny = static_cast<int>(m.yAxes.size());
        const bool xRow = x->type().shape[nd - 2] == 1, yCol = y->type().shape[nd - 1] == 1;
        Variable* minusOne = rw.constant(rw::scalarArray(DType::Int64, -1));
        auto leadingDims = [&](Variable* v, int count) {
            std::vector<Variable*> dims;
            for (int d = 0; d < count; ++d) dims.push_back(rw::dimOf(rw, v, d));
            return dims;
        };
        bool merged = false;
        Variable* xs = x;
        if (nx > 0) {  // x's batch axes next to its rows, then (with m) one axis
            xs = moveAxes(rw, xs, m.xAxes, range(nd - 2 - nx, nx));
            if (xRow) xs = squeezeAxes(rw, xs, {nd - 2});
            if (nx > 1 || !xRow) {
                std::vector<Variable*> dims = leadingDims(xs, batch - nx);
                dims.push_back(minusOne);
                dims.push_back(rw::dimOf(rw, x, nd - 1));
                xs = rw::reshapeTo(rw, xs, std::move(dims));
                merged = true;
            }
        }
        Variable* ys = y;
        if (ny > 0) {  // y's batch axes next to its columns
            ys = moveAxes(rw, ys, m.yAxes, range(nd - 1 - ny, ny));
            if (yCol) ys = squeezeAxes(rw, ys, {nd - 1});
            if (ny > 1 || !yCol) {
                std::vector<Variable*> dims = leadingDims(ys, batch - ny);
                dims.push_back(rw::dimOf(rw, y, nd - 2));
                dims.push_back(minusOne);
                ys = rw::reshapeTo(rw, ys, std::move(dims));
                merged = true;
            }
        }
        // What one input moved, the other has as a broadcast batch axis: gone.
        xs = squeezeAxes(rw, xs, afterRemoving(m.yAxes, m.xAxes));
        ys = squeezeAxes(rw, ys, afterRemoving(m.xAxes, m.yAxes));
        Variable* out = rw.create(makeMatmul(), {xs, ys})->output(0);
        if (merged) {  // split the joined axes again
            std::vector<Variable*> dims = leadingDims(out, batch - nx - ny);
            for (int a : m.xAxes) dims.push_back(rw::dimOf(rw, x, a));
            if (!xRow) dims.push_back(rw::dimOf(rw, x, nd - 2));
            for (int a : m.yAxes) dims.push_back(rw::dimOf(rw, y, a));
            if (!yCol) dims.push_back(rw::dimOf(rw, y, nd - 1));
            out = rw::reshapeTo(rw, out, std::move(dims));
        }
        if (yCol && (ny > 0 || merged)) out = expandAxis(rw, out, out->type().ndim());
        if (xRow && (nx > 0 || merged)) out = expandAxis(rw, out, out->type().ndim() + 1 - ny - 2);
        // The moved axes, then m, then y's, then n, back where the batch had them.
        std::vector<int> to = m.xAxes;
        to.push_back(nd - 2);
        to.insert(to.end(), m.yAxes.begin(), m.yAxes.end());
        to.push_back(nd - 1);
        out = moveAxes(rw, out, range(nd - nx - ny - 2, nx + ny + 2), to);
        rw.replace(node.output(0), out);
    }

private:
    bool m_withReshape;
};

} // namespace

const NodeRewrite& localBatchedMatmulToCoreMatmul() {
    static const LocalBatchedMatmulToCoreMatmul r(false);
    return r;
}

const NodeRewrite& localBatchedMatmulToCoreMatmulWithReshape() {
    static const LocalBatchedMatmulToCoreMatmul r(true);
    return r;
}

} // namespace tl
