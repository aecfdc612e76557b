// local_log_erfc: log(erfc(x)) -> switch(x < t, log(erfc(x)), asymptote) (PyTensor's
// local_log_erfc; stabilize and specialize), the asymptote being
//     -x^2 - log(x) - log(pi) / 2 + log(1 - 1/(2x^2) + 3/(4x^4) - 15/(8x^6)),
// with PyTensor's thresholds t = 26.641747557 (float64) and 10.0541949 (float32), where
// erfc(x) is about to underflow: log(erfc(80)) is log(0) = -inf, the asymptote -6404.95.
// The log(erfc(x)) kept under the switch is what this rewrite builds, so it does not
// match again (PyTensor marks its node with a tag for the same purpose).
#include "rewrite/ErfcAsymptote.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <cmath>

namespace tl {

namespace {

using C = ScalarOpCode;

struct LogErfcMatch : RewriteMatch {
    Variable* erfc = nullptr;
    Variable* x = nullptr;
};

class LocalLogErfc final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_log_erfc"; }
    std::vector<std::string> tags() const override { return {"fast_run", "stabilize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (rw::plainElemwiseCode(node) != C::Log) return MatchResult::fail("not log");
        const Node* e = rw::elemwiseOwner(*node.input(0), C::Erfc);
        if (!e) return MatchResult::fail("not log(erfc(x))");
        const Type& out = node.output(0)->type();
        if (!isFloat(out.dtype) || e->input(0)->type().dtype != out.dtype || !(e->input(0)->type() == out))
            return MatchResult::fail("x is not a float of the log's type");
        if (rw::isGuardedByAsymptote(*node.output(0), *e->input(0))) return MatchResult::fail("already guarded by the asymptote");
        auto m = std::make_unique<LogErfcMatch>();
        m->erfc = e->output(0);
        m->x = e->input(0);
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const LogErfcMatch&>(match);
        const DType dt = node.output(0)->type().dtype;
        auto c = [&](double v) { return rewriter.constant(NDArray::scalar(dt, v)); };
        auto op = [&](C code, std::vector<Variable*> ins) { return rw::makeElemwiseOf(rewriter, code, std::move(ins)); };
        Variable* x = m.x;
        Variable* x2 = op(C::Mul, {x, x});
        Variable* series = rw::erfcAsymptoticSeries(rewriter, x2, dt);
        Variable* asymptote = op(C::Add, {op(C::Sub, {op(C::Sub, {op(C::Neg, {x2}), op(C::Log, {x})}), c(0.5 * std::log(M_PI))}),
                                          op(C::Log, {series})});
        const double threshold = dt == DType::Float32 ? 10.0541949 : 26.641747557;
        Variable* kept = op(C::Log, {m.erfc});
        rewriter.replace(node.output(0), op(C::Switch, {op(C::Lt, {x, c(threshold)}), kept, asymptote}));
    }
};

} // namespace

const NodeRewrite& localLogErfc() {
    static const LocalLogErfc r;
    return r;
}

} // namespace tl
