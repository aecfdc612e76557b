// local_useless_slice: drops slices that take everything and trailing full slices,
// as PyTensor's local_useless_slice:
//   x[:]            -> x
//   x[0, :]         -> x[0]
//   x[0:7:1]        -> x        (x: a vector of static length 7)
//   x[-1:-8:-1]     -> x[::-1]  (the same, stepping backwards)
// Start, stop and step are canonicalised only when they are constants and the
// sign of the step is known; x[i:] with a variable i stays.
#include "ops/Subtensor.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct SliceMatch : RewriteMatch {
    std::vector<IndexEntry> entries;  // empty: x itself
    std::vector<Variable*> indexInputs;
};

class LocalUselessSlice final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_useless_slice"; }
    std::vector<std::string> tags() const override {
        return {"fast_run", "fast_compile", "useless", "canonicalize", "specialize"};
    }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Subtensor}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const Type& xt = node.input(0)->type();
        std::vector<rw::SubtensorPart> parts = rw::subtensorParts(node);
        bool changed = false;
        int lastUseful = -1;
        for (int dim = 0; dim < static_cast<int>(parts.size()); ++dim) {
            rw::SubtensorPart& p = parts[dim];
            if (p.entry.kind == IndexEntry::Kind::Index) {
                lastUseful = dim;
                continue;
            }
            bool positive = true;
            if (p.step) {
                auto s = rw::constantIntOf(*p.step);
                if (!s) {
                    lastUseful = dim;  // the sign of the step is unknown: keep as is
                    continue;
                }
                positive = *s > 0;
                if (*s == 1) {
                    p.step = nullptr;
                    changed = true;
                }
            }
            if (p.start) {
                auto s = rw::constantIntOf(*p.start);
                if (s && *s == (positive ? 0 : -1)) {
                    p.start = nullptr;
                    changed = true;
                }
            }
            if (p.stop && dim < xt.ndim() && xt.shape[dim] != kUnknownDim) {
                auto s = rw::constantIntOf(*p.stop);
                if (s && *s == (positive ? xt.shape[dim] : -xt.shape[dim] - 1)) {
                    p.stop = nullptr;
                    changed = true;
                }
            }
            if (p.start || p.stop || p.step) lastUseful = dim;
        }
        if (!changed && lastUseful + 1 == static_cast<int>(parts.size()))
            return MatchResult::fail("every index entry does something");
        auto m = std::make_unique<SliceMatch>();
        for (int dim = 0; dim <= lastUseful; ++dim) {
            const rw::SubtensorPart& p = parts[dim];
            IndexEntry e = p.entry;
            if (e.kind == IndexEntry::Kind::Index) {
                m->indexInputs.push_back(p.index);
            } else {
                e.hasStart = p.start != nullptr;
                e.hasStop = p.stop != nullptr;
                e.hasStep = p.step != nullptr;
                for (Variable* v : {p.start, p.stop, p.step})
                    if (v) m->indexInputs.push_back(v);
            }
            m->entries.push_back(e);
        }
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const SliceMatch&>(match);
        Variable* r = node.input(0);
        if (!m.entries.empty()) {
            std::vector<Variable*> ins{node.input(0)};
            ins.insert(ins.end(), m.indexInputs.begin(), m.indexInputs.end());
            r = rewriter.create(makeSubtensor(m.entries), std::move(ins))->output(0);
        }
        rewriter.replace(node.output(0), r);
    }
};

} // namespace

const NodeRewrite& localUselessSlice() {
    static const LocalUselessSlice r;
    return r;
}

} // namespace tl
