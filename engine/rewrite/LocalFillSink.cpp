// local_fill_sink: f(fill(a, b), fill(c, d), e) -> fill(c, fill(a, f(b, d, e))) for an
// elementwise f that is not itself a fill, so fills move towards the outputs, past
// everything computed from their values, where local_useless_fill and
// local_fill_to_alloc end them. A fill whose model provably broadcasts into f's other
// operands (rw::broadcastsInto) is dropped on the way: f's result already has that
// shape; so is one whose model's static shape SpecifyShape will check (below).
//   grad(log(erfc(x)).sum(), x):  fill(log(erfc(x)), g) / erfc(x)  ->  g / erfc(x)
// and log(erfc(x)), computed only to shape the gradient, is gone. PyTensor runs it as
// topological_fill_sink in canonicalize (shape_unsafe: it drops a fill whenever the
// broadcastable patterns allow).
#include "ops/Elemwise.h"
#include "rewrite/DimSources.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <algorithm>

namespace tl {

namespace {

struct SinkMatch : RewriteMatch {
    std::vector<Variable*> inputs;  // f's operands with each fill replaced by its value
    std::vector<Variable*> models;  // the fills' shape references f's result still needs
};

// PyTensor drops every fill whose model has the result's dtype and broadcastable
// pattern (shape-unsafe there: a model of another length goes unnoticed). tensorlens
// drops it when the model's shape is also all static: the result then knows less of
// its shape than the node did, and the pipeline's replace puts it in through
// SpecifyShape, which checks the model's lengths at run time. fill(k: (4,), x + 0)
// -> SpecifyShape(x, 4), PyTensor's graph.
bool checkedThroughConversion(const Type& model, const Type& result) {
    return model.fullyKnown() && model.dtype == result.dtype && rw::sameBroadcastPattern(model, result);
}

class LocalFillSink final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_fill_sink"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "fill_sink"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        auto code = rw::plainElemwiseCode(node);
        if (!code || *code == ScalarOpCode::Second || node.numOutputs() != 1)
            return MatchResult::fail("not a plain one-output Elemwise other than a fill");
        auto m = std::make_unique<SinkMatch>();
        std::vector<Variable*> allModels;
        for (Variable* in : node.inputs()) {
            const Node* fill = rw::elemwiseOwner(*in, ScalarOpCode::Second);
            if (!fill) {
                m->inputs.push_back(in);
                continue;
            }
            allModels.push_back(fill->input(0));
            m->inputs.push_back(fill->input(1));  // Second's result has its value's dtype
        }
        if (allModels.empty()) return MatchResult::fail("no operand is a fill");
        // The rebuilt expression must keep the node's type (static dims may only be lost).
        std::vector<const Type*> ts;
        for (const Variable* v : m->inputs) ts.push_back(&v->type());
        Type t;
        try {
            t = node.op().inferTypes(ts).at(0);
            for (Variable* a : allModels)
                if (std::find(m->models.begin(), m->models.end(), a) == m->models.end() &&
                    !rw::broadcastsInto(*a, std::span<const Variable* const>(m->inputs.data(), m->inputs.size())) &&
                    !checkedThroughConversion(a->type(), t))
                    m->models.push_back(a);
            for (const Variable* a : m->models) {
                const Type* pair[] = {&a->type(), &t};
                t = makeElemwise(ScalarOpCode::Second)->inferTypes(pair).at(0);
            }
        } catch (const OpTypeError&) {
            return MatchResult::fail("the operands without their fills do not type-check");
        }
        if (!rw::compatibleTypes(t, node.output(0)->type())) return MatchResult::fail("sinking would change the result's type");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const SinkMatch&>(match);
        Variable* out = rewriter.create(node.opPtr(), m.inputs)->output(0);
        for (Variable* a : m.models) out = rewriter.create(makeElemwise(ScalarOpCode::Second), {a, out})->output(0);
        rewriter.replace(node.output(0), out);
    }
};

} // namespace

const NodeRewrite& localFillSink() {
    static const LocalFillSink r;
    return r;
}

} // namespace tl
