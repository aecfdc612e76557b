#include "ops/ScalarOps.h"

#include "core/NDArray.h"
#include "ir/Op.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

namespace tl {

namespace {

constexpr ScalarOpInfo kInfos[] = {
#define TL_SCALAR_OP(e, key, inner, outer, arity, infix) {key, inner, outer, arity, infix},
#include "ops/ScalarOps.def"
#undef TL_SCALAR_OP
};
static_assert(std::size(kInfos) == kNumScalarOps);

using C = ScalarOpCode;

std::string dtypeList(std::span<const DType> ds) {
    std::string s = "(";
    for (size_t i = 0; i < ds.size(); ++i) {
        if (i) s += ", ";
        s += dtypeName(ds[i]);
    }
    return s + ")";
}

[[noreturn]] void typeError(ScalarOpCode code, std::span<const DType> ins, const std::string& why) {
    throw OpTypeError(std::string(scalarOpInfo(code).innerName) + " of " + dtypeList(ins) + ": " + why);
}

// PyTensor's upgrade_to_float: small ints and bool to float32, wide ints to float64.
DType upgradeToFloat(DType d) {
    switch (d) {
    case DType::Bool:
    case DType::Int8:
    case DType::Int16:
    case DType::UInt8:
    case DType::UInt16: return DType::Float32;
    case DType::Int32:
    case DType::Int64:
    case DType::UInt32:
    case DType::UInt64: return DType::Float64;
    default: return d;
    }
}

bool isDiscrete(DType d) { return !isFloat(d); }

} // namespace

const ScalarOpInfo& scalarOpInfo(ScalarOpCode code) { return kInfos[static_cast<int>(code)]; }

std::optional<ScalarOpCode> parseScalarOp(std::string_view name) {
    for (int i = 0; i < kNumScalarOps; ++i)
        if (kInfos[i].key == name || kInfos[i].innerName == name) return static_cast<ScalarOpCode>(i);
    return std::nullopt;
}

std::string scalarOpName(ScalarOpCode code, DType castTo) {
    if (code == C::Cast) return "Cast{" + std::string(dtypeName(castTo)) + "}";
    return std::string(scalarOpInfo(code).innerName);
}

std::string elemwiseOpName(ScalarOpCode code, DType castTo) {
    if (code == C::Cast) return scalarOpName(code, castTo);  // "Cast{float32}".capitalize() is itself
    return std::string(scalarOpInfo(code).outerName);
}

std::string inplaceElemwiseOpName(ScalarOpCode code, DType castTo) {
    // The scalar ops whose PyTensor class name differs from their name.
    switch (code) {
    case C::TrueDiv: return "Truediv";
    case C::IntDiv: return "Intdiv";
    case C::Maximum: return "Scalarmaximum";
    case C::Minimum: return "Scalarminimum";
    case C::Softplus: return "Softplus";
    case C::Log1mexp: return "Log1mexp";
    case C::TriGamma: return "Trigamma";
    case C::XlogX: return "Xlogx";  // the plain ones print their Elemwise's own name, "xlogx"
    case C::XlogY0: return "Xlogy0";
    default: return elemwiseOpName(code, castTo);
    }
}

bool scalarArityOk(ScalarOpCode code, int n) {
    int a = scalarOpInfo(code).arity;
    return a == kVariadicArity ? n >= 1 : n == a;  // PyTensor's add and mul accept a single term
}

DType upcastDTypes(std::span<const DType> dtypes) {
    if (dtypes.empty()) return DType::Float64;
    DType r = dtypes[0];
    for (size_t i = 1; i < dtypes.size(); ++i) r = promote(r, dtypes[i]);
    return r;
}

DType scalarOutputDType(ScalarOpCode code, std::span<const DType> ins, DType castTo) {
    if (!scalarArityOk(code, static_cast<int>(ins.size())))
        typeError(code, ins, "wrong number of inputs (" + std::to_string(ins.size()) + ")");
    const DType up = upcastDTypes(ins);
    switch (code) {
    case C::Add:
    case C::Mul:
    case C::IntDiv:
    case C::Mod:
    case C::Maximum:
    case C::Minimum: return up;
    case C::Sub:
        if (up == DType::Bool) typeError(code, ins, "bool output not supported");
        return up;
    case C::TrueDiv: {
        bool allDiscrete = true;
        for (DType d : ins) allDiscrete = allDiscrete && isDiscrete(d);
        return allDiscrete ? DType::Float64 : up;  // config.floatX
    }
    case C::Neg:
        if (ins[0] == DType::Bool) typeError(code, ins, "bool input not supported");
        return ins[0];
    case C::Abs:
    case C::Sqr:
    case C::Identity:
    case C::Real: return ins[0];
    case C::Exp:
    case C::Log:
    case C::Log1p:
    case C::Expm1:
    case C::Sqrt:
    case C::Sin:
    case C::Cos:
    case C::Tanh:
    case C::Sigmoid:
    case C::Softplus: return upgradeToFloat(ins[0]);
    case C::Pow: return up == DType::Bool ? DType::Int8 : up;
    case C::Eq:
    case C::Neq:
    case C::Lt:
    case C::Le:
    case C::Gt:
    case C::Ge: return DType::Bool;
    case C::And:
    case C::Or:
    case C::Xor:
        if (ins[0] == DType::Bool && ins[1] == DType::Bool) return DType::Bool;
        for (DType d : ins)
            if (!isInteger(d))
                typeError(code, ins, "input to a BitOp must have type (u)int8, (u)int16, (u)int32 or (u)int64 or be all bools");
        return up;
    case C::Invert:
        if (isFloat(ins[0])) typeError(code, ins, "input to a BitOp must be an integer or bool");
        return ins[0];
    case C::Switch: {
        const DType branches[] = {ins[1], ins[2]};
        return upcastDTypes(branches);
    }
    case C::Cast: return castTo;
    case C::Sign:  // Sign._output_types_preference: same_out_nocomplex, bool rejected
        if (ins[0] == DType::Bool) typeError(code, ins, "bool input not supported");
        return ins[0];
    case C::RoundHalfToEven:  // same_out_float_only
        if (!isFloat(ins[0])) typeError(code, ins, "only float type are supported");
        return ins[0];
    case C::Floor:  // upgrade_to_float_no_complex: ints round-trip through float
    case C::Ceil:
    case C::Reciprocal:
    case C::Erf:
    case C::Erfc:
    case C::Sinh:
    case C::Cosh:
    case C::Tan:
    case C::ArcSin:
    case C::ArcCos:
    case C::ArcTan:
    case C::Log2:
    case C::Log10:
    case C::Exp2: return upgradeToFloat(ins[0]);
    case C::ArcTan2: {  // upgrade_to_float(*types): each input upgraded, then upcast
        const DType ups[] = {upgradeToFloat(ins[0]), upgradeToFloat(ins[1])};
        return upcastDTypes(ups);
    }
    case C::Clip: return up;  // upcast_out_no_complex
    case C::Second: return ins[1];  // transfer_type(1)
    case C::IsNan:
    case C::IsInf: return DType::Bool;
    case C::RoundHalfAwayFromZero:  // same_out_float_only
        if (!isFloat(ins[0])) typeError(code, ins, "only float type are supported");
        return ins[0];
    case C::MulWithoutZeros: return up;  // upcast_out
    case C::PolyGamma:
        // PolyGamma.output_types_preference: the order must be discrete, x upgraded.
        if (isFloat(ins[0])) typeError(code, ins, "Polygamma order parameter must be discrete");
        return upgradeToFloat(ins[1]);
    case C::Trunc:
    case C::Deg2Rad:
    case C::Rad2Deg:
    case C::ArcCosh:
    case C::ArcSinh:
    case C::ArcTanh:
    case C::Erfcx:
    case C::Erfinv:
    case C::Erfcinv:
    case C::Gamma:
    case C::GammaLn:
    case C::Psi:
    case C::TriGamma:
    case C::GammaInc:
    case C::GammaIncC:
    case C::GammaIncInv:
    case C::GammaIncCInv:
    case C::GammaU:
    case C::GammaL:
    case C::Log1mexp:
    case C::BetaInc:
    case C::BetaIncInv:
    case C::J0:
    case C::J1:
    case C::Jv:
    case C::I0:
    case C::I1:
    case C::Iv:
    case C::Ive:
    case C::Kve:
    case C::OwensT:
    case C::Hyp2F1:
    case C::XlogX:
    case C::XlogY0: {
        // upgrade_to_float(*types): each input upgraded, then upcast (one input: just upgraded).
        std::vector<DType> ups;
        for (DType d : ins) ups.push_back(upgradeToFloat(d));
        return upcastDTypes(ups);
    }
    }
    return up;
}

DType scalarComputeDType(ScalarOpCode code, std::span<const DType> ins, DType castTo) {
    switch (code) {
    case C::Eq:
    case C::Neq:
    case C::Lt:
    case C::Le:
    case C::Gt:
    case C::Ge: return upcastDTypes(ins);
    case C::IsNan:
    case C::IsInf:  // the predicate reads its input as it is
    case C::Cast: return ins[0];
    case C::XlogX:
    case C::XlogY0: {
        // PyTensor's C code takes a float x only; for a discrete x it runs the Python impl,
        // which computes in float64 and rounds to the output dtype.
        const DType out = scalarOutputDType(code, ins, castTo);
        return isFloat(ins[0]) ? out : DType::Float64;
    }
    default: return scalarOutputDType(code, ins, castTo);
    }
}

bool scalarOpDifferentiable(ScalarOpCode code, DType outputDType) {
    if (!isFloat(outputDType)) return false;
    switch (code) {
    case C::IntDiv:
    case C::Eq:
    case C::Neq:
    case C::Lt:
    case C::Le:
    case C::Gt:
    case C::Ge:
    case C::And:
    case C::Or:
    case C::Xor:
    case C::Invert:
    // Piecewise constant: PyTensor's gradient is zeros_like(x).
    case C::Sign:
    case C::Floor:
    case C::Ceil:
    case C::RoundHalfToEven:
    case C::Trunc:
    case C::RoundHalfAwayFromZero: return false;
    default: return true;
    }
}

namespace {

// Python's repr / NumPy's str of a float: shortest round-trip digits, positional
// when the decimal exponent is in [-4, 16), else scientific with a 2-digit exponent.
template <typename F> std::string formatFloat(F v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    std::string s(buf, res.ptr);
    std::string sign;
    if (!s.empty() && s[0] == '-') {
        sign = "-";
        s.erase(0, 1);
    }
    const size_t e = s.find('e');
    std::string mant = s.substr(0, e);
    const int exp10 = std::stoi(s.substr(e + 1));
    std::string digits;
    for (char c : mant)
        if (c != '.') digits += c;
    const int decpt = exp10 + 1;  // value = 0.DIGITS * 10^decpt
    const int n = static_cast<int>(digits.size());
    if (decpt <= -4 || decpt > 16) {
        std::string out = sign + digits.substr(0, 1);
        if (n > 1) out += "." + digits.substr(1);
        char eb[16];
        std::snprintf(eb, sizeof eb, "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
        return out + eb;
    }
    if (decpt <= 0) return sign + "0." + std::string(static_cast<size_t>(-decpt), '0') + digits;
    if (decpt < n) return sign + digits.substr(0, static_cast<size_t>(decpt)) + "." + digits.substr(static_cast<size_t>(decpt));
    return sign + digits + std::string(static_cast<size_t>(decpt - n), '0') + ".0";
}

} // namespace

std::string formatScalarLiteral(const NDArray& value) {
    if (!value.valid() || value.size() != 1) throw std::invalid_argument("formatScalarLiteral needs a one-element array");
    return dispatchDType(value.dtype(), [&](auto t) -> std::string {
        using T = decltype(t);
        const T v = value.data<T>()[0];
        if constexpr (std::is_same_v<T, bool>) return v ? "True" : "False";
        else if constexpr (std::is_floating_point_v<T>) return formatFloat(v);
        else return std::to_string(+v);  // + promotes 8-bit types; uint64 stays unsigned
    });
}

std::string formatScalarLiteral(DType dtype, double value) { return formatScalarLiteral(NDArray::scalar(dtype, value)); }

} // namespace tl
