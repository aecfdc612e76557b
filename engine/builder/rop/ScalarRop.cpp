#include "builder/rop/ScalarRop.h"

#include "builder/Math.h"
#include "ir/Graph.h"
#include "ops/ScalarOp.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace tl {

namespace {

// Sum of the non-zero terms (empty Var when all are zero).
Var sumOf(const std::vector<Var>& terms) {
    std::vector<Var> live;
    for (const Var& t : terms)
        if (t.valid()) live.push_back(t);
    if (live.empty()) return {};
    return add(std::move(live));
}

// A constant of like's dtype and kind: the derivatives' irrational factors
// (2/sqrt(pi), ln 2) must not upcast a float32 tangent as a float64 literal would.
Var constantLike(const Var& like, double v) {
    NDArray a = NDArray::scalar(like.dtype(), v);
    if (like.type().isScalarType()) return like.builder().constant(std::move(a), Type::scalar(like.dtype()));
    return like.builder().constant(std::move(a));
}

constexpr double kTwoOverSqrtPi = 1.1283791670955126;  // 2 / sqrt(pi)
constexpr double kSqrtPiOverTwo = 0.88622692545275801;   // sqrt(pi) / 2
constexpr double kPi = 3.14159265358979323846;

// PyTensor has no gradient for this input (grad_not_implemented, a ScalarLoop
// tensorlens lacks, or none at all): a tangent there has no rule.
[[noreturn]] void noRule(ScalarOpCode code, const char* input) {
    throw std::logic_error("no forward derivative (R_op) for " + std::string(scalarOpInfo(code).innerName) +
                           " with respect to " + input + " (PyTensor has no gradient there tensorlens can build)");
}
constexpr double kLn2 = 0.69314718055994531;
constexpr double kLn10 = 2.3025850929940457;

} // namespace

