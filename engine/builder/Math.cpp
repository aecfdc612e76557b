#include "builder/Math.h"

#include "ops/DimShuffle.h"
#include "ops/Elemwise.h"
#include "ops/ScalarOp.h"

#include <stdexcept>

namespace tl {

namespace {

int depth(const GraphBuilder* b) {
    int d = 0;
    for (; b; b = b->parent()) ++d;
    return d;
}

// The builder a node over these inputs belongs in: the innermost one; the others
// must enclose it (their variables are captured, as scan bodies capture outer ones).
GraphBuilder& innermostBuilder(const std::vector<Var>& inputs, const char* what) {
    GraphBuilder* best = nullptr;
    for (const Var& v : inputs) {
        if (!v.valid()) throw std::invalid_argument(std::string(what) + ": an input is an empty Var");
        GraphBuilder* b = &v.builder();
        if (!best || depth(b) > depth(best)) best = b;
    }
    for (const Var& v : inputs) {
        const GraphBuilder* b = &v.builder();
        const GraphBuilder* p = best;
        while (p && p != b) p = p->parent();
        if (!p) throw std::invalid_argument(std::string(what) + ": inputs come from unrelated graph builders");
    }
    return *best;
}

Var unary(ScalarOpCode code, const Var& x) { return applyScalar(code, {x}); }
Var binary(ScalarOpCode code, const Var& a, const Var& b) { return applyScalar(code, {a, b}); }

Var makeLiteral(const Var& like, DType dtype, auto value) {
    if (!like.valid()) throw std::invalid_argument("literal: needs a Var to take the builder from");
    NDArray a = NDArray::empty(dtype, {});
    dispatchDType(dtype, [&](auto t) { a.data<decltype(t)>()[0] = static_cast<decltype(t)>(value); });
    GraphBuilder& b = like.builder();
    if (like.type().isScalarType()) return b.constant(std::move(a), Type::scalar(dtype));
    return b.constant(std::move(a));
}

} // namespace

Var applyScalar(ScalarOpCode code, std::vector<Var> inputs, DType castTo) {
    const std::string what = scalarOpName(code, castTo);
    if (inputs.empty()) throw std::invalid_argument(what + ": no inputs");
    GraphBuilder& b = innermostBuilder(inputs, what.c_str());
    int scalars = 0, maxNd = 0;
    for (const Var& v : inputs) {
        if (v.type().isScalarType()) ++scalars;
        else maxNd = std::max(maxNd, v.ndim());
    }
    if (scalars == static_cast<int>(inputs.size())) return b.apply1(makeScalarOp(code, castTo), std::move(inputs));
    if (scalars != 0)
        throw std::invalid_argument(what + ": cannot mix ScalarType and tensor inputs (convert the scalar first)");
    for (Var& v : inputs) {
        const int nd = v.ndim();
        if (nd == maxNd) continue;
        // PyTensor's Elemwise.make_node: input.dimshuffle(['x'] * difference + list(range(nd))).
        std::vector<int> order(static_cast<size_t>(maxNd - nd), -1);
        for (int d = 0; d < nd; ++d) order.push_back(d);
        v = b.apply1(makeDimShuffle(nd, std::move(order)), {v});
    }
    return b.apply1(makeElemwise(code, castTo), std::move(inputs));
}

DType autocastIntDType(int64_t v) {
    if (v >= -128 && v <= 127) return DType::Int8;
    if (v >= -32768 && v <= 32767) return DType::Int16;
    if (v >= INT32_MIN && v <= INT32_MAX) return DType::Int32;
    return DType::Int64;
}

DType autocastFloatDType(double v) {
    // float16 is skipped (floatX is float64); float32 when it holds v exactly.
    if (v == static_cast<double>(static_cast<float>(v))) return DType::Float32;
    return DType::Float64;
}

Var literal(const Var& like, int64_t v) { return makeLiteral(like, autocastIntDType(v), v); }
Var literal(const Var& like, double v) {
    const DType d = autocastFloatDType(v);
    if (d == DType::Float32) return makeLiteral(like, d, static_cast<float>(v));
    return makeLiteral(like, d, v);
}
Var literal(const Var& like, bool v) { return makeLiteral(like, DType::Bool, v); }

Var add(std::vector<Var> terms) {
    if (terms.size() == 1) return terms[0];
    return applyScalar(ScalarOpCode::Add, std::move(terms));
}
Var mul(std::vector<Var> factors) {
    if (factors.size() == 1) return factors[0];
    return applyScalar(ScalarOpCode::Mul, std::move(factors));
}

Var neg(const Var& x) { return unary(ScalarOpCode::Neg, x); }
Var abs(const Var& x) { return unary(ScalarOpCode::Abs, x); }
Var exp(const Var& x) { return unary(ScalarOpCode::Exp, x); }
Var log(const Var& x) { return unary(ScalarOpCode::Log, x); }
Var log1p(const Var& x) { return unary(ScalarOpCode::Log1p, x); }
Var expm1(const Var& x) { return unary(ScalarOpCode::Expm1, x); }
Var sqrt(const Var& x) { return unary(ScalarOpCode::Sqrt, x); }
Var sqr(const Var& x) { return unary(ScalarOpCode::Sqr, x); }
Var sin(const Var& x) { return unary(ScalarOpCode::Sin, x); }
Var cos(const Var& x) { return unary(ScalarOpCode::Cos, x); }
Var tanh(const Var& x) { return unary(ScalarOpCode::Tanh, x); }
Var sigmoid(const Var& x) { return unary(ScalarOpCode::Sigmoid, x); }
Var softplus(const Var& x) { return unary(ScalarOpCode::Softplus, x); }
Var invert(const Var& x) { return unary(ScalarOpCode::Invert, x); }
Var identity(const Var& x) { return unary(ScalarOpCode::Identity, x); }

Var sign(const Var& x) { return unary(ScalarOpCode::Sign, x); }
Var floor(const Var& x) { return unary(ScalarOpCode::Floor, x); }
Var ceil(const Var& x) { return unary(ScalarOpCode::Ceil, x); }
Var roundHalfToEven(const Var& x) { return unary(ScalarOpCode::RoundHalfToEven, x); }
Var reciprocal(const Var& x) { return unary(ScalarOpCode::Reciprocal, x); }
Var erf(const Var& x) { return unary(ScalarOpCode::Erf, x); }
Var erfc(const Var& x) { return unary(ScalarOpCode::Erfc, x); }
Var sinh(const Var& x) { return unary(ScalarOpCode::Sinh, x); }
Var cosh(const Var& x) { return unary(ScalarOpCode::Cosh, x); }
Var tan(const Var& x) { return unary(ScalarOpCode::Tan, x); }
Var arcsin(const Var& x) { return unary(ScalarOpCode::ArcSin, x); }
Var arccos(const Var& x) { return unary(ScalarOpCode::ArcCos, x); }
Var arctan(const Var& x) { return unary(ScalarOpCode::ArcTan, x); }
Var log2(const Var& x) { return unary(ScalarOpCode::Log2, x); }
Var log10(const Var& x) { return unary(ScalarOpCode::Log10, x); }
Var exp2(const Var& x) { return unary(ScalarOpCode::Exp2, x); }
Var clip(const Var& x, const Var& lo, const Var& hi) { return applyScalar(ScalarOpCode::Clip, {x, lo, hi}); }

Var cast(const Var& x, DType dtype) {
    if (!x.valid()) throw std::invalid_argument("cast: empty Var");
    if (x.dtype() == dtype) return x;
    return applyScalar(ScalarOpCode::Cast, {x}, dtype);
}

Var switch_(const Var& cond, const Var& ift, const Var& iff) { return applyScalar(ScalarOpCode::Switch, {cond, ift, iff}); }
Var where(const Var& cond, const Var& ift, const Var& iff) { return switch_(cond, ift, iff); }

Var add(const Var& a, const Var& b) { return binary(ScalarOpCode::Add, a, b); }
Var sub(const Var& a, const Var& b) { return binary(ScalarOpCode::Sub, a, b); }
Var mul(const Var& a, const Var& b) { return binary(ScalarOpCode::Mul, a, b); }
Var trueDiv(const Var& a, const Var& b) { return binary(ScalarOpCode::TrueDiv, a, b); }
Var intDiv(const Var& a, const Var& b) { return binary(ScalarOpCode::IntDiv, a, b); }
Var mod(const Var& a, const Var& b) { return binary(ScalarOpCode::Mod, a, b); }
Var pow(const Var& a, const Var& b) { return binary(ScalarOpCode::Pow, a, b); }
Var maximum(const Var& a, const Var& b) { return binary(ScalarOpCode::Maximum, a, b); }
Var minimum(const Var& a, const Var& b) { return binary(ScalarOpCode::Minimum, a, b); }
Var lt(const Var& a, const Var& b) { return binary(ScalarOpCode::Lt, a, b); }
Var le(const Var& a, const Var& b) { return binary(ScalarOpCode::Le, a, b); }
Var gt(const Var& a, const Var& b) { return binary(ScalarOpCode::Gt, a, b); }
Var ge(const Var& a, const Var& b) { return binary(ScalarOpCode::Ge, a, b); }
Var eq(const Var& a, const Var& b) { return binary(ScalarOpCode::Eq, a, b); }
Var neq(const Var& a, const Var& b) { return binary(ScalarOpCode::Neq, a, b); }
Var and_(const Var& a, const Var& b) { return binary(ScalarOpCode::And, a, b); }
Var or_(const Var& a, const Var& b) { return binary(ScalarOpCode::Or, a, b); }
Var xor_(const Var& a, const Var& b) { return binary(ScalarOpCode::Xor, a, b); }
Var arctan2(const Var& a, const Var& b) { return binary(ScalarOpCode::ArcTan2, a, b); }

Var second(const Var& x, const Var& y) { return binary(ScalarOpCode::Second, x, y); }
Var isnan(const Var& x) { return unary(ScalarOpCode::IsNan, x); }
Var isinf(const Var& x) { return unary(ScalarOpCode::IsInf, x); }
Var trunc(const Var& x) { return unary(ScalarOpCode::Trunc, x); }
Var roundHalfAwayFromZero(const Var& x) { return unary(ScalarOpCode::RoundHalfAwayFromZero, x); }
Var deg2rad(const Var& x) { return unary(ScalarOpCode::Deg2Rad, x); }
Var rad2deg(const Var& x) { return unary(ScalarOpCode::Rad2Deg, x); }
Var arccosh(const Var& x) { return unary(ScalarOpCode::ArcCosh, x); }
Var arcsinh(const Var& x) { return unary(ScalarOpCode::ArcSinh, x); }
Var arctanh(const Var& x) { return unary(ScalarOpCode::ArcTanh, x); }
Var erfcx(const Var& x) { return unary(ScalarOpCode::Erfcx, x); }
Var erfinv(const Var& x) { return unary(ScalarOpCode::Erfinv, x); }
Var erfcinv(const Var& x) { return unary(ScalarOpCode::Erfcinv, x); }
Var gamma(const Var& x) { return unary(ScalarOpCode::Gamma, x); }
Var gammaln(const Var& x) { return unary(ScalarOpCode::GammaLn, x); }
Var psi(const Var& x) { return unary(ScalarOpCode::Psi, x); }
Var triGamma(const Var& x) { return unary(ScalarOpCode::TriGamma, x); }
Var polygamma(const Var& n, const Var& x) { return binary(ScalarOpCode::PolyGamma, n, x); }
Var gammainc(const Var& k, const Var& x) { return binary(ScalarOpCode::GammaInc, k, x); }
Var gammaincc(const Var& k, const Var& x) { return binary(ScalarOpCode::GammaIncC, k, x); }
Var gammaincinv(const Var& k, const Var& p) { return binary(ScalarOpCode::GammaIncInv, k, p); }
Var gammainccinv(const Var& k, const Var& q) { return binary(ScalarOpCode::GammaIncCInv, k, q); }
Var gammau(const Var& k, const Var& x) { return binary(ScalarOpCode::GammaU, k, x); }
Var gammal(const Var& k, const Var& x) { return binary(ScalarOpCode::GammaL, k, x); }
Var log1mexp(const Var& x) { return unary(ScalarOpCode::Log1mexp, x); }
Var betainc(const Var& a, const Var& b, const Var& x) { return applyScalar(ScalarOpCode::BetaInc, {a, b, x}); }
Var betaincinv(const Var& a, const Var& b, const Var& p) { return applyScalar(ScalarOpCode::BetaIncInv, {a, b, p}); }
Var j0(const Var& x) { return unary(ScalarOpCode::J0, x); }
Var j1(const Var& x) { return unary(ScalarOpCode::J1, x); }
Var jv(const Var& v, const Var& x) { return binary(ScalarOpCode::Jv, v, x); }
Var i0(const Var& x) { return unary(ScalarOpCode::I0, x); }
Var i1(const Var& x) { return unary(ScalarOpCode::I1, x); }
Var iv(const Var& v, const Var& x) { return binary(ScalarOpCode::Iv, v, x); }
Var ive(const Var& v, const Var& x) { return binary(ScalarOpCode::Ive, v, x); }
Var kve(const Var& v, const Var& x) { return binary(ScalarOpCode::Kve, v, x); }
Var owensT(const Var& h, const Var& a) { return binary(ScalarOpCode::OwensT, h, a); }
Var hyp2f1(const Var& a, const Var& b, const Var& c, const Var& z) {
    return applyScalar(ScalarOpCode::Hyp2F1, {a, b, c, z});
}
Var xlogx(const Var& x) { return unary(ScalarOpCode::XlogX, x); }
Var xlogy0(const Var& x, const Var& y) { return binary(ScalarOpCode::XlogY0, x, y); }

} // namespace tl
