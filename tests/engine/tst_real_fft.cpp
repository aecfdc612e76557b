// RFFTOp and IRFFTOp against the discrete Fourier transform summed term by term (the
// definition, O(n^2), independent of any FFT algorithm): even, odd and
// multiple-of-four lengths, several transformed axes, cropping and zero-padding to s,
// float32 and integer dtypes, the round trip, the errors, and the names in JSON and dprint.
#include "TestSuites.h"
#include "LinalgTestUtil.h"
#include "ScalarRopCheck.h"

#include "builder/GraphBuilder.h"
#include "ops/RealFFT.h"

#include <QtTest>

#include <cmath>
#include <complex>
#include <numbers>

using namespace tl;
using namespace tl::test;

namespace {

using Complex = std::complex<double>;

NDArray lengths(std::vector<double> s) { return NDArray::fromVector(DType::Int64, {static_cast<int64_t>(s.size())}, s); }

NDArray ramp(const Shape& shape, double scale) {
    NDArray a = NDArray::empty(DType::Float64, shape);
    for (int64_t i = 0; i < a.size(); ++i) a.data<double>()[i] = std::sin(scale * static_cast<double>(i + 1)) + 0.1 * static_cast<double>(i % 3);
    return a;
}

// The DFT over the last two axes of a (batch, n0, n1) real array after fitting it to
// (s0, s1): X[b, k0, k1] = sum x[b, j0, j1] exp(-2 pi i (k0 j0 / s0 + k1 j1 / s1)),
// for k1 <= s1 / 2, as (batch, s0, s1 / 2 + 1, 2).
NDArray directRfft2(const NDArray& x, int64_t s0, int64_t s1) {
    const int64_t b = x.dim(0), n0 = x.dim(1), n1 = x.dim(2), half = s1 / 2 + 1;
    NDArray out = NDArray::empty(DType::Float64, {b, s0, half, 2});
    for (int64_t bi = 0; bi < b; ++bi)
        for (int64_t k0 = 0; k0 < s0; ++k0)
            for (int64_t k1 = 0; k1 < half; ++k1) {
                Complex sum = 0.0;
                for (int64_t j0 = 0; j0 < std::min(n0, s0); ++j0)
                    for (int64_t j1 = 0; j1 < std::min(n1, s1); ++j1) {
                        const double angle = -2.0 * std::numbers::pi * (static_cast<double>(k0 * j0) / static_cast<double>(s0) +
                                                                       static_cast<double>(k1 * j1) / static_cast<double>(s1));
                        sum += x.data<double>()[(bi * n0 + j0) * n1 + j1] * std::polar(1.0, angle);
                    }
                double* o = out.data<double>() + ((bi * s0 + k0) * half + k1) * 2;
                o[0] = sum.real();
                o[1] = sum.imag();
            }
    return out;
}

// The unnormalised inverse of a 1-d half spectrum z (batch, m, 2) of a length-n real
// signal: x[j] = sum over all n bins of Z[k] exp(2 pi i k j / n), Z[n - k] = conj(Z[k]),
// with the imaginary parts of bin 0 and (even n) bin n/2 dropped, as NumPy does.
NDArray directIrfft1(const NDArray& z, int64_t n) {
    const int64_t b = z.dim(0), m = z.dim(1);
    NDArray out = NDArray::empty(DType::Float64, {b, n});
    for (int64_t bi = 0; bi < b; ++bi) {
        auto bin = [&](int64_t k) -> Complex {
            if (k >= m || k > n / 2) return 0.0;
            const double* p = z.data<double>() + (bi * m + k) * 2;
            const bool real = k == 0 || (n % 2 == 0 && k == n / 2);
            return {p[0], real ? 0.0 : p[1]};
        };
        for (int64_t j = 0; j < n; ++j) {
            Complex sum = 0.0;
            for (int64_t k = 0; k < n; ++k) {
                const Complex zk = k <= n / 2 ? bin(k) : std::conj(bin(n - k));
                sum += zk * std::polar(1.0, 2.0 * std::numbers::pi * static_cast<double>(k * j) / static_cast<double>(n));
            }
            out.data<double>()[bi * n + j] = sum.real();
        }
    }
    return out;
}

std::vector<NDArray> run(const OpPtr& op, const NDArray& a, const NDArray& s) { return runNode(op, {a, s}); }

} // namespace

