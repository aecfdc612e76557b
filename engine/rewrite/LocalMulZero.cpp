// local_mul_zero: a product with a constant zero factor is zeros of the product's
// dtype and shape, as PyTensor's canonicalize does:
//   x * 0 -> Alloc(0.0, shape of x)      mul(2.0, 0, x, y) -> Alloc(0.0, shape of x)
// PyTensor's choice, which changes values: 0 * inf and 0 * NaN become 0, not NaN.
// The shape comes from a factor with the product's broadcastable pattern and static
// dims (static dims as constants, others as Shape_i of that factor); where no factor
// has it (a column times a row times 0), it declines.
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct ZeroMatch : RewriteMatch {
    Variable* shapeOf = nullptr;
};

class LocalMulZero final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_mul_zero"; }
    std::vector<std::string> tags() const override { return {"fast_run", "fast_compile", "canonicalize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        auto code = rw::plainElemwiseCode(node);
        if (!code || *code != ScalarOpCode::Mul) return MatchResult::fail("not mul");
        bool zero = false;
        for (const Variable* in : node.inputs()) zero = zero || rw::isConstantEqualTo(*in, 0.0);
        if (!zero) return MatchResult::fail("no constant zero factor");
        const Type& out = node.output(0)->type();
        auto m = std::make_unique<ZeroMatch>();
        for (Variable* in : node.inputs())
            if (!in->isConstant() && rw::sameBroadcastPattern(in->type(), out) && out.accepts(in->type())) {
                m->shapeOf = in;
                break;
            }
        if (!m->shapeOf) {
            // All factors constant is constant folding's case; otherwise the shape is only
            // the broadcast of several factors.
            return MatchResult::fail(options, [&] { return "no non-constant factor has the product's shape " + out.toString(); });
        }
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const ZeroMatch&>(match);
        const DType dt = node.output(0)->type().dtype;
        rewriter.replace(node.output(0), rw::allocLike(rewriter, rewriter.constant(rw::scalarArray(dt, 0)), m.shapeOf));
    }
};

} // namespace

const NodeRewrite& localMulZero() {
    static const LocalMulZero r;
    return r;
}

} // namespace tl
