#include "rewrite/DimSources.h"

#include "ops/DimShuffle.h"
#include "ops/Elemwise.h"
#include "ops/Shape.h"
#include "rewrite/LocalRewriteUtil.h"

#include <algorithm>
#include <set>

namespace tl::rw {

namespace {

// Enough for the elementwise cone of any real model's fill; a longer walk proves nothing
// rather than making a rewrite quadratic in the graph.
constexpr size_t kMaxVisits = 4096;

bool isTensor(const Variable& v) { return v.type().kind == Type::Kind::Tensor; }

} // namespace

std::optional<std::vector<DimSource>> dimSources(std::span<const Variable* const> vars, int axis) {
    std::vector<DimSource> todo, out;
    for (const Variable* v : vars) todo.push_back({v, axis});
    std::set<DimSource> seen;
    while (!todo.empty()) {
        const DimSource s = todo.back();
        todo.pop_back();
        if (!seen.insert(s).second) continue;
        if (seen.size() > kMaxVisits) return std::nullopt;
        const Variable& v = *s.var;
        if (s.axis < 0) {  // the value of a 0-d integer: a constant, Shape_i{k}(z), or itself
            if (auto c = constantIntOf(v)) {
                if (*c != 1) out.push_back({nullptr, *c});
            } else if (const Node* p = v.owner(); p && p->op().kind() == OpKind::ShapeI) {
                todo.push_back({p->input(0), static_cast<const ShapeIOp&>(p->op()).axis()});
            } else {
                out.push_back(s);
            }
            continue;
        }
        if (!isTensor(v) || s.axis >= v.type().ndim()) return std::nullopt;
        const int64_t fixed = v.type().shape[static_cast<size_t>(s.axis)];
        if (fixed == 1) continue;
        if (fixed != kUnknownDim) {
            out.push_back({nullptr, fixed});
            continue;
        }
        const Node* p = v.owner();
        if (!p) {  // a graph input or constant
            out.push_back(s);
            continue;
        }
        const OpKind kind = p->op().kind();
        if (kind == OpKind::Elemwise) {
            bool sameRank = true;
            for (const Variable* in : p->inputs()) sameRank = sameRank && isTensor(*in) && in->type().ndim() == v.type().ndim();
            if (sameRank) {
                for (const Variable* in : p->inputs()) todo.push_back({in, s.axis});
                continue;
            }
        } else if (kind == OpKind::DimShuffle) {
            const int from = static_cast<const DimShuffleOp&>(p->op()).newOrder()[static_cast<size_t>(s.axis)];
            if (from >= 0) todo.push_back({p->input(0), from});
            continue;  // a new axis has length 1
        } else if (kind == OpKind::Alloc && p->numInputs() == 1 + v.type().ndim()) {
            todo.push_back({p->input(1 + static_cast<int>(s.axis)), -1});
            continue;
        }
        out.push_back(s);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    // A static length fixes the dim: every other source is 1 or equal to it.
    std::vector<DimSource> fixedLengths;
    for (const DimSource& s : out)
        if (!s.var) fixedLengths.push_back(s);
    return fixedLengths.empty() ? out : fixedLengths;
}

bool broadcastsInto(const Variable& part, std::span<const Variable* const> whole) {
    if (!isTensor(part)) return false;
    for (const Variable* w : whole)
        if (!isTensor(*w) || w->type().ndim() != part.type().ndim()) return false;
    for (int d = 0; d < part.type().ndim(); ++d) {
        const Variable* partV[] = {&part};
        auto p = dimSources(partV, d);
        auto w = dimSources(whole, d);
        if (!p || !w) return false;
        const bool wholeFixed = w->size() == 1 && !w->front().var;
        if (wholeFixed) continue;  // part must be 1 or that length
        if (!std::includes(w->begin(), w->end(), p->begin(), p->end())) return false;
    }
    return true;
}

bool broadcastsInto(const Variable& part, const Variable& whole) {
    const Variable* w[] = {&whole};
    return broadcastsInto(part, std::span<const Variable* const>(w));
}

} // namespace tl::rw