class TestRealFft : public QObject {
    Q_OBJECT
private slots:
    void forward_data() {
        QTest::addColumn<int>("n0");
        QTest::addColumn<int>("n1");
        QTest::addColumn<int>("s0");
        QTest::addColumn<int>("s1");
        QTest::newRow("even length") << 3 << 6 << 3 << 6;
        QTest::newRow("multiple of four") << 2 << 8 << 2 << 8;
        QTest::newRow("odd length") << 3 << 7 << 3 << 7;
        QTest::newRow("length one") << 1 << 1 << 1 << 1;
        QTest::newRow("cropped") << 4 << 9 << 3 << 5;
        QTest::newRow("zero-padded") << 2 << 5 << 3 << 8;
    }
    void forward() {
        QFETCH(int, n0);
        QFETCH(int, n1);
        QFETCH(int, s0);
        QFETCH(int, s1);
        const NDArray x = ramp({2, n0, n1}, 0.7);
        const NDArray got = run(makeRFFT(), x, lengths({double(s0), double(s1)}))[0];
        QCOMPARE(got.shape(), (Shape{2, s0, s1 / 2 + 1, 2}));
        TL_COMPARE_REF(got, directRfft2(x, s0, s1), 1e-12);
    }

    // s naming only the last axis transforms only that one (a batch of 1-d transforms).
    void lastAxisOnly() {
        const NDArray x = ramp({2, 3, 5}, 1.3);
        const NDArray got = run(makeRFFT(), x, lengths({5}))[0];
        QCOMPARE(got.shape(), (Shape{2, 3, 3, 2}));
        const NDArray flat = x.view({6, 1, 5}, NDArray::contiguousStrides({6, 1, 5}), 0);
        TL_COMPARE_REF(got.view({6, 1, 3, 2}, NDArray::contiguousStrides({6, 1, 3, 2}), 0), directRfft2(flat, 1, 5), 1e-12);
    }

    void inverse_data() {
        QTest::addColumn<int>("bins");
        QTest::addColumn<int>("n");
        QTest::newRow("even, from n/2 + 1 bins") << 4 << 6;
        QTest::newRow("odd, from (n + 1)/2 bins") << 4 << 7;
        QTest::newRow("multiple of four") << 5 << 8;
        QTest::newRow("bins cropped") << 6 << 5;
        QTest::newRow("bins zero-padded") << 2 << 9;
    }
    void inverse() {
        QFETCH(int, bins);
        QFETCH(int, n);
        const NDArray z = ramp({3, bins, 2}, 0.4);  // imaginary parts at bin 0 and n/2 too
        const NDArray got = run(makeIRFFT(), z, lengths({double(n)}))[0];
        QCOMPARE(got.shape(), (Shape{3, n}));
        TL_COMPARE_REF(got, directIrfft1(z, n), 1e-12);
    }

    // irfftn(rfftn(x)) is x times the number of points, over two axes.
    void roundTrip() {
        for (double n1 : {6.0, 7.0}) {
            const NDArray x = ramp({2, 3, static_cast<int64_t>(n1)}, 0.9);
            const NDArray s = lengths({3, n1});
            const NDArray back = run(makeIRFFT(), run(makeRFFT(), x, s)[0], s)[0];
            NDArray want = x.copy();
            for (int64_t i = 0; i < want.size(); ++i) want.data<double>()[i] *= 3 * n1;
            TL_COMPARE_REF(back, want, 1e-12);
        }
    }

