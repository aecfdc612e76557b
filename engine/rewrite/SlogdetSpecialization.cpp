// slogdet_specialization (PyTensor's, specialize): when a determinant is read only
// through its sign, its log, or the log of its absolute value, one SLogDet gives
// them without forming the determinant, which overflows or underflows where its log
// does not:
//   sign(det(X))      ->  SLogDet(X).0
//   log(abs(det(X)))  ->  SLogDet(X).1
//   log(det(X))       ->  switch(eq(SLogDet(X).0, -1), nan, SLogDet(X).1)
// pt.linalg.slogdet builds the first two, so every slogdet becomes one SLogDet. Kept
// when any other op, or the graph's outputs, read the determinant (it would be
// computed twice), or an abs of it is read by no log. SLogDet takes a matrix (its
// make_node asserts it), so a batched determinant is kept, as in PyTensor.
#include "ops/Blockwise.h"
#include "ops/Elemwise.h"
#include "ops/Linalg.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <cmath>
#include <limits>

namespace tl {

namespace {

enum class Reads { Sign, LogAbsDet, LogDet };

struct SlogdetMatch : RewriteMatch {
    std::vector<std::pair<Variable*, Reads>> reads;
};

class SlogdetSpecialization final : public NodeRewrite {
public:
    std::string_view name() const override { return "slogdet_specialization"; }
    std::vector<std::string> tags() const override { return {"fast_run", "specialize"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        if (static_cast<const BlockwiseOp&>(node.op()).core().kind() != OpKind::Det) return MatchResult::fail("not a det()");
        const Type& x = node.input(0)->type();
        if (x.ndim() != 2) return MatchResult::fail("a batch of determinants (SLogDet takes one matrix)");
        if (!isFloat(x.dtype)) return MatchResult::fail("not a float matrix");
        auto m = std::make_unique<SlogdetMatch>();
        for (const Client& c : node.output(0)->clients()) {
            const std::optional<ScalarOpCode> code = c.isGraphOutput() ? std::nullopt : rw::plainElemwiseCode(*c.node);
            if (code == ScalarOpCode::Sign) {
                m->reads.emplace_back(c.node->output(0), Reads::Sign);
            } else if (code == ScalarOpCode::Abs) {
                Node* log = nullptr;
                for (const Client& a : c.node->output(0)->clients())
                    if (!a.isGraphOutput() && rw::plainElemwiseCode(*a.node) == ScalarOpCode::Log) log = a.node;
                if (!log) return MatchResult::fail("an abs of the determinant is read by no log");
                m->reads.emplace_back(log->output(0), Reads::LogAbsDet);
            } else if (code == ScalarOpCode::Log) {
                m->reads.emplace_back(c.node->output(0), Reads::LogDet);
            } else {
                return MatchResult::fail("the determinant itself is read (by another op or as an output)");
            }
        }
        if (m->reads.empty()) return MatchResult::fail("nothing reads the determinant");
        // PyTensor's nan is a float64 constant: its switch would not replace a float32 log.
        for (const auto& [read, what] : m->reads)
            if (what == Reads::LogDet && x.dtype != DType::Float64)
                return MatchResult::fail("log(det) of a float32 matrix (PyTensor's replacement is float64)");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        Node* slogdet = rewriter.create(makeSLogDet(), {node.input(0)});
        Variable* sign = slogdet->output(0);
        Variable* logAbs = slogdet->output(1);
        Variable* logDet = nullptr;  // made only when read
        std::vector<std::pair<VarId, Variable*>> replacements;
        for (const auto& [read, what] : static_cast<const SlogdetMatch&>(match).reads) {
            Variable* now = what == Reads::Sign ? sign : logAbs;
            if (what == Reads::LogDet) {
                if (!logDet) {
                    // pt.where(pt.eq(sign, -1), np.nan, log_abs_det): -1 an int8 constant, nan a float64 one.
                    Variable* negative = rw::makeElemwiseOf(rewriter, ScalarOpCode::Eq, {sign, rewriter.constant(rw::scalarArray(DType::Int8, -1))});
                    Variable* nan = rewriter.constant(NDArray::scalar(DType::Float64, std::numeric_limits<double>::quiet_NaN()));
                    logDet = rw::makeElemwiseOf(rewriter, ScalarOpCode::Switch, {negative, nan, logAbs});
                }
                now = logDet;
            }
            replacements.emplace_back(read->id(), now);
        }
        for (auto [id, now] : replacements)
            if (Variable* old = rewriter.graph().findVariable(id)) rewriter.replace(old, now);
    }
};

} // namespace

const NodeRewrite& slogdetSpecialization() {
    static const SlogdetSpecialization r;
    return r;
}

} // namespace tl