Var scalarOpRop(ScalarOpCode code, DType castTo, const std::vector<Var>& x, const Var& y, const std::vector<Var>& t) {
    using C = ScalarOpCode;
    bool any = false;
    for (const Var& v : t) any = any || v.valid();
    if (!any || !scalarOpDifferentiable(code, y.dtype())) return {};
    auto has = [&](size_t i) { return i < t.size() && t[i].valid(); };
    auto orZero = [&](size_t i) { return has(i) ? t[i] : literalOf(y, 0); };
    switch (code) {
    case C::Add: return sumOf(t);
    case C::Sub:
        if (has(0) && has(1)) return t[0] - t[1];
        return has(0) ? t[0] : -t[1];
    case C::Mul: {
        std::vector<Var> terms;
        for (size_t i = 0; i < x.size(); ++i) {
            if (!has(i)) continue;
            std::vector<Var> others;
            for (size_t j = 0; j < x.size(); ++j)
                if (j != i) others.push_back(x[j]);
            terms.push_back(mul(std::move(others)) * t[i]);
        }
        return sumOf(terms);
    }
    case C::TrueDiv: {
        Var second = has(1) ? (x[0] * t[1]) / sqr(x[1]) : Var();
        if (has(0)) return second.valid() ? t[0] / x[1] - second : t[0] / x[1];
        return -second;
    }
    case C::Mod: {
        // d(x mod y) = dx - floor(x / y) dy (PyTensor's Mod gradient).
        Var second = has(1) ? intDiv(x[0], x[1]) * t[1] : Var();
        if (has(0)) return second.valid() ? t[0] - second : t[0];
        return -second;
    }
    case C::Neg: return -t[0];
    case C::Abs: {
        const Var sign = cast(gt(x[0], 0), y.dtype()) - cast(lt(x[0], 0), y.dtype());
        return sign * t[0];
    }
    case C::Exp: return y * t[0];
    case C::Log: return t[0] / x[0];
    case C::Log1p: return t[0] / (1 + x[0]);
    case C::Expm1: return (y + 1) * t[0];
    case C::Sqrt: return t[0] / (2 * y);
    case C::Sqr: return (2 * x[0]) * t[0];
    case C::Sin: return cos(x[0]) * t[0];
    case C::Cos: return -sin(x[0]) * t[0];
    case C::Tanh: return (1 - sqr(y)) * t[0];
    case C::Sigmoid: return (y * (1 - y)) * t[0];
    case C::Softplus: return sigmoid(x[0]) * t[0];
    case C::Pow: {
        Var first = has(0) ? (x[1] * pow(x[0], x[1] - 1)) * t[0] : Var();
        // d/dy x^y = log(x) x^y, taken as 0 at x == 0 as PyTensor does.
        Var second = has(1) ? switch_(eq(x[0], 0), literalOf(y, 0), log(x[0]) * y) * t[1] : Var();
        return sumOf({first, second});
    }
    case C::Maximum:
    case C::Minimum: return switch_(eq(y, x[0]), orZero(0), orZero(1));
    case C::Switch:
        if (!has(1) && !has(2)) return {};
        return switch_(x[0], orZero(1), orZero(2));
    case C::Identity:
    case C::Real: return t[0];
    case C::Cast: return has(0) ? cast(t[0], castTo) : Var();
    case C::Reciprocal: return -(sqr(y) * t[0]);
    case C::Erf: return (constantLike(y, kTwoOverSqrtPi) * exp(-sqr(x[0]))) * t[0];
    case C::Erfc: return -((constantLike(y, kTwoOverSqrtPi) * exp(-sqr(x[0]))) * t[0]);
    case C::Sinh: return cosh(x[0]) * t[0];
    case C::Cosh: return sinh(x[0]) * t[0];
    case C::Tan: return t[0] / sqr(cos(x[0]));
    case C::ArcSin: return t[0] / sqrt(1 - sqr(x[0]));
    case C::ArcCos: return -(t[0] / sqrt(1 - sqr(x[0])));
    case C::ArcTan: return t[0] / (1 + sqr(x[0]));
    case C::Log2: return t[0] / (x[0] * constantLike(y, kLn2));
    case C::Log10: return t[0] / (x[0] * constantLike(y, kLn10));
    case C::Exp2: return (y * constantLike(y, kLn2)) * t[0];
    case C::ArcTan2: {
        // d atan2(a, b) = (b da - a db) / (a^2 + b^2).
        Var num = has(0) && has(1) ? x[1] * t[0] - x[0] * t[1] : has(0) ? x[1] * t[0] : -(x[0] * t[1]);
        return num / (sqr(x[0]) + sqr(x[1]));
    }
    case C::Clip: {
        // PyTensor's Clip gradient: x's where lo <= x <= hi, lo's where x < lo,
        // hi's where x > hi (both bounds' when lo > hi; none for NaN x).
        std::vector<Var> terms;
        if (has(0)) terms.push_back(cast(and_(ge(x[0], x[1]), le(x[0], x[2])), y.dtype()) * t[0]);
        if (has(1)) terms.push_back(cast(lt(x[0], x[1]), y.dtype()) * t[1]);
        if (has(2)) terms.push_back(cast(gt(x[0], x[2]), y.dtype()) * t[2]);
        return sumOf(terms);
    }
    case C::Second: return has(1) ? t[1] : Var();  // y broadcast: its tangent broadcast
    case C::Deg2Rad: return t[0] * constantLike(y, kPi / 180.0);
    case C::Rad2Deg: return t[0] * constantLike(y, 180.0 / kPi);
    case C::ArcCosh: return t[0] / sqrt(sqr(x[0]) - 1);
    case C::ArcSinh: return t[0] / sqrt(sqr(x[0]) + 1);
    case C::ArcTanh: return t[0] / (1 - sqr(x[0]));
    case C::Erfcx: return (constantLike(y, -kTwoOverSqrtPi) + (2 * x[0]) * y) * t[0];
    case C::Erfinv: return (constantLike(y, kSqrtPiOverTwo) * exp(sqr(y))) * t[0];
    case C::Erfcinv: return -((constantLike(y, kSqrtPiOverTwo) * exp(sqr(y))) * t[0]);
    case C::Gamma: return (y * psi(x[0])) * t[0];
    case C::GammaLn: return psi(x[0]) * t[0];
    case C::Psi: return triGamma(x[0]) * t[0];
    case C::TriGamma: return polygamma(literalOf(x[0], 2), x[0]) * t[0];
    case C::PolyGamma:  // the order is an integer: its tangent is zero
        if (!has(1)) return {};
        return polygamma(x[0] + 1, x[1]) * t[1];
    case C::GammaInc:
    case C::GammaIncC: {
        if (has(0)) noRule(code, "k (PyTensor's gammainc_grad is a ScalarLoop)");
        // d/dx P(k, x) = exp(-x + (k - 1) log x - gammaln(k)); Q's is its negation.
        Var d = exp(-x[1] + (x[0] - 1) * log(x[1]) - gammaln(x[0]));
        return code == C::GammaInc ? d * t[1] : -(d * t[1]);
    }
    case C::GammaIncInv:
    case C::GammaIncCInv: {
        if (has(0)) noRule(code, "k");
        Var d = exp(y) * gamma(x[0]) * pow(y, 1 - x[0]);
        return code == C::GammaIncInv ? d * t[1] : -(d * t[1]);
    }
    case C::Log1mexp: {
        // -1 / expm1(-x), with PyTensor's correction to -inf where it is infinite (x = 0).
        Var r = literalOf(y, -1.0) / expm1(-x[0]);
        return switch_(isinf(r), constantLike(y, -std::numeric_limits<double>::infinity()), r) * t[0];
    }
    case C::BetaInc: {
        if (has(0)) noRule(code, "a (PyTensor's betainc_grad is a ScalarLoop)");
        if (has(1)) noRule(code, "b (PyTensor's betainc_grad is a ScalarLoop)");
        const Var &a = x[0], &b = x[1], &z = x[2];
        return exp(log1p(-z) * (b - 1) + log(z) * (a - 1) - (gammaln(a) + gammaln(b) - gammaln(a + b))) * t[2];
    }
    case C::BetaIncInv: {
        if (has(0)) noRule(code, "a");
        if (has(1)) noRule(code, "b");
        const Var &a = x[0], &b = x[1];
        const Var betaln = gammaln(a) + gammaln(b) - gammaln(a + b);
        return (exp(betaln) * pow(1 - y, 1 - b) * pow(y, 1 - a)) * t[2];
    }
    case C::J0: return -(j1(x[0]) * t[0]);
    case C::J1: return ((j0(x[0]) - jv(literalOf(x[0], 2), x[0])) / 2) * t[0];
    case C::I0: return i1(x[0]) * t[0];
    case C::I1: return ((i0(x[0]) + iv(literalOf(x[0], 2), x[0])) / 2) * t[0];
    case C::Jv:
        if (has(0)) noRule(code, "v");
        return ((jv(x[0] - 1, x[1]) - jv(x[0] + 1, x[1])) / 2) * t[1];
    case C::Iv:
        if (has(0)) noRule(code, "v");
        return ((iv(x[0] - 1, x[1]) + iv(x[0] + 1, x[1])) / 2) * t[1];
    case C::Ive:
        if (has(0)) noRule(code, "v");
        // PyTensor: (ive(v-1, x) - 2 sign(x) ive(v, x) + ive(v+1, x)) / 2, sign(0) taken as 0.
        return ((ive(x[0] - 1, x[1]) - 2 * sign(x[1]) * y + ive(x[0] + 1, x[1])) / 2) * t[1];
    case C::Kve:
        if (has(0)) noRule(code, "v");
        return ((1 - x[0] / x[1]) * y - kve(x[0] - 1, x[1])) * t[1];
    case C::OwensT: {
        // dT/dh = -exp(-h²/2) erf(a h / sqrt 2) / (2 sqrt(2 pi)); dT/da = exp(-(a² + 1) h² / 2) / (2 pi (a² + 1)).
        const Var &h = x[0], &a = x[1];
        std::vector<Var> terms;
        if (has(0))
            terms.push_back(-(exp(-sqr(h) / 2) * erf(a * h / constantLike(y, std::sqrt(2.0))) /
                              constantLike(y, 2 * std::sqrt(2 * kPi))) * t[0]);
        if (has(1))
            terms.push_back(exp(constantLike(y, -0.5) * (sqr(a) + 1) * sqr(h)) / (constantLike(y, 2 * kPi) * (sqr(a) + 1)) * t[1]);
        return sumOf(terms);
    }
    case C::Hyp2F1:
        if (has(0) || has(1) || has(2)) noRule(code, "a, b or c (PyTensor's hyp2f1_grad is a ScalarLoop)");
        return ((x[0] * x[1]) / x[2] * hyp2f1(x[0] + 1, x[1] + 1, x[2] + 1, x[3])) * t[3];
    case C::XlogX: return (1 + log(x[0])) * t[0];  // PyTensor's grad: gz (1 + log x), -inf at x = 0
    case C::XlogY0: {
        // PyTensor's grad: (gz log y, gz x / y), not special-cased at x = 0.
        std::vector<Var> terms;
        if (has(0)) terms.push_back(log(x[1]) * t[0]);
        if (has(1)) terms.push_back(x[0] / x[1] * t[1]);
        return sumOf(terms);
    }
    case C::GammaU:
    case C::GammaL:
    case C::MulWithoutZeros: noRule(code, "its inputs");
    default: return {};
    }
}