    // The output has the input's dtype (PyTensor's type): float32 rounds, integers
    // truncate toward zero as NumPy's assignment into an int array does.
    void dtypes() {
        const NDArray x = ramp({1, 1, 6}, 0.5);
        const NDArray want = directRfft2(x, 1, 6);
        const NDArray f32 = run(makeRFFT(), x.astype(DType::Float32), lengths({1, 6}))[0];
        QCOMPARE(f32.dtype(), DType::Float32);
        TL_COMPARE_REF(f32, want, 1e-6);
        // Values away from integers, so the truncation does not hang on the last bit:
        // X = [7, -1.618 - 4.253i, 0.618 + 2.629i] for x = [1, 2, 4, 0, 0].
        const NDArray ints = NDArray::fromVector(DType::Int32, {1, 5}, {1, 2, 4, 0, 0});
        const NDArray i32 = run(makeRFFT(), ints, lengths({5}))[0];
        QCOMPARE(i32.dtype(), DType::Int32);
        TL_COMPARE_ARRAYS(i32, NDArray::fromVector(DType::Int32, {1, 3, 2}, {7, 0, -1, -4, 0, 2}), 0, 0);
    }

    void types() {
        const Type x = Type::tensor(DType::Float32, {4, 6}), s = Type::tensor(DType::Int64, {1});
        const Type* in[] = {&x, &s};
        QCOMPARE(QString::fromStdString(makeRFFT()->inferTypes(in)[0].toString()), "Tensor3(float32, shape=(?, ?, 2))");
        const Type z = Type::tensor(DType::Float64, {4, 3, 2});
        const Type* zin[] = {&z, &s};
        QCOMPARE(QString::fromStdString(makeIRFFT()->inferTypes(zin)[0].toString()), "Matrix(float64, shape=(?, ?))");
        const Type v = Type::tensor(DType::Float64, {6}), fs = Type::tensor(DType::Float64, {1});
        const Type* vin[] = {&v, &s};
        const Type* fin[] = {&x, &fs};
        QVERIFY(errorMessage([&] { makeRFFT()->inferTypes(vin); }).find("dimension >= 2") != std::string::npos);
        QVERIFY(errorMessage([&] { makeIRFFT()->inferTypes(in); }).find("dimension >= 3") != std::string::npos);
        QVERIFY(errorMessage([&] { makeRFFT()->inferTypes(fin); }).find("integer") != std::string::npos);
    }

    void errors() {
        const NDArray x = ramp({2, 4}, 1.0);
        QVERIFY(errorMessage([&] { run(makeRFFT(), x, lengths({0})); }).find("Invalid number of FFT data points (0)") != std::string::npos);
        QVERIFY(errorMessage([&] { run(makeRFFT(), x, lengths({2, 2, 2})); }).find("different lengths") != std::string::npos);
        QVERIFY(errorMessage([&] { run(makeRFFT(), x, lengths({})); }).find("no axis") != std::string::npos);
        const std::string huge = errorMessage([&] { run(makeRFFT(), x, lengths({1e12})); });
        QVERIFY2(huge.find("over the limit") != std::string::npos, huge.c_str());
        const std::string e = errorMessage([&] { run(makeIRFFT(), ramp({2, 3, 3}, 1.0), lengths({4})); });
        QVERIFY2(e.find("length 2") != std::string::npos, e.c_str());
    }

    void names() {
        QCOMPARE(QString::fromStdString(makeRFFT()->name()), "RFFTOp");
        QCOMPARE(QString::fromStdString(makeIRFFT()->name()), "IRFFTOp");
        checkJsonRoundTrip(makeRFFT());
        checkJsonRoundTrip(makeIRFFT());
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {2, 6});
        Var s = b.input("s", DType::Int64, {1});
        Var z = b.apply1(makeRFFT(), {x, s});
        auto g = b.finish({b.apply1(makeIRFFT(), {z, s})});
        dprintRoundTrip(*g, {ramp({2, 6}, 0.3), lengths({6})}, allOptions());
    }
};

TL_TEST_SUITE(TestRealFft)
#include "tst_real_fft.moc"
