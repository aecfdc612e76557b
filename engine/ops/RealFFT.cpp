#include "ops/RealFFT.h"

#include "ops/ArrayOpUtil.h"
#include "ops/LinalgBuffers.h"
#include "ops/OpParamsJson.h"

#include <unsupported/Eigen/FFT>

#include <complex>

namespace tl {

namespace {

using Complex = std::complex<double>;

// A C-contiguous complex array: its dims and values.
struct ComplexArray {
    Shape dims;
    std::vector<Complex> values;
};

int64_t product(const Shape& s) {
    int64_t p = 1;
    for (int64_t d : s) p *= d;
    return p;
}

// The lengths s names, checked as NumPy checks them.
std::vector<int64_t> readLengths(const NDArray& s, int ndim, const std::string& op) {
    if (s.ndim() != 1) throw ExecError(op + ": s must be a vector of lengths, got shape " + shapeToString(s.shape()));
    std::vector<int64_t> n;
    for (int64_t i = 0; i < s.dim(0); ++i) n.push_back(static_cast<int64_t>(s.flatGet(i)));
    if (n.empty()) throw ExecError(op + ": s names no axis to transform");
    if (static_cast<int>(n.size()) > ndim)
        throw ExecError(op + ": s names " + std::to_string(n.size()) + " axes of an array of " + std::to_string(ndim) + " (NumPy: Shape and axes have different lengths)");
    for (int64_t v : n)
        if (v < 1) throw ExecError(op + ": Invalid number of FFT data points (" + std::to_string(v) + ") specified");
    return n;
}

// The complex working array of `dims`, refused past the executor's allocation limit as
// any array is (an absurd length in s would otherwise ask for terabytes).
void requireAllocatable(const Shape& dims, const std::string& op) {
    const double bytes = [&] {
        double b = sizeof(Complex);
        for (int64_t d : dims) b *= static_cast<double>(d);
        return b;
    }();
    if (bytes > static_cast<double>(NDArray::maxAllocationBytes()))
        throw ExecError(op + ": transforming to shape " + shapeToString(dims) + " needs " + std::to_string(bytes / 1e9) +
                        " GB, over the limit of " + std::to_string(NDArray::maxAllocationBytes() / 1000000000.0) + " GB");
}

// `src` (dims `from`) copied into a zeroed array of dims `to`: each axis cropped or
// zero-padded at its end, as NumPy's fft functions fit an axis to n.
ComplexArray fitted(const ComplexArray& src, const Shape& to) {
    ComplexArray out{to, std::vector<Complex>(static_cast<size_t>(product(to)))};
    const int nd = static_cast<int>(to.size());
    Shape common(to.size());
    for (int d = 0; d < nd; ++d) common[d] = std::min(src.dims[d], to[d]);
    if (product(common) == 0) return out;
    std::vector<int64_t> idx(to.size(), 0);
    for (;;) {
        int64_t s = 0, o = 0;
        for (int d = 0; d < nd; ++d) {
            s = s * src.dims[d] + idx[d];
            o = o * to[d] + idx[d];
        }
        out.values[static_cast<size_t>(o)] = src.values[static_cast<size_t>(s)];
        int d = nd - 1;
        while (d >= 0 && ++idx[d] == common[d]) idx[d--] = 0;
        if (d < 0) return out;
    }
}

// Applies `transform(line)` to every line of `a` along `axis` (in place).
template <typename F> void alongAxis(ComplexArray& a, int axis, F transform) {
    const int64_t n = a.dims[axis];
    int64_t inner = 1;
    for (size_t d = static_cast<size_t>(axis) + 1; d < a.dims.size(); ++d) inner *= a.dims[d];
    const int64_t outer = n == 0 || inner == 0 ? 0 : product(a.dims) / (n * inner);
    std::vector<Complex> line(static_cast<size_t>(n)), result(static_cast<size_t>(n));
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            Complex* base = a.values.data() + o * n * inner + i;
            for (int64_t k = 0; k < n; ++k) line[static_cast<size_t>(k)] = base[k * inner];
            transform(line.data(), result.data(), n);
            for (int64_t k = 0; k < n; ++k) base[k * inner] = result[static_cast<size_t>(k)];
        }
}

// Eigen's kissfft cannot plan a transform of length 1, which is the identity.
struct Transforms {
    Eigen::FFT<double> fft;
    void forward(Complex* out, const Complex* in, int64_t n) {
        if (n == 1) *out = *in;
        else fft.fwd(out, in, n);
    }
    void inverse(Complex* out, const Complex* in, int64_t n) {
        if (n == 1) *out = *in;
        else fft.inv(out, in, n);
    }
    void forwardReal(Complex* out, const double* in, int64_t n) {
        if (n == 1) *out = Complex(*in, 0.0);
        else fft.fwd(out, in, n);
    }
    void inverseReal(double* out, const Complex* in, int64_t n) {
        if (n == 1) *out = in->real();
        else fft.inv(out, in, n);
    }
};

Transforms unscaledFft() {
    Transforms t;
    t.fft.SetFlag(Eigen::FFT<double>::Unscaled);
    t.fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
    return t;
}

// numpy.fft.rfftn(a, s) of a real array, unnormalised.
ComplexArray rfftn(const NDArray& a, const std::vector<int64_t>& s) {
    const int nd = a.ndim(), k = static_cast<int>(s.size());
    ComplexArray x{a.shape(), {}};
    for (double v : a.toDoubles()) x.values.emplace_back(v, 0.0);
    Shape dims = a.shape();
    for (int j = 0; j < k; ++j) dims[static_cast<size_t>(nd - k + j)] = s[static_cast<size_t>(j)];
    requireAllocatable(dims, "RFFTOp");
    x = fitted(x, dims);
    Transforms fft = unscaledFft();
    // The last axis, real to half spectrum.
    const int64_t n = dims.back(), half = n / 2 + 1;
    Shape halfDims = dims;
    halfDims.back() = half;
    ComplexArray y{halfDims, std::vector<Complex>(static_cast<size_t>(product(halfDims)))};
    std::vector<double> re(static_cast<size_t>(n));
    for (int64_t r = 0; r < product(dims) / n; ++r) {
        for (int64_t i = 0; i < n; ++i) re[static_cast<size_t>(i)] = x.values[static_cast<size_t>(r * n + i)].real();
        fft.forwardReal(y.values.data() + r * half, re.data(), n);
    }
    // The other axes, complex.
    for (int axis = nd - 2; axis >= nd - k; --axis)
        alongAxis(y, axis, [&](const Complex* in, Complex* out, int64_t len) { fft.forward(out, in, len); });
    return y;
}

// numpy.fft.irfftn(z, s) * prod(s): the unnormalised inverse, real.
std::vector<double> irfftn(ComplexArray z, const std::vector<int64_t>& s, Shape& outDims) {
    const int nd = static_cast<int>(z.dims.size()), k = static_cast<int>(s.size());
    Shape dims = z.dims;
    for (int j = 0; j < k; ++j) dims[static_cast<size_t>(nd - k + j)] = s[static_cast<size_t>(j)];
    requireAllocatable(dims, "IRFFTOp");
    const int64_t n = dims.back(), half = n / 2 + 1;
    Shape halfDims = dims;
    halfDims.back() = half;
    z = fitted(z, halfDims);
    Transforms fft = unscaledFft();
    for (int axis = nd - k; axis <= nd - 2; ++axis)
        alongAxis(z, axis, [&](const Complex* in, Complex* out, int64_t len) { fft.inverse(out, in, len); });
    outDims = dims;
    std::vector<double> out(static_cast<size_t>(product(dims)));
    for (int64_t r = 0; r < product(dims) / n; ++r) fft.inverseReal(out.data() + r * n, z.values.data() + r * half, n);
    return out;
}

template <typename T> void storeAll(const double* values, NDArray& out) {
    T* p = out.data<T>();
    for (int64_t i = 0; i < out.size(); ++i) p[i] = linalg::castResult<T>(values[i]);
}

} // namespace

