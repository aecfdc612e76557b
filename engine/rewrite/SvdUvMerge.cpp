// svd_uv_merge (PyTensor's, canonicalize, stabilize and specialize): the singular
// values of a matrix are computed once. An SVD with compute_uv whose u and v nobody
// reads gives its s from an SVD without them (one the graph has, else a new one);
// an SVD without them gives way to one with them whose u or v is read:
//   SVD{uv}(X).1, u and v unread  ->  SVD{no uv}(X)
//   SVD{no uv}(X), SVD{uv}(X) with u read  ->  SVD{uv}(X).1
// (the two then merge into one factorization, which LAPACK computes once).
#include "ops/Blockwise.h"
#include "ops/Linalg.h"
#include "ops/PropsOp.h"
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

const PropsOp* svdCore(const Node* node) {
    return static_cast<const PropsOp*>(rw::blockwiseCoreOf(node, {OpKind::SVD}));
}

bool uvRead(const Node& svd) { return !svd.output(0)->clients().empty() || !svd.output(2)->clients().empty(); }

struct SvdMatch : RewriteMatch {
    Variable* singularValues = nullptr;  // what replaces the node's s; null: a new SVD without u, v
};

class SvdUvMerge final : public NodeRewrite {
public:
    std::string_view name() const override { return "svd_uv_merge"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "stabilize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }
    bool matchReadsSiblings() const override { return true; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const PropsOp* core = svdCore(&node);
        if (!core) return MatchResult::fail("not a Blockwise{SVD}");
        auto m = std::make_unique<SvdMatch>();
        const Variable& x = *node.input(0);
        if (core->boolProp("compute_uv")) {
            if (uvRead(node)) return MatchResult::fail("its u or v is read");
            for (const Client& c : x.clients()) {
                const PropsOp* other = c.isGraphOutput() ? nullptr : svdCore(c.node);
                if (other && !other->boolProp("compute_uv")) {
                    m->singularValues = c.node->output(0);
                    break;
                }
            }
            return MatchResult::ok(std::move(m));
        }
        for (const Client& c : x.clients()) {
            const PropsOp* other = c.isGraphOutput() ? nullptr : svdCore(c.node);
            if (other && other->boolProp("compute_uv") && uvRead(*c.node)) {
                m->singularValues = c.node->output(1);
                return MatchResult::ok(std::move(m));
            }
        }
        return MatchResult::fail("no SVD of the same matrix computes u and v for a reader");
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const PropsOp& core = *svdCore(&node);
        Variable* s = static_cast<const SvdMatch&>(match).singularValues;
        if (!s) s = rw::applyLinalgBlockwise(rewriter, makeSVD(core.boolProp("full_matrices"), false), {node.input(0)});
        rewriter.replace(node.output(core.boolProp("compute_uv") ? 1 : 0), s);
    }
};

} // namespace

const NodeRewrite& svdUvMerge() {
    static const SvdUvMerge r;
    return r;
}

} // namespace tl
