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
// Where x's length along the dim is known, statically or as the graph fixes it (a
// loop's trace has its buffer's rows, rw::inferredLength), any two slices and indices
// with constant parts merge exactly, negative bounds and steps included, as PyTensor's
// symbolic merge does once its lengths fold to constants:
//   trace[1:][-1]           -> trace[20]          (trace of 21 rows)
//   trace[:-1][::-1][:20]   -> trace[19::-1]
// Everything else (symbolic bounds, unknown lengths) is left as it is.
#include "ops/Subtensor.h"
#include "rewrite/InferredLength.h"
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

/// One merged entry: an index (value) or a slice [start, stop) with a step.
struct Merged {
    bool isIndex = false;
    int64_t index = 0;
    PlainSlice slice;
    int64_t step = 1;
    bool hasStart = false;
};

/// The constant parts of a slice entry (absent ones nullopt), or nullopt when a present
/// part is not a constant or the step is 0.
struct ConstantSlice {
    std::optional<int64_t> start, stop, step;
};
std::optional<ConstantSlice> constantSlice(const Part& p) {
    ConstantSlice c;
    std::optional<int64_t>* into[3] = {&c.start, &c.stop, &c.step};
    Variable* vars[3] = {p.start, p.stop, p.step};
    for (int k = 0; k < 3; ++k) {
        if (!vars[k]) continue;
        *into[k] = rw::constantIntOf(*vars[k]);
        if (!*into[k]) return std::nullopt;
    }
    if (c.step && *c.step == 0) return std::nullopt;
    return c;
}

/// outer[inner] for a dim of known length n, exactly: the outer slice picks
/// start + k*step for k < count, the inner entry picks among those.
std::optional<Merged> mergeKnownLength(const Part& outer, const Part& inner, int64_t n) {
    const auto o = constantSlice(outer);
    if (!o) return std::nullopt;
    const ResolvedSlice r1 = resolveSlice(o->start, o->stop, o->step, n);
    Merged m;
    if (inner.entry.kind == IndexEntry::Kind::Index) {
        auto i = rw::constantIntOf(*inner.index);
        if (!i) return std::nullopt;
        const int64_t k = *i < 0 ? *i + r1.length : *i;
        if (k < 0 || k >= r1.length) return std::nullopt;  // raises at run time: left to do so
        m.isIndex = true;
        m.index = r1.start + k * r1.step;
        return m;
    }
    const auto in = constantSlice(inner);
    if (!in) return std::nullopt;
    const ResolvedSlice r2 = resolveSlice(in->start, in->stop, in->step, r1.length);
    const int64_t start = r1.start + r2.start * r1.step, step = r1.step * r2.step, count = r2.length;
    m.step = count > 1 ? step : 1;
    if (count == 0) {  // [0:0]
        m.slice.stop = 0;
        return m;
    }
    // The stop one step past the last entry picked (not the entry after it): the form
    // PyTensor's merge gives, whose loop-buffer reads scan_save_mem sizes the same. A
    // forward slice up to the end needs no stop; a backward one down to entry 0 must
    // have none (a stop of -1 would count from the end).
    const int64_t stop = start + count * m.step;
    m.slice.start = start;
    m.hasStart = m.step < 0 || start != 0;
    if ((m.step > 0 && stop < n) || (m.step < 0 && stop >= 0)) m.slice.stop = stop;
    return m;
}

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
            const int64_t n = static_cast<int>(d) < xt.ndim() ? xt.shape[d] : kUnknownDim;
            const std::optional<int64_t> known =
                n != kUnknownDim ? std::optional<int64_t>(n) : rw::inferredLength(*first->input(0), static_cast<int>(d));
            std::optional<Merged> merged;
            if (known) merged = mergeKnownLength(p, inner[j], *known);
            if (!merged) {
                auto s = plainSlice(p);
                if (!s) return MatchResult::fail("a slice of the first indexing is not a plain forward slice with constant bounds");
                merged = mergeDim(*s, inner[j], n);
                if (merged) merged->hasStart = merged->slice.start != 0;
            }
            ++j;
            if (!merged) return MatchResult::fail("an entry of the second indexing does not merge with constants alone");
            if (merged->isIndex) {
                m->entries.push_back({IndexEntry::Kind::Index});
                constant(merged->index);
            } else {
                const bool hasStop = merged->slice.stop.has_value(), hasStep = merged->step != 1;
                m->entries.push_back({IndexEntry::Kind::Slice, merged->hasStart, hasStop, hasStep});
                if (merged->hasStart) constant(merged->slice.start);
                if (hasStop) constant(*merged->slice.stop);
                if (hasStep) constant(merged->step);
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
