// Elemwise kernels: every scalar op on float64 and the other dtypes it accepts,
// checked against std:: reference values; PyTensor's output dtypes and printed
// names; NumPy's integer division; NaN / inf faithfulness; casts.
#include "TestSuites.h"
#include "TestSupport.h"

#include "exec/ExecContext.h"
#include "ops/Composite.h"
#include "ops/Elemwise.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace tl;
using C = ScalarOpCode;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<NDArray> run(const Op& op, std::vector<NDArray> ins, int nout = 1) {
    ExecContext ctx;
    std::vector<NDArray> outs(static_cast<size_t>(nout));
    op.perform(ins, outs);
    return outs;
}

// Independent reference in the compute type T, written with std:: directly.
template <typename T> double ref(C c, T a, T b, T s) {
    if constexpr (std::is_floating_point_v<T>) {
        switch (c) {
        case C::Add: return a + b;
        case C::Sub: return a - b;
        case C::Mul: return a * b;
        case C::TrueDiv: return a / b;
        case C::IntDiv: return std::floor(a / b);
        case C::Mod: return a - b * std::floor(a / b);
        case C::Neg: return -a;
        case C::Abs: return std::fabs(a);
        case C::Exp: return std::exp(a);
        case C::Log: return std::log(a);
        case C::Log1p: return std::log1p(a);
        case C::Expm1: return std::expm1(a);
        case C::Sqrt: return std::sqrt(a);
        case C::Sqr: return a * a;
        case C::Sin: return std::sin(a);
        case C::Cos: return std::cos(a);
        case C::Tanh: return std::tanh(a);
        case C::Sigmoid: return T(1) / (T(1) + std::exp(-a));
        case C::Softplus: return a > T(40) ? a : std::log1p(std::exp(a));
        case C::Pow: return std::pow(a, b);
        case C::Maximum: return std::isnan(a) || std::isnan(b) ? kNaN : std::max(a, b);
        case C::Minimum: return std::isnan(a) || std::isnan(b) ? kNaN : std::min(a, b);
        case C::Identity: return a;
        default: break;
        }
    } else {
        const double fa = static_cast<double>(a), fb = static_cast<double>(b);
        switch (c) {
        case C::Add: return static_cast<T>(a + b);
        case C::Sub: return static_cast<T>(a - b);
        case C::Mul: return static_cast<T>(a * b);
        case C::IntDiv: return std::floor(fa / fb);
        case C::Mod: return fa - fb * std::floor(fa / fb);
        case C::Neg: return static_cast<T>(-a);
        case C::Abs: return fa < 0 ? -fa : fa;
        case C::Sqr: return static_cast<T>(a * a);
        case C::Pow: return std::pow(fa, fb);
        case C::Maximum: return std::max(fa, fb);
        case C::Minimum: return std::min(fa, fb);
        case C::And: return static_cast<T>(a & b);
        case C::Or: return static_cast<T>(a | b);
        case C::Xor: return static_cast<T>(a ^ b);
        case C::Invert:
            if constexpr (std::is_same_v<T, bool>) return !a;
            else return static_cast<T>(~a);
        case C::Identity: return fa;
        default: break;
        }
    }
    switch (c) {
    case C::Eq: return a == b;
    case C::Neq: return a != b;
    case C::Lt: return a < b;
    case C::Le: return a <= b;
    case C::Gt: return a > b;
    case C::Ge: return a >= b;
    case C::Switch: return a ? b : s;
    default: QTest::qFail("no reference for this op", __FILE__, __LINE__); return 0;
    }
}

struct Case {
    C code;
    std::vector<DType> in;
    std::vector<std::vector<double>> values;
    DType compute, out;
};
std::vector<Case> g_cases;

const std::vector<double> kFloats = {-2.5, -0.5, 0.0, 0.3, 1.0, 4.5, 7.0};
const std::vector<double> kFloatsB = {2.0, 3.0, -0.25, 0.3, 4.0, -2.0, 0.5};
const std::vector<double> kInts = {-7, -1, 0, 3, 7, 100, -100};
const std::vector<double> kIntsB = {2, 3, -4, 3, -2, 7, 9};
const std::vector<double> kSmall = {-3, -1, 0, 1, 2, 3, 5};

