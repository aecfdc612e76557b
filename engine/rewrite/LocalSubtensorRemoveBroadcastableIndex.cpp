// local_subtensor_remove_broadcastable_index: indexing an axis of static length 1 at 0
// or -1 only drops that axis, which a DimShuffle does without reading an index:
//   x[0]        (x: (1, n))        -> x.dimshuffle(1)
//   x[:, -1]    (x: (m, 1))        -> x.dimshuffle(0)
//   x[0, :, -1] (x: (1, n, 1))     -> x.dimshuffle(1)
// As PyTensor's (canonicalize, specialize): every entry must be such an index (a
// constant) or a full slice, so that what is left is the axes themselves.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct KeptAxes : RewriteMatch {
    std::vector<int> kept;
};

class LocalSubtensorRemoveBroadcastableIndex final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_subtensor_remove_broadcastable_index"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Subtensor}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const Type& x = node.input(0)->type();
        const std::vector<rw::SubtensorPart> parts = rw::subtensorParts(node);
        auto m = std::make_unique<KeptAxes>();
        bool removed = false;
        for (int axis = 0; axis < x.ndim(); ++axis) {
            if (axis >= static_cast<int>(parts.size())) {  // trailing axes the index list leaves whole
                m->kept.push_back(axis);
                continue;
            }
            const rw::SubtensorPart& p = parts[static_cast<size_t>(axis)];
            if (p.entry.kind == IndexEntry::Kind::Slice) {
                if (p.start || p.stop || p.step) return MatchResult::fail("a slice that is not [:]");
                m->kept.push_back(axis);
                continue;
            }
            const auto i = rw::constantIntOf(*p.index);
            if (!i || (*i != 0 && *i != -1) || x.shape[axis] != 1)
                return MatchResult::fail(options, [axis] {
                    return "axis " + std::to_string(axis) + " is not a static length 1 indexed by a constant 0 or -1";
                });
            removed = true;
        }
        if (!removed) return MatchResult::fail("no index to remove");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const KeptAxes&>(match);
        rewriter.replace(node.output(0), rw::dimShuffle(rewriter, node.input(0), m.kept));
    }
};

} // namespace

const NodeRewrite& localSubtensorRemoveBroadcastableIndex() {
    static const LocalSubtensorRemoveBroadcastableIndex r;
    return r;
}

} // namespace tl
