// local_subtensor_merge: basic indexing of basic indexing becomes one Subtensor of the
// first one's input, as PyTensor's local_subtensor_merge:
//   x[:3][:1]   -> x[:1]        x[:3][1:] -> x[1:3]       x[2:][1:4] -> x[3:6]
//   x[1:][0]    -> x[1]         x[:3][0]  -> x[0]   (x of static length >= 1)
//   M[1:, 0][2] -> M[3, 0]      M[i][1:][:2] -> M[i, 1:3]
// PyTensor merges any two slices with symbolic switches on the lengths; this merges
// the cases whose result is exact with constants alone: forward steps of 1, starts
// and stops that are constants >= 0. An integer index into a slice with a stop merges
// only where x's static length proves the index inside the slice (otherwise the
// merged index could read an element the slice had cut off, where the original
// raises); into a slice without a stop it raises exactly when the original does.
// Everything else (negative bounds, other steps, symbolic bounds) is left as it is.
#include "ops/Subtensor.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <algorithm>

namespace tl {

namespace {

using Part = rw::SubtensorPart;

/// A slice with a forward step of 1 and constant bounds >= 0: [start, stop), stop
/// absent for "to the end". Null for any other slice.
struct PlainSlice {
    int64_t start = 0;
    std::optional<int64_t> stop;
};
std::optional<PlainSlice> plainSlice(const Part& p) {
    if (p.entry.kind != IndexEntry::Kind::Slice) return std::nullopt;
    if (p.step && rw::constantIntOf(*p.step) != std::optional<int64_t>(1)) return std::nullopt;
    PlainSlice s;
    if (p.start) {
        auto v = rw::constantIntOf(*p.start);
        if (!v || *v < 0) return std::nullopt;
        s.start = *v;
    }
    if (p.stop) {
        auto v = rw::constantIntOf(*p.stop);
        if (!v || *v < 0) return std::nullopt;
        s.stop = *v;
    }
    return s;
}

/// One merged entry: an index (value) or a slice [start, stop).
struct Merged {
    bool isIndex = false;
    int64_t index = 0;
    PlainSlice slice;
};

/// outer[inner] for one dim of static length `n` (kUnknownDim when unknown), or nullopt.
std::optional<Merged> mergeDim(const PlainSlice& outer, const Part& inner, int64_t n) {
    if (inner.entry.kind == IndexEntry::Kind::Index) {
        auto i = rw::constantIntOf(*inner.index);
        if (!i || *i < 0) return std::nullopt;
        int64_t at = 0;
        if (__builtin_add_overflow(outer.start, *i, &at)) return std::nullopt;
        if (outer.stop) {
            // Inside the slice only when x's length proves it: the slice's length is
            // min(stop, n) - min(start, n).
            if (n == kUnknownDim || *i >= std::max<int64_t>(0, std::min(*outer.stop, n) - std::min(outer.start, n)))
                return std::nullopt;
        }
        return Merged{true, at, {}};
    }
    auto s = plainSlice(inner);
    if (!s) return std::nullopt;
    Merged m;
    if (__builtin_add_overflow(outer.start, s->start, &m.slice.start)) return std::nullopt;
    std::optional<int64_t> stop = outer.stop;
    if (s->stop) {
        int64_t end = 0;
        if (__builtin_add_overflow(outer.start, *s->stop, &end)) return std::nullopt;
        stop = outer.stop ? std::min(*outer.stop, end) : end;
    }
    m.slice.stop = stop;
    return m;
}

struct MergeMatch : RewriteMatch {
    std::vector<IndexEntry> entries;
    // Per entry: the input to reuse, or null with a constant in `values`.
    std::vector<Variable*> reused;
    std::vector<int64_t> values;
};

class LocalSubtensorMerge final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_subtensor_merge"; }
    std::vector<std::string> tags() const override { return {"fast_run", "fast_compile", "canonicalize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Subtensor}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const Node* first = node.input(0)->owner();
        if (!first || first->op().kind() != OpKind::Subtensor) return MatchResult::fail("not a Subtensor of a Subtensor");
        const Type& xt = first->input(0)->type();
        const std::vector<Part> outer = rw::subtensorParts(*first), inner = rw::subtensorParts(node);
        auto m = std::make_unique<MergeMatch>();
        auto keep = [&](const Part& p) {
            m->entries.push_back(p.entry);
            for (Variable* v : {p.index, p.start, p.stop, p.step})
                if (v) {
                    m->reused.push_back(v);
                    m->values.push_back(0);
                }
        };
        auto constant = [&](int64_t v) {
            m->reused.push_back(nullptr);
            m->values.push_back(v);
        };
        size_t j = 0;  // the next entry of the second indexing
        for (size_t d = 0; d < outer.size(); ++d) {
            const Part& p = outer[d];
            if (p.entry.kind == IndexEntry::Kind::Index || j >= inner.size()) {
                keep(p);  // an index drops the dim: the second indexing never sees it
                continue;
            }
            auto s = plainSlice(p);
            if (!s) return MatchResult::fail("a slice of the first indexing is not a plain forward slice with constant bounds");
            const int64_t n = static_cast<int>(d) < xt.ndim() ? xt.shape[d] : kUnknownDim;
            auto merged = mergeDim(*s, inner[j++], n);
            if (!merged) return MatchResult::fail("an entry of the second indexing does not merge with constants alone");
            if (merged->isIndex) {
                m->entries.push_back({IndexEntry::Kind::Index});
                constant(merged->index);
            } else {
                const bool hasStart = merged->slice.start != 0, hasStop = merged->slice.stop.has_value();
                m->entries.push_back({IndexEntry::Kind::Slice, hasStart, hasStop, false});
                if (hasStart) constant(merged->slice.start);
                if (hasStop) constant(*merged->slice.stop);
            }
        }
        // Entries of the second indexing past the first's apply to x's later dims as they are.
        for (; j < inner.size(); ++j) keep(inner[j]);
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const MergeMatch&>(match);
        std::vector<Variable*> ins{node.input(0)->owner()->input(0)};
        for (size_t k = 0; k < m.reused.size(); ++k)
            ins.push_back(m.reused[k] ? m.reused[k]
                                      : rewriter.constant(rw::scalarArray(DType::Int64, m.values[k]), Type::scalar(DType::Int64)));
        rewriter.replace(node.output(0), rewriter.create(makeSubtensor(m.entries), std::move(ins))->output(0));
    }
};

} // namespace

const NodeRewrite& localSubtensorMerge() {
    static const LocalSubtensorMerge r;
    return r;
}

} // namespace tl
