// MatrixInverse, Det and SLogDet: numpy.linalg's inv, det and slogdet, all from one
// LU factorization (getrf) in float64, cast to the input's dtype as PyTensor does.
// inv of a singular matrix is an error (NumPy raises "Singular matrix"); det and
// slogdet of one are 0 and (0, -inf), as NumPy returns them.
#include "ops/ArrayOpUtil.h"
#include "ops/LapackCalls.h"
#include "ops/Linalg.h"
#include "ops/LinalgDense.h"
#include "ops/LinalgOp.h"

#include <cmath>
#include <limits>

namespace tl {

namespace {

// (sign, log|det|) from getrf's factors, as NumPy's slogdet computes them.
std::pair<double, double> signLogDet(int n, const double* lu, const int* piv, int info) {
    if (info > 0) return {0.0, -std::numeric_limits<double>::infinity()};
    double sign = 1.0, logdet = 0.0;
    for (int i = 0; i < n; ++i) {
        const double d = lu[i + static_cast<size_t>(i) * n];
        if (piv[i] != i + 1) sign = -sign;
        if (d < 0) sign = -sign;
        logdet += std::log(std::fabs(d));
    }
    return {sign, logdet};
}

class MatrixInverseOp final : public LinalgOp {
public:
    MatrixInverseOp() : LinalgOp(OpKind::MatrixInverse, "MatrixInverse", {}) {}
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        arrayop::requireArity(in, 1, "MatrixInverse");
        linalg::requireNdim(*in[0], 2, "MatrixInverse input");
        return {*in[0]};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        linalg::requireSquare(in[0], "MatrixInverse");
        s = {in[0].shape()};
        d = {in[0].dtype()};
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const override {
        const int n = static_cast<int>(in[0].dim(0));
        double* lu;
        int* piv;
        const int info = dense::luFactor(in[0], ws, lu, piv);
        if (info > 0) linalg::throwSingular("MatrixInverse", info, "Singular matrix");
        // NumPy's inv solves A X = I (gesv) rather than calling getri.
        double* x = ws.get<double>(1, static_cast<size_t>(n) * n);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) x[i + static_cast<size_t>(j) * n] = i == j ? 1.0 : 0.0;
        if (n > 0) lapack::getrs<double>('N', n, n, lu, n, piv, x, n);
        linalg::storeColMajor(x, std::max(n, 1), out[0]);
    }
};

class DetOp final : public LinalgOp {
public:
    explicit DetOp(bool withSign)
        : LinalgOp(withSign ? OpKind::SLogDet : OpKind::Det, withSign ? "SLogDet" : "Det", {}), m_sign(withSign) {}
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        const std::string op = className();
        arrayop::requireArity(in, 1, op);
        linalg::requireNdim(*in[0], 2, op + " input");
        if (!m_sign && in[0]->shape[0] != kUnknownDim && in[0]->shape[1] != kUnknownDim && in[0]->shape[0] != in[0]->shape[1])
            throw OpTypeError("Determinant not defined for non-square matrix inputs, got " + in[0]->toString());
        const Type s = Type::tensor(in[0]->dtype, {});
        if (m_sign) return {s, s};
        return {s};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        linalg::requireSquare(in[0], className());
        s.assign(m_sign ? 2 : 1, Shape{});
        d.assign(m_sign ? 2 : 1, in[0].dtype());
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace& ws) const override {
        const int n = static_cast<int>(in[0].dim(0));
        double* lu;
        int* piv;
        const int info = dense::luFactor(in[0], ws, lu, piv);
        const auto [sign, logdet] = signLogDet(n, lu, piv, info);
        if (m_sign) {
            linalg::storeScalar(sign, out[0]);
            linalg::storeScalar(logdet, out[1]);
        } else {
            // NumPy's det is sign * exp(logdet), not the product of the pivots.
            linalg::storeScalar(sign * std::exp(logdet), out[0]);
        }
    }

private:
    bool m_sign;
};

} // namespace

OpPtr makeMatrixInverse() {
    static const OpPtr op = std::make_shared<MatrixInverseOp>();
    return op;
}
OpPtr makeDet() {
    static const OpPtr op = std::make_shared<DetOp>(false);
    return op;
}
OpPtr makeSLogDet() {
    static const OpPtr op = std::make_shared<DetOp>(true);
    return op;
}

namespace {
OpPtr checked(OpPtr op, const nlohmann::json& params) {
    PropReader(params, static_cast<const PropsOp&>(*op).className()).check(*op);
    return op;
}
} // namespace

OpPtr makeOpMatrixInverse(const nlohmann::json& p, std::shared_ptr<const Graph>) { return checked(makeMatrixInverse(), p); }
OpPtr makeOpDet(const nlohmann::json& p, std::shared_ptr<const Graph>) { return checked(makeDet(), p); }
OpPtr makeOpSLogDet(const nlohmann::json& p, std::shared_ptr<const Graph>) { return checked(makeSLogDet(), p); }

} // namespace tl
