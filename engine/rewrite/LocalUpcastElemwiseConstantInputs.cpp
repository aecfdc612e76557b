// local_upcast_elemwise_constant_inputs: constants fed to an Elemwise that converts
// its inputs to the output's dtype anyway are stored in that dtype, as PyTensor's
// local_upcast_elemwise_constant_inputs (so `1 + x` and `1.0 + x` merge, and the
// fused Composite prints `1.0`):
//   add(x: float64, [1]: int8)  -> add(x, [1.0]: float64)
// PyTensor matches the scalar ops by their output-type rule: exactly `upcast_out`
// (add, mul, true_div, int_div, mod, maximum, minimum, mul_without_zeros) or
// `upgrade_to_float` (exp, log, the trigonometric functions, erf, the gamma family,
// the Bessel functions, xlogx, xlogy0, ...). Ops with a variant of those rules are not
// matched: sub (`upcast_out_nobool`), pow (`upcast_out_min8`), clip (`upcast_out_no_complex`),
// floor, ceil, trunc, erfc, erfcx, erfinv, tri_gamma, betainc (`..._no_complex`),
// and comparisons, casts, switch, sqr, neg keep their constants as they are.
#include "ops/Elemwise.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

// The scalar ops whose PyTensor output-type rule is exactly upcast_out or upgrade_to_float.
bool upcastsItsInputs(ScalarOpCode code) {
    using C = ScalarOpCode;
    switch (code) {
    case C::Add: case C::Mul: case C::TrueDiv: case C::IntDiv: case C::Mod: case C::Maximum: case C::Minimum:
    case C::MulWithoutZeros:
    case C::Reciprocal: case C::Log: case C::Log2: case C::Log10: case C::Log1p: case C::Exp: case C::Exp2:
    case C::Expm1: case C::Sqrt: case C::Deg2Rad: case C::Rad2Deg: case C::Cos: case C::ArcCos: case C::Sin:
    case C::ArcSin: case C::Tan: case C::ArcTan: case C::ArcTan2: case C::Cosh: case C::ArcCosh: case C::Sinh:
    case C::ArcSinh: case C::Tanh: case C::ArcTanh: case C::Erf: case C::Gamma: case C::GammaLn: case C::Psi:
    case C::GammaInc: case C::GammaIncC: case C::GammaIncInv: case C::GammaIncCInv: case C::GammaU: case C::GammaL:
    case C::Jv: case C::J1: case C::J0: case C::Iv: case C::I1: case C::I0: case C::Ive: case C::Kve:
    case C::Sigmoid: case C::Softplus: case C::Log1mexp: case C::Hyp2F1: case C::OwensT:
    case C::XlogX: case C::XlogY0:
        return true;
    default:
        return false;
    }
}

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
        if (!upcastsItsInputs(*code))
            return MatchResult::fail("PyTensor upcasts constants only for ops with output types upcast_out or upgrade_to_float");
        const DType out = node.output(0)->type().dtype;
        std::vector<DType> dts;
        for (const Variable* v : node.inputs()) dts.push_back(v->type().dtype);
        // xlogx and xlogy0 compute a discrete x in float64 (PyTensor's Python impl), but their
        // rule is upgrade_to_float all the same: PyTensor upcasts their constants too.
        const bool xlog = *code == ScalarOpCode::XlogX || *code == ScalarOpCode::XlogY0;
        if (!xlog && scalarComputeDType(*code, dts) != out) return MatchResult::fail("the op does not compute in its output dtype");
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
        std::vector<Variable*> ins = node.inputs().toVector();
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
