// QR of scipy.linalg in its four modes (full, economic, r, raw): geqrf/orgqr, and
// geqp3 with pivoting.
#include "ops/ArrayOpUtil.h"
#include "ops/LapackCalls.h"
#include "ops/Linalg.h"
#include "ops/LinalgOp.h"

#include <algorithm>

namespace tl {

namespace {

DType qrDType(DType in, const std::string& what) {
    // PyTensor: np.dtype(f"f{itemsize}"): float32 for 4-byte inputs, float64 for 8-byte ones.
    switch (in) {
    case DType::Int32:
    case DType::Float32: return DType::Float32;
    case DType::Int64:
    case DType::Float64: return DType::Float64;
    case DType::Int16: throw OpTypeError(what + ": an int16 input gives float16, which tensorlens has no dtype for");
    default: throw OpTypeError(what + ": PyTensor cannot type a " + std::string(dtypeName(in)) + " input (there is no 1-byte float)");
    }
}

class QROp final : public LinalgOp {
public:
    explicit QROp(std::vector<OpProp> props) : LinalgOp(OpKind::QR, "QR", std::move(props)) {}
    AliasMap destroyMap() const override { return boolProp("overwrite_a") ? AliasMap{{0, {0}}} : AliasMap{}; }
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        arrayop::requireArity(in, 1, "QR");
        linalg::requireNdim(*in[0], 2, "QR input");
        const DType dt = qrDType(in[0]->dtype, "QR");
        const int64_t M = in[0]->shape[0], N = in[0]->shape[1];
        const int64_t K = M != kUnknownDim && N != kUnknownDim ? std::min(M, N) : kUnknownDim;
        std::vector<Type> out;
        for (const Shape& s : shapesFor(M, N, K)) out.push_back(Type::tensor(dt, StaticShape(s.begin(), s.end())));
        // raw: the reflectors are M x N, which PyTensor types (M, M); keep its type where they agree.
        if (stringProp("mode") == "raw") {
            const bool square = M != kUnknownDim && M == N;
            out[0].shape = square ? StaticShape{M, M} : StaticShape{kUnknownDim, kUnknownDim};
            out[2].shape = square ? StaticShape{M, N} : StaticShape{kUnknownDim, N};
        }
        if (boolProp("pivoting")) out.push_back(Type::tensor(DType::Int32, {N}));
        return out;
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        if (in[0].ndim() != 2) throw ExecError("QR takes a matrix, got shape " + shapeToString(in[0].shape()));
        const int64_t M = in[0].dim(0), N = in[0].dim(1);
        s = shapesFor(M, N, std::min(M, N));
        const DType dt = in[0].dtype() == DType::Float32 || in[0].dtype() == DType::Int32 ? DType::Float32 : DType::Float64;
        d.assign(s.size(), dt);
        if (boolProp("pivoting")) {
            s.push_back({N});
            d.push_back(DType::Int32);
        }
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const override {
        // SciPy's LAPACK type is the input's: s routines for float32 only.
        if (in[0].dtype() == DType::Float32) run<float>(in[0], out, ws);
        else run<double>(in[0], out, ws);
    }

private:
    std::vector<Shape> shapesFor(int64_t M, int64_t N, int64_t K) const {
        const std::string mode = stringProp("mode");
        if (mode == "full") return {{M, M}, {M, N}};
        if (mode == "economic") return {{M, K}, {K, N}};
        if (mode == "r") return {{M, N}};
        return {{M, N}, {K}, {K, N}};  // raw: the reflectors as geqrf leaves them, tau, R
    }

    template <typename T> void run(const NDArray& x, std::span<const NDArray> out, linalg::Workspace& ws) const {
        linalg::checkFinite(boolProp("check_finite"), x, "QR");
        const std::string mode = stringProp("mode");
        const int M = static_cast<int>(x.dim(0)), N = static_cast<int>(x.dim(1)), K = std::min(M, N), ld = std::max(M, 1);
        // Room for M columns: the full Q is built in place over the reflectors.
        T* a = ws.get<T>(0, static_cast<size_t>(ld) * std::max({M, N, 1}));
        T* tau = ws.get<T>(1, static_cast<size_t>(std::max(K, 1)));
        linalg::loadColMajor(x, a, ld);
        int* jpvt = nullptr;
        if (M > 0 && N > 0) {
            if (boolProp("pivoting")) {
                jpvt = ws.ints(0, static_cast<size_t>(N));
                std::fill(jpvt, jpvt + N, 0);
                lapack::geqp3<T>(M, N, a, ld, jpvt, tau, ws);
            } else {
                lapack::geqrf<T>(M, N, a, ld, tau, ws);
            }
        }
        // R: the upper triangle, M x N (K x N in economic / raw when M > N).
        const bool shortR = (mode == "economic" || mode == "raw") && M >= N;
        const int rRows = shortR ? N : M;
        T* r = ws.get<T>(2, static_cast<size_t>(std::max(rRows, 1)) * std::max(N, 1));
        for (int j = 0; j < N; ++j)
            for (int i = 0; i < rRows; ++i) r[i + static_cast<size_t>(j) * std::max(rRows, 1)] = i <= j ? a[i + static_cast<size_t>(j) * ld] : T(0);
        size_t next = 0;
        auto storePivots = [&] {
            std::vector<double> p(static_cast<size_t>(N));
            for (int i = 0; i < N; ++i) p[static_cast<size_t>(i)] = jpvt ? jpvt[i] - 1 : i;
            linalg::storeVector(p.data(), out[out.size() - 1]);
        };
        if (mode == "r") {
            linalg::storeColMajor(r, std::max(rRows, 1), out[next++]);
            if (boolProp("pivoting")) storePivots();
            return;
        }
        if (mode == "raw") {
            linalg::storeColMajor(a, ld, out[next++]);
            linalg::storeVector(tau, out[next++]);
            linalg::storeColMajor(r, std::max(rRows, 1), out[next++]);
            if (boolProp("pivoting")) storePivots();
            return;
        }
        // Q: M x K (economic, or M < N) or M x M (full), from the reflectors.
        const int qCols = mode == "economic" || M < N ? K : M;
        if (M > 0 && qCols > 0) lapack::orgqr<T>(M, qCols, K, a, ld, tau, ws);
        linalg::storeColMajor(a, ld, out[next++]);
        linalg::storeColMajor(r, std::max(rRows, 1), out[next++]);
        if (boolProp("pivoting")) storePivots();
    }
};

} // namespace

OpPtr makeOpQR(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    PropReader r(params, "QR");
    OpPtr op = std::make_shared<QROp>(std::vector<OpProp>{{"overwrite_a", r.getBool("overwrite_a", false)},
                                                          {"mode", r.getString("mode", "full", {"full", "economic", "r", "raw"})},
                                                          {"pivoting", r.getBool("pivoting", false)},
                                                          {"check_finite", r.getBool("check_finite", false)}});
    r.check(*op);
    return op;
}

OpPtr makeQR(const std::string& mode, bool overwriteA, bool pivoting, bool checkFinite) {
    return makeOpQR({{"overwrite_a", overwriteA}, {"mode", mode}, {"pivoting", pivoting}, {"check_finite", checkFinite}}, nullptr);
}

} // namespace tl
