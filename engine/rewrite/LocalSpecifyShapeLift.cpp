// local_specify_shape_lift (PyTensor's, canonicalize and specialize): a SpecifyShape of
// an Elemwise moves onto one of its inputs, so the shape is known where the
// computation starts and the Elemwise can fuse with its readers:
//   SpecifyShape(exp(x), 4)         -> exp(SpecifyShape(x, 4))
//   SpecifyShape(x + y, 4, 5)       -> SpecifyShape(x, 4, 5) + y    (x: (?, ?), y: (1, ?))
// With several inputs, the SpecifyShape goes to the first input that is not
// broadcastable in any dim the specification names (it then decides those lengths);
// none is left alone, as is a specification that makes a dim broadcastable the
// Elemwise's output was not (each input would need its own). SpecifyShape is used
// here as PyTensor uses it: its shape inputs are copied as they are, NoneConst included.
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct LiftMatch : RewriteMatch {
    int input = 0;  // the Elemwise input that gets the SpecifyShape
};

class LocalSpecifyShapeLift final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_specify_shape_lift"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::SpecifyShape}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const Node* elem = node.input(0)->owner();
        if (!elem || elem->kind() != OpKind::Elemwise) return MatchResult::fail("its input is not an Elemwise's");
        if (elem->numOutputs() != 1) return MatchResult::fail("the Elemwise has several outputs");
        const Type& before = node.input(0)->type();
        const Type& specified = node.output(0)->type();
        int chosen = 0;
        if (elem->numInputs() > 1) {
            for (int d = 0; d < specified.ndim(); ++d)
                if (specified.broadcastable(d) != before.broadcastable(d))
                    return MatchResult::fail("the specification makes a dim broadcastable the Elemwise's output was not");
            chosen = -1;
            for (int i = 0; i < elem->numInputs() && chosen < 0; ++i) {
                const Type& t = elem->input(i)->type();
                bool sufficient = true;
                for (int d = 0; d < specified.ndim() && sufficient; ++d)
                    if (!specified.broadcastable(d) && !node.input(1 + d)->type().isNoneType() && t.broadcastable(d))
                        sufficient = false;
                if (sufficient) chosen = i;
            }
            if (chosen < 0) return MatchResult::fail("every input is broadcastable in a specified dim");
        }
        // The lifted Elemwise must know at least what the SpecifyShape did: a less
        // specific one would come back through SpecifyShape and be lifted again.
        const std::optional<Type> lifted = liftedOutputType(node, *elem, chosen);
        if (!lifted || !specified.accepts(*lifted))
            return MatchResult::fail("the lifted Elemwise would know less of the shape than the specification");
        auto m = std::make_unique<LiftMatch>();
        m->input = chosen;
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const int chosen = static_cast<const LiftMatch&>(match).input;
        const Node* elem = node.input(0)->owner();
        std::vector<Variable*> spec(node.inputs().begin(), node.inputs().end());
        spec[0] = elem->input(chosen);
        std::vector<Variable*> ins(elem->inputs().begin(), elem->inputs().end());
        ins[chosen] = rewriter.create(node.opPtr(), std::move(spec))->output(0);
        rewriter.replace(node.output(0), rewriter.create(elem->opPtr(), std::move(ins))->output(0));
    }

private:
    // The type the Elemwise would have with SpecifyShape on input `chosen`.
    static std::optional<Type> liftedOutputType(const Node& spec, const Node& elem, int chosen) {
        std::vector<const Type*> specTypes;
        std::vector<const NDArray*> specConstants;
        for (int i = 0; i < spec.numInputs(); ++i) {
            const Variable* v = i == 0 ? elem.input(chosen) : spec.input(i);
            specTypes.push_back(&v->type());
            specConstants.push_back(v->isConstant() ? &v->constantValue() : nullptr);
        }
        try {
            const Type liftedInput = spec.op().inferTypesWithConstants(specTypes, specConstants).at(0);
            std::vector<const Type*> types;
            for (int i = 0; i < elem.numInputs(); ++i) types.push_back(i == chosen ? &liftedInput : &elem.input(i)->type());
            return elem.op().inferTypes(types).at(0);
        } catch (const OpTypeError&) {
            return std::nullopt;  // the input contradicts the specification: not this rewrite's to report
        }
    }
};

} // namespace

const NodeRewrite& localSpecifyShapeLift() {
    static const LocalSpecifyShapeLift r;
    return r;
}

} // namespace tl