std::vector<Type> RealFFTOp::inferTypes(std::span<const Type* const> in) const {
    const std::string op = name();
    arrayop::requireArity(in, 2, op);
    arrayop::requireTensor(*in[0], op + "'s input");
    const Type& s = *in[1];
    if (!s.isTensorType() || s.ndim() != 1 || !arrayop::isIntDType(s.dtype))
        throw OpTypeError(op + ": length of the transformed axis must be of type integer (a vector), got " + s.toString());
    const int nd = in[0]->ndim();
    if (!inverse()) {
        if (nd < 2) throw OpTypeError("RFFTOp: input must have dimension >= 2, with first dimension batches, got " + in[0]->toString());
        StaticShape shape(static_cast<size_t>(nd), kUnknownDim);
        shape.push_back(2);
        return {Type::tensor(in[0]->dtype, shape)};
    }
    if (nd < 3)
        throw OpTypeError("IRFFTOp: input must have dimension >= 3,  with first dimension batches and last real/imag parts, got " +
                          in[0]->toString());
    return {Type::tensor(in[0]->dtype, StaticShape(static_cast<size_t>(nd - 1), kUnknownDim))};
}

void RealFFTOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& a = in[0];
    if (!inverse()) {
        const std::vector<int64_t> s = readLengths(in[1], a.ndim(), name());
        const ComplexArray y = rfftn(a, s);
        Shape shape = y.dims;
        shape.push_back(2);
        std::vector<double> parts;
        parts.reserve(y.values.size() * 2);
        for (const Complex& c : y.values) {
            parts.push_back(c.real());
            parts.push_back(c.imag());
        }
        NDArray r = arrayop::reuseOrEmpty(out[0], a.dtype(), shape);
        dispatchDType(r.dtype(), [&](auto t) { storeAll<decltype(t)>(parts.data(), r); });
        out[0] = r;
        return;
    }
    if (a.dim(a.ndim() - 1) != 2)
        throw ExecError("IRFFTOp: the last axis holds the real and imaginary parts and must have length 2, got shape " +
                        shapeToString(a.shape()));
    const std::vector<int64_t> s = readLengths(in[1], a.ndim() - 1, name());
    ComplexArray z{Shape(a.shape().begin(), a.shape().end() - 1), {}};
    const std::vector<double> parts = a.toDoubles();
    for (size_t i = 0; i + 1 < parts.size(); i += 2) z.values.emplace_back(parts[i], parts[i + 1]);
    Shape dims;
    const std::vector<double> values = irfftn(std::move(z), s, dims);
    NDArray r = arrayop::reuseOrEmpty(out[0], a.dtype(), dims);
    dispatchDType(r.dtype(), [&](auto t) { storeAll<decltype(t)>(values.data(), r); });
    out[0] = r;
}

OpPtr makeRFFT() {
    static const OpPtr op = std::make_shared<RealFFTOp>(false);
    return op;
}

OpPtr makeIRFFT() {
    static const OpPtr op = std::make_shared<RealFFTOp>(true);
    return op;
}

OpPtr makeOpRFFTOp(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {}, "RFFTOp");
    return makeRFFT();
}

OpPtr makeOpIRFFTOp(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {}, "IRFFTOp");
    return makeIRFFT();
}

} // namespace tl
