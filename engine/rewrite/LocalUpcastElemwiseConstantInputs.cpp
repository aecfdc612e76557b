// local_upcast_elemwise_constant_inputs: constants fed to an Elemwise that converts
// its inputs to the output's dtype anyway are stored in that dtype, as PyTensor's
// local_upcast_elemwise_constant_inputs (so `1 - x` and `1.0 - x` merge, and the
// fused Composite prints `1.0`):
//   add(x: float64, [1]: int8)  -> add(x, [1.0]: float64)
// Only where the op computes in its output dtype (not comparisons, which compute in
// the inputs' common dtype and return bool; not Cast or Switch's condition; not
// polygamma, whose order must stay an integer).
#include "ops/Elemwise.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct UpcastMatch : RewriteMatch {
    std::vector<int> inputs;  // constant inputs to convert
};

class LocalUpcastElemwiseConstantInputs final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_upcast_elemwise_constant_inputs"; }
    std::vector<std::string> tags() const override { return {"fast_run", "fast_compile", "canonicalize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        auto code = rw::plainElemwiseCode(node);
        if (!code || node.numOutputs() != 1) return MatchResult::fail("not a plain single-output Elemwise");
        if (*code == ScalarOpCode::Cast || *code == ScalarOpCode::Switch || *code == ScalarOpCode::Identity)
            return MatchResult::fail("the op does not upcast its inputs");
        if (*code == ScalarOpCode::PolyGamma) return MatchResult::fail("polygamma's order must stay an integer");
        const DType out = node.output(0)->type().dtype;
        std::vector<DType> dts;
        for (const Variable* v : node.inputs()) dts.push_back(v->type().dtype);
        if (scalarComputeDType(*code, dts) != out) return MatchResult::fail("the op does not compute in its output dtype");
        auto m = std::make_unique<UpcastMatch>();
        for (int i = 0; i < node.numInputs(); ++i) {
            const Variable* v = node.input(i);
            if (v->isConstant() && !v->type().isScalarType() && v->type().dtype != out) m->inputs.push_back(i);
        }
        if (m->inputs.empty()) return MatchResult::fail("no constant input of another dtype");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const UpcastMatch&>(match);
        const DType out = node.output(0)->type().dtype;
        std::vector<Variable*> ins = node.inputs();
        for (int i : m.inputs) {
            const Variable* c = ins[i];
            ins[i] = rewriter.constant(c->constantValue().astype(out), Type::tensor(out, c->type().shape));
        }
        rewriter.replace(node.output(0), rewriter.create(node.opPtr(), std::move(ins))->output(0));
    }
};

} // namespace

const NodeRewrite& localUpcastElemwiseConstantInputs() {
    static const LocalUpcastElemwiseConstantInputs r;
    return r;
}

} // namespace tl
