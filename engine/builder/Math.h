#pragma once
// Elementwise math on builder variables, as close to PyTensor's as C++ allows:
// `pt.exp(x) - 5` is `exp(x) - 5`. On tensors each function adds an Elemwise
// node (inputs of lower rank get an ExpandDims first, as Elemwise.make_node
// does); on ScalarType variables (Composite inner graphs) a ScalarOp node.
// A C++ number becomes a 0-d constant of the dtype PyTensor's
// as_tensor_variable gives it: ints the smallest of int8..int64 (5 -> int8),
// floats float32 when exact, else float64 (0.5 -> float32, 0.1 -> float64),
// bools bool. Comparisons are named functions (lt, eq, ...), not operators.
#include "builder/GraphBuilder.h"
#include "ops/ScalarOps.h"

#include <concepts>
#include <cstdint>
#include <vector>

namespace tl {

/// y = code(inputs) with PyTensor's rank alignment; castTo is Cast's target.
/// Throws std::invalid_argument for empty Vars or a mix of tensors and
/// ScalarTypes; type errors come from the graph as GraphError naming the node.
Var applyScalar(ScalarOpCode code, std::vector<Var> inputs, DType castTo = DType::Float64);

/// PyTensor's autocast of Python numbers (config.cast_policy == "custom", floatX float64).
DType autocastIntDType(int64_t v);
DType autocastFloatDType(double v);

/// A constant in `like`'s builder, of like's kind (0-d tensor or ScalarType), autocast.
Var literal(const Var& like, int64_t v);
Var literal(const Var& like, double v);
Var literal(const Var& like, bool v);
template <typename L>
    requires std::is_arithmetic_v<L>
Var literalOf(const Var& like, L v) {
    if constexpr (std::is_same_v<L, bool>) return literal(like, v);
    else if constexpr (std::is_integral_v<L>) return literal(like, static_cast<int64_t>(v));
    else return literal(like, static_cast<double>(v));
}

// ---- n-ary ------------------------------------------------------------------
/// add / mul of two or more terms in one node, as pt.add(a, b, c).
Var add(std::vector<Var> terms);
Var mul(std::vector<Var> factors);

// ---- unary ------------------------------------------------------------------
Var neg(const Var& x);
Var abs(const Var& x);
Var exp(const Var& x);
Var log(const Var& x);
Var log1p(const Var& x);
Var expm1(const Var& x);
Var sqrt(const Var& x);
Var sqr(const Var& x);
Var sin(const Var& x);
Var cos(const Var& x);
Var tanh(const Var& x);
Var sigmoid(const Var& x);
Var softplus(const Var& x);
Var invert(const Var& x);
Var identity(const Var& x);
// PyTensor's pt.sign, pt.floor, ... (ints upgrade to float where PyTensor's do:
// floor/ceil of int8 is float32, sign keeps the dtype, round_half_to_even and
// sign reject what PyTensor rejects).
Var sign(const Var& x);
Var floor(const Var& x);
Var ceil(const Var& x);
/// pt.round_half_to_even (pt.round(x, mode="half_to_even")): NumPy's round; float inputs only.
Var roundHalfToEven(const Var& x);
Var reciprocal(const Var& x);
Var erf(const Var& x);
Var erfc(const Var& x);
Var sinh(const Var& x);
Var cosh(const Var& x);
Var tan(const Var& x);
Var arcsin(const Var& x);
Var arccos(const Var& x);
Var arctan(const Var& x);
Var log2(const Var& x);
Var log10(const Var& x);
Var exp2(const Var& x);
/// pt.clip(x, lo, hi): one Elemwise{clip}; lo wins when lo > hi, as PyTensor's.
Var clip(const Var& x, const Var& lo, const Var& hi);
template <typename L>
    requires std::is_arithmetic_v<L>
Var clip(const Var& x, L lo, L hi) { return clip(x, literalOf(x, lo), literalOf(x, hi)); }
/// pt.cast(x, dtype): x itself when it already has that dtype, as PyTensor.
Var cast(const Var& x, DType dtype);

// pytensor.scalar.basic continued and the special functions of pytensor.scalar.math
// (pt.second, pt.isnan, ..., pt.gammaln, pt.hyp2f1): one Elemwise each; dtype rules
// as PyTensor's (ints upgrade to float; round_half_away_from_zero takes floats only;
// polygamma's order must be an integer).
/// pt.second(x, y) / pt.fill(x, y): y broadcast to the shape of x (PyTensor's Second).
Var second(const Var& x, const Var& y);
Var isnan(const Var& x);
Var isinf(const Var& x);
Var trunc(const Var& x);
/// pt.round(x, mode="half_away_from_zero").
Var roundHalfAwayFromZero(const Var& x);
Var deg2rad(const Var& x);
Var rad2deg(const Var& x);
Var arccosh(const Var& x);
Var arcsinh(const Var& x);
Var arctanh(const Var& x);
Var erfcx(const Var& x);
Var erfinv(const Var& x);
Var erfcinv(const Var& x);
Var gamma(const Var& x);
Var gammaln(const Var& x);
/// pt.psi (pt.digamma).
Var psi(const Var& x);
Var triGamma(const Var& x);
Var polygamma(const Var& n, const Var& x);
Var gammainc(const Var& k, const Var& x);
Var gammaincc(const Var& k, const Var& x);
Var gammaincinv(const Var& k, const Var& p);
Var gammainccinv(const Var& k, const Var& q);
Var gammau(const Var& k, const Var& x);
Var gammal(const Var& k, const Var& x);
Var log1mexp(const Var& x);
Var betainc(const Var& a, const Var& b, const Var& x);
Var betaincinv(const Var& a, const Var& b, const Var& p);
Var j0(const Var& x);
Var j1(const Var& x);
Var jv(const Var& v, const Var& x);
Var i0(const Var& x);
Var i1(const Var& x);
Var iv(const Var& v, const Var& x);
Var ive(const Var& v, const Var& x);
Var kve(const Var& v, const Var& x);
Var owensT(const Var& h, const Var& a);
Var hyp2f1(const Var& a, const Var& b, const Var& c, const Var& z);
/// pytensor.tensor.xlogx.xlogx: x log x, 0 where x == 0.
Var xlogx(const Var& x);
/// pytensor.tensor.xlogx.xlogy0: x log y, 0 where x == 0.
Var xlogy0(const Var& x, const Var& y);

/// switch(cond, ift, iff) (`switch` is a C++ keyword; pt.where with three arguments is the same).
Var switch_(const Var& cond, const Var& ift, const Var& iff);
Var where(const Var& cond, const Var& ift, const Var& iff);

// ---- binary (Var or number on either side) ------------------------------------
#define TL_MATH_BINARY(fn)                                                          \
    Var fn(const Var& a, const Var& b);                                             \
    template <typename L>                                                           \
        requires std::is_arithmetic_v<L>                                            \
    Var fn(const Var& a, L b) { return fn(a, literalOf(a, b)); }                    \
    template <typename L>                                                           \
        requires std::is_arithmetic_v<L>                                            \
    Var fn(L a, const Var& b) { return fn(literalOf(b, a), b); }
TL_MATH_BINARY(add)
TL_MATH_BINARY(sub)
TL_MATH_BINARY(mul)
TL_MATH_BINARY(trueDiv)
TL_MATH_BINARY(intDiv)
TL_MATH_BINARY(mod)
TL_MATH_BINARY(pow)
TL_MATH_BINARY(maximum)
TL_MATH_BINARY(minimum)
TL_MATH_BINARY(lt)
TL_MATH_BINARY(le)
TL_MATH_BINARY(gt)
TL_MATH_BINARY(ge)
TL_MATH_BINARY(eq)
TL_MATH_BINARY(neq)
TL_MATH_BINARY(and_)
TL_MATH_BINARY(or_)
TL_MATH_BINARY(xor_)
TL_MATH_BINARY(arctan2)
#undef TL_MATH_BINARY

// ---- operators (PyTensor's __add__, __sub__, ... on TensorVariable) -------------
#define TL_MATH_OPERATOR(op, fn)                                                    \
    inline Var operator op(const Var& a, const Var& b) { return fn(a, b); }          \
    template <typename L>                                                           \
        requires std::is_arithmetic_v<L>                                            \
    Var operator op(const Var& a, L b) { return fn(a, literalOf(a, b)); }            \
    template <typename L>                                                           \
        requires std::is_arithmetic_v<L>                                            \
    Var operator op(L a, const Var& b) { return fn(literalOf(b, a), b); }
TL_MATH_OPERATOR(+, add)
TL_MATH_OPERATOR(-, sub)
TL_MATH_OPERATOR(*, mul)
TL_MATH_OPERATOR(/, trueDiv)
TL_MATH_OPERATOR(%, mod)
TL_MATH_OPERATOR(&, and_)
TL_MATH_OPERATOR(|, or_)
TL_MATH_OPERATOR(^, xor_)
#undef TL_MATH_OPERATOR
inline Var operator-(const Var& x) { return neg(x); }
inline Var operator~(const Var& x) { return invert(x); }

} // namespace tl