void addCase(const std::string& name, C code, std::vector<DType> in, std::vector<std::vector<double>> v, DType compute,
             DType out) {
    g_cases.push_back({code, std::move(in), std::move(v), compute, out});
    QTest::newRow(name.c_str()) << static_cast<int>(g_cases.size() - 1);
}

} // namespace

class TestElemwise : public QObject {
    Q_OBJECT
private slots:
    void ops_data() {
        QTest::addColumn<int>("index");
        g_cases.clear();
        const C floatUnary[] = {C::Neg, C::Abs, C::Exp, C::Log, C::Log1p, C::Expm1, C::Sqrt, C::Sqr,
                                C::Sin, C::Cos, C::Tanh, C::Sigmoid, C::Softplus, C::Identity};
        const C floatBinary[] = {C::Add, C::Sub, C::Mul, C::TrueDiv, C::IntDiv, C::Mod, C::Pow, C::Maximum,
                                 C::Minimum, C::Eq, C::Neq, C::Lt, C::Le, C::Gt, C::Ge};
        for (DType d : {DType::Float64, DType::Float32}) {
            const std::string dn(dtypeName(d));
            for (C c : floatUnary) addCase(scalarOpName(c) + " " + dn, c, {d}, {kFloats}, d, d);
            for (C c : floatBinary) {
                const bool cmp = c >= C::Eq && c <= C::Ge;
                addCase(scalarOpName(c) + " " + dn, c, {d, d}, {kFloats, kFloatsB}, d, cmp ? DType::Bool : d);
            }
        }
        // upgrade_to_float: small ints to float32, wide ints to float64.
        addCase("exp int8", C::Exp, {DType::Int8}, {kSmall}, DType::Float32, DType::Float32);
        addCase("sqrt int32", C::Sqrt, {DType::Int32}, {kInts}, DType::Float64, DType::Float64);
        addCase("tanh uint8", C::Tanh, {DType::UInt8}, {{0, 1, 2, 3, 200, 255, 7}}, DType::Float32, DType::Float32);
        addCase("sigmoid bool", C::Sigmoid, {DType::Bool}, {{0, 1, 1, 0, 1, 0, 1}}, DType::Float32, DType::Float32);
        addCase("log1p int64", C::Log1p, {DType::Int64}, {{0, 1, 2, 3, 10, 100, 1000}}, DType::Float64, DType::Float64);
        const C intBinary[] = {C::Add, C::Sub, C::Mul, C::IntDiv, C::Mod, C::Maximum, C::Minimum,
                               C::Eq, C::Neq, C::Lt, C::Le, C::Gt, C::Ge, C::And, C::Or, C::Xor};
        for (DType d : {DType::Int8, DType::Int16, DType::Int32, DType::Int64}) {
            const std::string dn(dtypeName(d));
            for (C c : intBinary) {
                const bool cmp = c >= C::Eq && c <= C::Ge;
                addCase(scalarOpName(c) + " " + dn, c, {d, d}, {kInts, kIntsB}, d, cmp ? DType::Bool : d);
            }
            for (C c : {C::Neg, C::Abs, C::Sqr, C::Invert, C::Identity})
                addCase(scalarOpName(c) + " " + dn, c, {d}, {kInts}, d, d);
        }
        addCase("pow int32", C::Pow, {DType::Int32, DType::Int32}, {kSmall, {3, 2, 5, 0, 10, 3, 2}}, DType::Int32, DType::Int32);
        addCase("add uint8", C::Add, {DType::UInt8, DType::UInt8}, {{1, 2, 100, 0, 7, 9, 3}, {3, 4, 100, 0, 1, 1, 2}},
                DType::UInt8, DType::UInt8);
        addCase("lt uint8", C::Lt, {DType::UInt8, DType::UInt8}, {{1, 2, 100, 0, 7, 9, 3}, {3, 4, 100, 0, 1, 1, 2}},
                DType::UInt8, DType::Bool);
        // Mixed dtypes: NumPy promotion.
        addCase("add int8 float32", C::Add, {DType::Int8, DType::Float32}, {kSmall, kFloats}, DType::Float32, DType::Float32);
        addCase("mul int16 float32", C::Mul, {DType::Int16, DType::Float32}, {kInts, kFloats}, DType::Float32, DType::Float32);
        addCase("add int32 float32", C::Add, {DType::Int32, DType::Float32}, {kInts, kFloats}, DType::Float64, DType::Float64);
        addCase("add uint8 int8", C::Add, {DType::UInt8, DType::Int8}, {{1, 2, 100, 0, 7, 200, 3}, kSmall}, DType::Int16,
                DType::Int16);
        addCase("true_div int8 int8", C::TrueDiv, {DType::Int8, DType::Int8}, {kSmall, {2, 3, 4, 3, 7, 9, 2}},
                DType::Float64, DType::Float64);
        addCase("lt int8 float64", C::Lt, {DType::Int8, DType::Float64}, {kSmall, kFloats}, DType::Float64, DType::Bool);
        addCase("add variadic", C::Add, {DType::Float64, DType::Float64, DType::Float64}, {kFloats, kFloatsB, kFloats},
                DType::Float64, DType::Float64);
        addCase("mul variadic", C::Mul, {DType::Float64, DType::Int8, DType::Float64, DType::Float64},
                {kFloats, kSmall, kFloatsB, kFloats}, DType::Float64, DType::Float64);
        addCase("and bool", C::And, {DType::Bool, DType::Bool}, {{0, 1, 1, 0, 1, 0, 1}, {1, 1, 0, 0, 1, 1, 1}}, DType::Bool, DType::Bool);
        addCase("xor bool", C::Xor, {DType::Bool, DType::Bool}, {{0, 1, 1, 0, 1, 0, 1}, {1, 1, 0, 0, 1, 1, 1}}, DType::Bool, DType::Bool);
        addCase("invert bool", C::Invert, {DType::Bool}, {{0, 1, 1, 0, 1, 0, 1}}, DType::Bool, DType::Bool);
        addCase("switch bool float64", C::Switch, {DType::Bool, DType::Float64, DType::Float64},
                {{0, 1, 1, 0, 1, 0, 1}, kFloats, kFloatsB}, DType::Float64, DType::Float64);
        addCase("switch float64 cond int8 branch", C::Switch, {DType::Float64, DType::Int8, DType::Float32},
                {kFloats, kSmall, kFloatsB}, DType::Float32, DType::Float32);
    }

