// local_useless_elemwise_comparison: comparisons whose answer is known, mostly of
// lengths, which are never negative (Scan's and Reshape's shape arithmetic builds them):
//   lt(n, 0) -> zeros, ge(n, 0) -> ones, eq(n, -k) -> zeros     n a length (below)
//   maximum(n, 0), maximum(0, n) -> n;  minimum(n, 0), minimum(0, n) -> zeros
//   lt(x, x), gt(x, x) -> zeros;  le(x, x), ge(x, x) -> ones        x of an integer dtype
//   maximum(x, x), minimum(x, x) -> x
// A length is a Shape or Shape_i, a Subtensor of one, a Join or MakeVector of them, or
// a sum of them: PyTensor's rewrite knows these forms one by one (the sums for lt and
// ge, the others for eq); here each comparison takes every form. Comparing x with
// itself is only rewritten for integers and booleans: NaN < NaN and NaN <= NaN are
// both false, which PyTensor's rewrite ignores. The result keeps the output's rank
// and length-1 dims or the node stays (PyTensor would broadcast it).
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct KnownComparison : RewriteMatch {
    Variable* same = nullptr;  // the result is this input (cast), or
    Variable* like = nullptr;  // an array shaped like this input holding `value`
    int64_t value = 0;
};

bool isLength(const Variable& v, int depth = 0) {
    const Node* n = v.owner();
    if (!n || depth > 8) return false;
    switch (n->op().kind()) {
    case OpKind::Shape:
    case OpKind::ShapeI:
        return true;
    case OpKind::Subtensor:
        return isLength(*n->input(0), depth + 1);
    case OpKind::Join:
        for (int i = 1; i < n->numInputs(); ++i)
            if (!isLength(*n->input(i), depth + 1)) return false;
        return true;
    case OpKind::MakeVector:
        for (int i = 0; i < n->numInputs(); ++i)
            if (!isLength(*n->input(i), depth + 1)) return false;
        return n->numInputs() > 0;
    default:
        if (rw::plainElemwiseCode(*n) != ScalarOpCode::Add) return false;
        for (int i = 0; i < n->numInputs(); ++i)
            if (!isLength(*n->input(i), depth + 1)) return false;
        return true;
    }
}

bool isIntegerOrBool(DType d) { return isInteger(d) || d == DType::Bool; }

class LocalUselessElemwiseComparison final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_useless_elemwise_comparison"; }
    std::vector<std::string> tags() const override { return {"fast_run", "useless", "canonicalize", "stabilize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const auto code = rw::plainElemwiseCode(node);
        if (!code || node.numInputs() != 2) return MatchResult::fail("not a binary Elemwise");
        Variable* a = node.input(0);
        Variable* b = node.input(1);
        auto m = std::make_unique<KnownComparison>();
        auto fill = [&](Variable* like, int64_t value) {
            m->like = like;
            m->value = value;
        };
        const bool selfInts = a == b && isIntegerOrBool(a->type().dtype);
        switch (*code) {
        case ScalarOpCode::Lt:
        case ScalarOpCode::Gt:
            if (selfInts) fill(a, 0);
            else if (*code == ScalarOpCode::Lt && isLength(*a) && rw::isConstantEqualTo(*b, 0.0)) fill(a, 0);
            break;
        case ScalarOpCode::Le:
        case ScalarOpCode::Ge:
            if (selfInts) fill(a, 1);
            else if (*code == ScalarOpCode::Ge && isLength(*a) && rw::isConstantEqualTo(*b, 0.0)) fill(a, 1);
            break;
        case ScalarOpCode::Eq:
            if (auto k = rw::uniqueValue(*b); k && isLength(*a) && k->flatGet(0) < 0) fill(a, 0);
            break;
        case ScalarOpCode::Maximum:
        case ScalarOpCode::Minimum:
            if (a == b) {
                m->same = a;
                break;
            }
            for (Variable* n : {a, b}) {
                Variable* other = n == a ? b : a;
                if (!isLength(*n) || !rw::isConstantEqualTo(*other, 0.0)) continue;
                if (*code == ScalarOpCode::Maximum) m->same = n;
                else fill(n, 0);
                break;
            }
            break;
        default:
            break;
        }
        Variable* kept = m->same ? m->same : m->like;
        if (!kept) return MatchResult::fail(options, [] { return std::string("the comparison's answer is not known"); });
        if (!rw::sameBroadcastPattern(kept->type(), node.output(0)->type()))
            return MatchResult::fail("the other operand broadcasts the result");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const KnownComparison&>(match);
        const DType dtype = node.output(0)->type().dtype;
        rewriter.replace(node.output(0), m.same ? rw::castTo(rewriter, m.same, dtype) : rw::fullLike(rewriter, dtype, m.value, m.like));
    }
};

} // namespace

const NodeRewrite& localUselessElemwiseComparison() {
    static const LocalUselessElemwiseComparison r;
    return r;
}

} // namespace tl