std::vector<Var> compositeRop(const Graph& g, const std::vector<Var>& ins, const std::vector<Var>& outs,
                              const std::vector<Var>& tangents) {
    const std::vector<Node*> order = g.toposort();
    std::unordered_map<const Variable*, Var> primal, tangent;
    for (size_t k = 0; k < g.inputs().size(); ++k) {
        primal[g.inputs()[k]] = ins[k];
        if (k < tangents.size() && tangents[k].valid()) tangent[g.inputs()[k]] = tangents[k];
    }
    for (size_t o = 0; o < g.outputs().size(); ++o)
        if (g.outputs()[o]->owner()) primal.emplace(g.outputs()[o], outs[o]);

    // Which node outputs can carry a non-zero tangent.
    std::unordered_set<const Variable*> live;
    for (auto& [v, t] : tangent) live.insert(v);
    std::vector<char> nodeLive(order.size(), 0);
    for (size_t k = 0; k < order.size(); ++k) {
        const Node* n = order[k];
        const auto& op = static_cast<const ScalarOp&>(n->op());
        bool any = false;
        for (Variable* v : n->inputs()) any = any || live.count(v);
        if (any && scalarOpDifferentiable(op.code(), n->output(0)->type().dtype)) {
            live.insert(n->output(0));
            nodeLive[k] = 1;
        }
    }
    // Which primal values the rules need, and what computing them needs (reverse order).
    std::unordered_set<const Variable*> need;
    for (size_t k = 0; k < order.size(); ++k) {
        if (!nodeLive[k]) continue;
        for (Variable* v : order[k]->inputs()) need.insert(v);
        need.insert(order[k]->output(0));
    }
    for (size_t k = order.size(); k-- > 0;) {
        const Node* n = order[k];
        if (need.count(n->output(0)) && !primal.count(n->output(0)))
            for (Variable* v : n->inputs()) need.insert(v);
    }
    GraphBuilder& b = outs.at(0).builder();
    auto primalOf = [&](Variable* v) -> Var {
        if (auto it = primal.find(v); it != primal.end()) return it->second;
        if (!v->isConstant()) throw std::logic_error("compositeRop: primal of inner variable " + std::to_string(v->id()) + " missing");
        return primal[v] = b.constant(v->constantValue().copy());  // a 0-d tensor constant of the same dtype
    };
    for (size_t k = 0; k < order.size(); ++k) {
        Node* n = order[k];
        const bool build = need.count(n->output(0)) && !primal.count(n->output(0));
        if (!build && !nodeLive[k]) continue;
        const auto& op = static_cast<const ScalarOp&>(n->op());
        std::vector<Var> xs, ts;
        for (Variable* v : n->inputs()) {
            xs.push_back(primalOf(v));
            auto it = tangent.find(v);
            ts.push_back(it == tangent.end() ? Var() : it->second);
        }
        if (build) primal[n->output(0)] = applyScalar(op.code(), xs, op.castTo());
        if (nodeLive[k]) {
            Var t = scalarOpRop(op.code(), op.castTo(), xs, primal.at(n->output(0)), ts);
            if (t.valid()) tangent[n->output(0)] = t;
        }
    }
    std::vector<Var> result;
    for (Variable* o : g.outputs()) {
        auto it = tangent.find(o);
        result.push_back(it == tangent.end() || o->isGraphInput() ? Var() : it->second);
    }
    return result;
}

Var broadcastTangent(const Var& t, const Var& like) {
    if (!t.valid() || t.type().isScalarType() || like.type().isScalarType()) return t;
    bool needs = t.ndim() < like.ndim();
    const int off = like.ndim() - t.ndim();
    for (int d = 0; !needs && d < t.ndim(); ++d) needs = t.type().shape[d] == 1 && like.type().shape[d + off] != 1;
    if (!needs) return t;
    // switch(like == like, t, t) is t broadcast to like's shape whatever like holds (NaN too).
    return switch_(eq(like, like), t, t);
}

} // namespace tl