    void ops() {
        QFETCH(int, index);
        const Case& k = g_cases[static_cast<size_t>(index)];
        const size_t n = k.values[0].size();
        std::vector<NDArray> ins;
        for (size_t i = 0; i < k.in.size(); ++i) ins.push_back(NDArray::fromVector(k.in[i], {static_cast<int64_t>(n)}, k.values[i]));
        Elemwise op(k.code);
        std::vector<NDArray> out = run(op, ins);
        QCOMPARE(dtypeName(out[0].dtype()), dtypeName(k.out));
        std::vector<double> expected(n);
        for (size_t e = 0; e < n; ++e) {
            // Inputs as stored, then converted to the compute type, as the kernel must.
            auto in = [&](size_t i) { return i < k.in.size() ? ins[i].flatGet(static_cast<int64_t>(e)) : 0.0; };
            double acc = in(0);
            const size_t nin = k.in.size();
            const bool variadic = k.code == C::Add || k.code == C::Mul;
            for (size_t i = variadic ? 1 : 0; i < (variadic ? nin : 1); ++i) {
                acc = dispatchDType(k.compute, [&](auto t) {
                    using T = decltype(t);
                    if (k.code == C::Switch) return ref<T>(k.code, static_cast<T>(in(0) != 0), static_cast<T>(in(1)), static_cast<T>(in(2)));
                    return ref<T>(k.code, static_cast<T>(variadic ? acc : in(0)), static_cast<T>(in(variadic ? i : 1)), T{});
                });
            }
            expected[e] = acc;
        }
        const NDArray want = NDArray::fromVector(k.out, {static_cast<int64_t>(n)}, expected);
        TL_COMPARE_ARRAYS(out[0], want, k.out == DType::Float32 ? 2e-7 : 1e-15, 0.0);
    }

    void outputDTypes_data() {
        QTest::addColumn<int>("code");
        QTest::addColumn<QList<int>>("ins");
        QTest::addColumn<int>("expected");  // -1: a type error
        auto row = [](const char* name, C c, std::initializer_list<DType> ins, int expected) {
            QList<int> l;
            for (DType d : ins) l << static_cast<int>(d);
            QTest::newRow(name) << static_cast<int>(c) << l << expected;
        };
        auto d = [](DType x) { return static_cast<int>(x); };
        row("exp int16", C::Exp, {DType::Int16}, d(DType::Float32));
        row("exp int64", C::Exp, {DType::Int64}, d(DType::Float64));
        row("true_div int64 int8", C::TrueDiv, {DType::Int64, DType::Int8}, d(DType::Float64));
        row("true_div float32 int8", C::TrueDiv, {DType::Float32, DType::Int8}, d(DType::Float32));
        row("int_div int8 int16", C::IntDiv, {DType::Int8, DType::Int16}, d(DType::Int16));
        row("add float32 int16", C::Add, {DType::Float32, DType::Int16}, d(DType::Float32));
        row("add float32 int32", C::Add, {DType::Float32, DType::Int32}, d(DType::Float64));
        row("pow bool bool", C::Pow, {DType::Bool, DType::Bool}, d(DType::Int8));
        row("add bool bool", C::Add, {DType::Bool, DType::Bool}, d(DType::Bool));
        row("sub bool bool", C::Sub, {DType::Bool, DType::Bool}, -1);
        row("neg bool", C::Neg, {DType::Bool}, -1);
        row("and float64", C::And, {DType::Float64, DType::Int8}, -1);
        row("and bool int8", C::And, {DType::Bool, DType::Int8}, -1);
        row("invert float32", C::Invert, {DType::Float32}, -1);
        row("gt float32 int64", C::Gt, {DType::Float32, DType::Int64}, d(DType::Bool));
        row("switch int8 int16 uint8", C::Switch, {DType::Int8, DType::Int16, DType::UInt8}, d(DType::Int16));
        row("abs int8", C::Abs, {DType::Int8}, d(DType::Int8));
        row("add one input (PyTensor's rewrites build it)", C::Add, {DType::Int8}, d(DType::Int8));
        row("add no input", C::Add, {}, -1);
        row("exp two inputs", C::Exp, {DType::Float64, DType::Float64}, -1);
    }

    void outputDTypes() {
        QFETCH(int, code);
        QFETCH(QList<int>, ins);
        QFETCH(int, expected);
        std::vector<Type> types;
        for (int d : ins) types.push_back(Type::tensor(static_cast<DType>(d), {3}));
        std::vector<const Type*> ptrs;
        for (const Type& t : types) ptrs.push_back(&t);
        Elemwise op(static_cast<C>(code));
        if (expected < 0) {
            QVERIFY_THROWS_EXCEPTION(OpTypeError, op.inferTypes(ptrs));
            return;
        }
        QCOMPARE(dtypeName(op.inferTypes(ptrs).at(0).dtype), dtypeName(static_cast<DType>(expected)));
    }

    void names_data() {
        QTest::addColumn<int>("code");
        QTest::addColumn<int>("castTo");
        QTest::addColumn<QString>("outer");
        QTest::addColumn<QString>("inner");
        auto row = [](C c, const char* outer, const char* inner, DType castTo = DType::Float64) {
            QTest::newRow(outer) << static_cast<int>(c) << static_cast<int>(castTo) << QString(outer) << QString(inner);
        };
        row(C::Exp, "Exp", "exp");
        row(C::Add, "Add", "add");
        row(C::TrueDiv, "True_div", "true_div");
        row(C::IntDiv, "Int_div", "int_div");
        row(C::Sqr, "Sqr", "sqr");
        row(C::Abs, "Abs", "Abs");
        row(C::Softplus, "Scalar_softplus", "scalar_softplus");
        row(C::Lt, "Lt", "LT");
        row(C::Neq, "Neq", "NEQ");
        row(C::And, "And", "AND");
        row(C::Invert, "Invert", "Invert");
        row(C::Switch, "Switch", "Switch");
        row(C::Maximum, "Maximum", "maximum");
        row(C::Identity, "Identity", "identity");
        row(C::Cast, "Cast{float32}", "Cast{float32}", DType::Float32);
    }

    void names() {
        QFETCH(int, code);
        QFETCH(int, castTo);
        QFETCH(QString, outer);
        QFETCH(QString, inner);
        Elemwise op(static_cast<C>(code), static_cast<DType>(castTo));
        QCOMPARE(QString::fromStdString(op.name()), outer);
        QCOMPARE(QString::fromStdString(scalarOpName(static_cast<C>(code), static_cast<DType>(castTo))), inner);
    }

    // The table's outer names are PyTensor's str(scalar_op).capitalize() for every op but
    // xlogx and xlogy0, whose Elemwise ops PyTensor names (Elemwise(scalar_xlogx, name="xlogx")).
    void outerNamesAreCapitalizedInnerNames() {
        for (int c = 0; c < kNumScalarOps; ++c) {
            const auto code = static_cast<C>(c);
            if (code == C::XlogX || code == C::XlogY0)
                QCOMPARE(elemwiseOpName(code), std::string(scalarOpInfo(code).key));
            else
                QCOMPARE(elemwiseOpName(code, DType::Int8), pythonCapitalize(scalarOpName(code, DType::Int8)));
            QCOMPARE(parseScalarOp(scalarOpInfo(code).key), std::optional<C>(code));
            QCOMPARE(parseScalarOp(scalarOpInfo(code).innerName), std::optional<C>(code));
        }
    }

    // Integers as NumPy's floor_divide / remainder (values from NumPy 1.24): floor for
    // negatives, x // 0 == 0 and x % 0 == 0, min // -1 wraps. Floats as PyTensor's
    // compiled function gives them (PyTensor 2.34, FAST_RUN, float64 and float32): not
    // NumPy's (1 // 0.1 is 10 there, 9 in NumPy; inf // 2 inf, not nan), and signed
    // zeros as its C code leaves them (-0.0 % 3 is -0.0, 0.0 % -3 is 0.0).
    void integerDivision_data() {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<QList<double>>("a");
        QTest::addColumn<QList<double>>("b");
        QTest::addColumn<QList<double>>("div");
        QTest::addColumn<QList<double>>("mod");
        QTest::newRow("int8") << static_cast<int>(DType::Int8) << QList<double>{7, -7, 7, -7, 0, 5, -5, -128, -128, 127}
                              << QList<double>{2, 2, -2, -2, 3, 0, 0, -1, 1, -128}
                              << QList<double>{3, -4, -4, 3, 0, 0, 0, -128, -128, -1}
                              << QList<double>{1, 1, -1, -1, 0, 0, 0, 0, 0, -1};
        QTest::newRow("int64") << static_cast<int>(DType::Int64) << QList<double>{-9223372036854775808.0, 7, -9}
                               << QList<double>{-1, -3, 4} << QList<double>{-9223372036854775808.0, -3, -3}
                               << QList<double>{0, -2, 3};
        const QList<double> a{7.5, -7.5, 7.5, -7.5, 1.0, -1.0, 0.0, kInf, 5.0, kNaN, -5.0,
                              1e300, 1.0, -1.0, -0.0, 0.0, -kInf, kInf, 5.0, -5.0, 0.3};
        const QList<double> b{2.0, 2.0, -2.0, -2.0, 0.0, 0.0, 3.0, 2.0, kInf, 1.0, kInf,
                              1e-300, 0.1, 0.1, 3.0, -3.0, 2.0, -2.0, -kInf, -kInf, 0.1};
        QTest::newRow("float64") << static_cast<int>(DType::Float64) << a << b
                                 << QList<double>{3.0, -4.0, -4.0, 3.0, kInf, -kInf, 0.0, kInf, 0.0, kNaN, -1.0,
                                                  kInf, 10.0, -11.0, -0.0, -0.0, -kInf, -kInf, -1.0, 0.0, 2.0}
                                 << QList<double>{1.5, 0.5, -0.5, -1.5, kNaN, kNaN, 0.0, kNaN, 5.0, kNaN, kInf,
                                                  4.891554850853602e-301, 0.09999999999999995, 5.551115123125783e-17,
                                                  -0.0, 0.0, kNaN, kNaN, -kInf, -5.0, 0.09999999999999998};
        QTest::newRow("float32") << static_cast<int>(DType::Float32) << a << b
                                 << QList<double>{3.0, -4.0, -4.0, 3.0, kInf, -kInf, 0.0, kInf, 0.0, kNaN, -1.0,
                                                  kInf, 10.0, -11.0, -0.0, -0.0, -kInf, -kInf, -1.0, 0.0, 3.0}
                                 << QList<double>{1.5, 0.5, -0.5, -1.5, kNaN, kNaN, 0.0, kNaN, 5.0, kNaN, kInf,
                                                  kNaN, 0.09999998658895493, 1.4901161193847656e-08,
                                                  -0.0, 0.0, kNaN, kNaN, -kInf, -5.0, 7.450580596923828e-09};
    }

    void integerDivision() {
        QFETCH(int, dtype);
        QFETCH(QList<double>, a);
        QFETCH(QList<double>, b);
        QFETCH(QList<double>, div);
        QFETCH(QList<double>, mod);
        const auto d = static_cast<DType>(dtype);
        const Shape s{static_cast<int64_t>(a.size())};
        std::vector<NDArray> ins = {NDArray::fromVector(d, s, {a.begin(), a.end()}), NDArray::fromVector(d, s, {b.begin(), b.end()})};
        // Bit for bit: the signs of zeros too.
        TL_COMPARE_ARRAYS(run(Elemwise(C::IntDiv), ins)[0], NDArray::fromVector(d, s, {div.begin(), div.end()}), 0.0, 0.0);
        TL_COMPARE_ARRAYS(run(Elemwise(C::Mod), ins)[0], NDArray::fromVector(d, s, {mod.begin(), mod.end()}), 0.0, 0.0);
        if (d == DType::Float64 || d == DType::Float32)
            for (const auto& [got, want] : {std::pair{run(Elemwise(C::IntDiv), ins)[0], div}, std::pair{run(Elemwise(C::Mod), ins)[0], mod}})
                for (int64_t k = 0; k < s[0]; ++k)
                    QVERIFY2(std::signbit(got.toDoubles()[static_cast<size_t>(k)]) == std::signbit(want[k]) ||
                                 std::isnan(want[k]),
                             qPrintable(QString("element %1: the sign of %2").arg(k).arg(want[k])));
    }

    // IEEE special values flow through as the C library and PyTensor's C code give them.
    void nanInfFaithful() {
        const Shape s{6};
        const NDArray x = NDArray::fromVector(DType::Float64, s, {kNaN, kInf, -kInf, 0.0, -0.0, 1.0});
        const NDArray one = NDArray::fromVector(DType::Float64, s, {1, 1, 1, 1, 1, kNaN});
        auto f = [&](C c, std::vector<NDArray> in) { return run(Elemwise(c), std::move(in))[0].toDoubles(); };
        QVERIFY(std::isnan(f(C::Exp, {x})[0]));
        QCOMPARE(f(C::Exp, {x})[1], kInf);
        QCOMPARE(f(C::Exp, {x})[2], 0.0);
        QCOMPARE(f(C::Log, {x})[3], -kInf);
        QCOMPARE(f(C::Log, {x})[4], -kInf);
        QCOMPARE(f(C::Tanh, {x})[1], 1.0);
        QCOMPARE(f(C::Sigmoid, {x})[2], 0.0);
        QCOMPARE(f(C::Softplus, {x})[1], kInf);
        QCOMPARE(f(C::Softplus, {x})[2], 0.0);
        QVERIFY(std::signbit(f(C::Neg, {x})[3]));
        const auto mx = f(C::Maximum, {x, one}), mn = f(C::Minimum, {one, x});
        QVERIFY(std::isnan(mx[0]) && std::isnan(mn[0]) && std::isnan(mx[5]) && std::isnan(mn[5]));
        QCOMPARE(mx[1], kInf);
        QCOMPARE(mn[2], -kInf);
        QCOMPARE(f(C::Eq, {x, x}), (std::vector<double>{0, 1, 1, 1, 1, 1}));
        QCOMPARE(f(C::Neq, {x, x}), (std::vector<double>{1, 0, 0, 0, 0, 0}));
        QCOMPARE(f(C::Lt, {x, one}), (std::vector<double>{0, 0, 1, 1, 1, 0}));
        QVERIFY(std::isnan(f(C::Mul, {x, x})[0]));
        QVERIFY(std::isnan(f(C::Sub, {x, x})[1]));  // inf - inf
        QCOMPARE(f(C::Switch, {x, one, x})[0], 1.0);  // NaN is true, as C's `cond ? a : b`
    }

    // Casts as NumPy on x86-64: truncation; NaN and out-of-range values give the
    // int32 (int64) minimum, narrower ints keep its low bits; bool is != 0.
    void casts() {
        const Shape s{6};
        const NDArray x = NDArray::fromVector(DType::Float64, s, {kNaN, -kInf, kInf, 1e10, -3.7, 0.0});
        auto cast = [&](DType d) { return run(Elemwise(C::Cast, d), {x})[0]; };
        QCOMPARE(cast(DType::Int64).toDoubles(), (std::vector<double>{-9223372036854775808.0, -9223372036854775808.0,
                                                                       -9223372036854775808.0, 1e10, -3, 0}));
        QCOMPARE(cast(DType::Int32).toDoubles(), (std::vector<double>{-2147483648.0, -2147483648.0, -2147483648.0,
                                                                       -2147483648.0, -3, 0}));
        QCOMPARE(cast(DType::Int8).toDoubles(), (std::vector<double>{0, 0, 0, 0, -3, 0}));
        QCOMPARE(cast(DType::UInt8).toDoubles(), (std::vector<double>{0, 0, 0, 0, 253, 0}));
        QCOMPARE(cast(DType::Bool).toDoubles(), (std::vector<double>{1, 1, 1, 1, 1, 0}));
        QCOMPARE(dtypeName(cast(DType::Float32).dtype()), std::string_view("float32"));
        const NDArray big = NDArray::fromVector(DType::Int64, {2}, {300, -1});
        QCOMPARE(run(Elemwise(C::Cast, DType::UInt8), {big})[0].toDoubles(), (std::vector<double>{44, 255}));
        QCOMPARE(run(Elemwise(C::Cast, DType::Float32), {big})[0].toDoubles(), (std::vector<double>{300, -1}));
    }

    // Integer arithmetic wraps as NumPy's (no UB on overflow).
    void integerWrap() {
        const NDArray a = NDArray::fromVector(DType::Int8, {3}, {127, -128, 2});
        const NDArray b = NDArray::fromVector(DType::Int8, {3}, {1, -1, 7});
        QCOMPARE(run(Elemwise(C::Add), {a, b})[0].toDoubles(), (std::vector<double>{-128, 127, 9}));
        QCOMPARE(run(Elemwise(C::Pow), {b, b})[0].toDoubles(), (std::vector<double>{1, -1, -9}));  // 7^7 = 823543 wraps to -9
        QCOMPARE(run(Elemwise(C::Neg), {a})[0].toDoubles(), (std::vector<double>{-127, -128, -2}));
        QCOMPARE(run(Elemwise(C::Abs), {a})[0].toDoubles(), (std::vector<double>{127, -128, 2}));
        const NDArray m = NDArray::fromVector(DType::Int32, {2}, {2147483647.0, -2147483648.0});
        QCOMPARE(run(Elemwise(C::Mul), {m, m})[0].toDoubles(), (std::vector<double>{1, 0}));
    }
};

TL_TEST_SUITE(TestElemwise)
#include "tst_elemwise.moc"
