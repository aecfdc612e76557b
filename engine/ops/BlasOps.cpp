#include "ops/BlasOps.h"

#include "ops/ArrayOpUtil.h"
#include "ops/BlasCalls.h"
#include "ops/Dot.h"
#include "ops/LinalgBuffers.h"

#include <cmath>

namespace tl {

namespace {

const char* blasClassName(OpKind k) {
    switch (k) {
    case OpKind::Dot22: return "Dot22";
    case OpKind::Dot22Scalar: return "Dot22Scalar";
    case OpKind::Gemm: return "Gemm";
    case OpKind::Gemv: return "Gemv";
    case OpKind::CGemv: return "CGemv";
    case OpKind::Ger: return "Ger";
    case OpKind::CGer: return "CGer";
    case OpKind::BatchedDot: return "BatchedDot";
    default: throw std::logic_error("not a BLAS op kind");
    }
}

bool isGer(OpKind k) { return k == OpKind::Ger || k == OpKind::CGer; }
bool isGemv(OpKind k) { return k == OpKind::Gemv || k == OpKind::CGemv; }
bool hasFlag(OpKind k) { return isGer(k) || isGemv(k) || k == OpKind::Gemm; }

std::vector<OpProp> propsOf(OpKind k, bool inPlace) {
    if (isGer(k)) return {{"destructive", inPlace}};
    if (hasFlag(k)) return {{"inplace", inPlace}};
    return {};
}

void requireNdim(const Type& t, int nd, const std::string& what) {
    arrayop::requireTensor(t, what);
    if (t.ndim() != nd)
        throw OpTypeError(what + " must be " + (nd == 0 ? "a scalar" : nd == 1 ? "a vector" : nd == 2 ? "a matrix" : "3-d") +
                          ", got " + t.toString());
}

void requireSameDType(std::span<const Type* const> in, const std::string& op) {
    for (const Type* t : in)
        if (t->dtype != in[0]->dtype) {
            std::string list;
            for (const Type* u : in) list += (list.empty() ? "" : ", ") + std::string(dtypeName(u->dtype));
            throw OpTypeError(op + " requires matching dtypes, got (" + list + ")");
        }
}

void requireFloat(const Type& t, const std::string& op) {
    if (t.dtype != DType::Float32 && t.dtype != DType::Float64)
        throw OpTypeError(op + " requires float32 or float64, got " + std::string(dtypeName(t.dtype)));
}

// A dimension shared by two inputs: their static sizes must agree where both are known.
void requireSameDim(int64_t a, int64_t b, const std::string& op, const Type& ta, const Type& tb) {
    if (a != kUnknownDim && b != kUnknownDim && a != b)
        throw OpTypeError(op + ": incompatible shapes " + ta.toString() + " and " + tb.toString());
}

double scalarValue(const NDArray& a, const char* what, const std::string& op) {
    if (a.size() != 1) throw ExecError(op + ": " + what + " must hold one value, got shape " + shapeToString(a.shape()));
    return a.item();
}

// The array an inplace op writes into: `x` itself, or a copy of it (the previous call's
// buffer when it is free). When the value is about to be overwritten whole (beta == 0)
// the copy is skipped.
NDArray writableCopy(const NDArray& x, NDArray& cell, bool inPlace, bool needValues) {
    if (inPlace) return x;
    NDArray out = arrayop::reuseOrEmpty(cell, x.dtype(), x.shape());
    if (needValues) out.assign(x);
    return out;
}

// out = beta * y + alpha * (a @ b) for the dtypes BLAS lacks, in double: PyTensor's
// fallback computes np.dot and scales it, which only integer graphs ever reach.
void exactUpdate(double alpha, const NDArray& a, const NDArray& b, double beta, const NDArray& out) {
    NDArray prod = NDArray::empty(DType::Float64, out.shape());
    matrixProductInto(a, b, prod);
    const NDArray y = beta == 0.0 ? NDArray() : out.astype(DType::Float64);
    NDArray res = NDArray::empty(DType::Float64, out.shape());
    const double* pp = prod.data<double>();
    double* pr = res.data<double>();
    for (int64_t i = 0; i < res.size(); ++i) pr[i] = alpha * pp[i] + (beta == 0.0 ? 0.0 : beta * y.data<double>()[i]);
    dispatchDType(out.dtype(), [&](auto t) {
        using T = decltype(t);
        NDArray cast = NDArray::empty(out.dtype(), out.shape());
        for (int64_t i = 0; i < res.size(); ++i) cast.data<T>()[i] = linalg::castResult<T>(pr[i]);
        out.assign(cast);
    });
}

} // namespace

BlasOp::BlasOp(OpKind kind, bool inPlace) : PropsOp(kind, blasClassName(kind), propsOf(kind, inPlace)), m_inPlace(inPlace) {}

std::string BlasOp::name() const {
    // PyTensor's own __str__ for these: "Gemv{inplace}", "CGer{non-destructive}", "Dot22".
    if (isGer(kind())) return className() + (m_inPlace ? "{destructive}" : "{non-destructive}");
    if (hasFlag(kind())) return className() + (m_inPlace ? "{inplace}" : "{no_inplace}");
    return className();
}

AliasMap BlasOp::destroyMap() const {
    if (m_inPlace) return {{0, {0}}};
    return {};
}

OpPtr BlasOp::withInPlace(bool inPlace) const { return std::make_shared<BlasOp>(kind(), inPlace); }

std::vector<Type> BlasOp::inferTypes(std::span<const Type* const> in) const {
    const std::string op = className();
    switch (kind()) {
    case OpKind::Dot22:
    case OpKind::BatchedDot: {
        arrayop::requireArity(in, 2, op);
        const int nd = kind() == OpKind::Dot22 ? 2 : 3;
        requireNdim(*in[0], nd, op + " input 0");
        requireNdim(*in[1], nd, op + " input 1");
        const Type &x = *in[0], &y = *in[1];
        if (kind() == OpKind::Dot22) {
            requireFloat(x, op);
            requireSameDType(in, op);
            requireSameDim(x.shape[1], y.shape[0], op, x, y);
            return {Type::tensor(x.dtype, {x.shape[0], y.shape[1]})};
        }
        // BatchedDot: no broadcasting of the batch axis.
        requireSameDim(x.shape[0], y.shape[0], op, x, y);
        requireSameDim(x.shape[2], y.shape[1], op, x, y);
        const int64_t batch = x.shape[0] != kUnknownDim ? x.shape[0] : y.shape[0];
        return {Type::tensor(promote(x.dtype, y.dtype), {batch, x.shape[1], y.shape[2]})};
    }
    case OpKind::Dot22Scalar: {
        arrayop::requireArity(in, 3, op);
        requireNdim(*in[0], 2, op + " x");
        requireNdim(*in[1], 2, op + " y");
        requireNdim(*in[2], 0, op + " a");
        requireSameDType(in, op);
        requireFloat(*in[0], op);
        requireSameDim(in[0]->shape[1], in[1]->shape[0], op, *in[0], *in[1]);
        return {Type::tensor(in[0]->dtype, {in[0]->shape[0], in[1]->shape[1]})};
    }
    case OpKind::Gemm: {
        arrayop::requireArity(in, 5, op);
        requireNdim(*in[0], 2, op + " z");
        requireNdim(*in[1], 0, op + " a");
        requireNdim(*in[2], 2, op + " x");
        requireNdim(*in[3], 2, op + " y");
        requireNdim(*in[4], 0, op + " b");
        requireSameDType(in, op);
        requireFloat(*in[0], op);
        requireSameDim(in[2]->shape[1], in[3]->shape[0], op, *in[2], *in[3]);
        return {*in[0]};
    }
    case OpKind::Gemv:
    case OpKind::CGemv: {
        arrayop::requireArity(in, 5, op);
        requireNdim(*in[0], 1, op + " y");
        requireNdim(*in[1], 0, op + " alpha");
        requireNdim(*in[2], 2, op + " A");
        requireNdim(*in[3], 1, op + " x");
        requireNdim(*in[4], 0, op + " beta");
        if (in[0]->dtype != in[2]->dtype || in[0]->dtype != in[3]->dtype)
            throw OpTypeError(op + " requires matching dtypes of y, A and x, got (" + std::string(dtypeName(in[0]->dtype)) +
                              ", " + std::string(dtypeName(in[2]->dtype)) + ", " + std::string(dtypeName(in[3]->dtype)) + ")");
        requireSameDim(in[2]->shape[0], in[0]->shape[0], op, *in[2], *in[0]);
        requireSameDim(in[2]->shape[1], in[3]->shape[0], op, *in[2], *in[3]);
        return {*in[0]};
    }
    case OpKind::Ger:
    case OpKind::CGer: {
        arrayop::requireArity(in, 4, op);
        requireNdim(*in[0], 2, op + " A");
        requireNdim(*in[1], 0, op + " alpha");
        requireNdim(*in[2], 1, op + " x");
        requireNdim(*in[3], 1, op + " y");
        requireSameDType(in, op);
        requireFloat(*in[2], op);
        requireSameDim(in[0]->shape[0], in[2]->shape[0], op, *in[0], *in[2]);
        requireSameDim(in[0]->shape[1], in[3]->shape[0], op, *in[0], *in[3]);
        return {*in[0]};
    }
    default: throw std::logic_error("not a BLAS op kind");
    }
}

void BlasOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const std::string op = className();
    switch (kind()) {
    case OpKind::Dot22: {
        if (in[0].ndim() != 2 || in[1].ndim() != 2) throw ExecError(op + " takes two matrices");
        NDArray r = arrayop::reuseOrEmpty(out[0], in[0].dtype(), {in[0].dim(0), in[1].dim(1)});
        matrixProductInto(in[0], in[1], r);
        out[0] = r;
        return;
    }
    case OpKind::Dot22Scalar: {
        if (in[0].ndim() != 2 || in[1].ndim() != 2) throw ExecError(op + " takes two matrices");
        NDArray r = arrayop::reuseOrEmpty(out[0], in[0].dtype(), {in[0].dim(0), in[1].dim(1)});
        const double a = scalarValue(in[2], "a", op);
        if (in[0].dim(1) != in[1].dim(0))
            throw ExecError(op + ": shapes " + shapeToString(in[0].shape()) + " and " + shapeToString(in[1].shape()) +
                            " are not aligned");
        blas::gemm(a, in[0], in[1], 0.0, r);
        out[0] = r;
        return;
    }
    case OpKind::BatchedDot: {
        const NDArray &x = in[0], &y = in[1];
        if (x.ndim() != 3 || y.ndim() != 3) throw ExecError(op + " takes two 3-d arrays");
        if (x.dim(0) != y.dim(0))
            throw ExecError(op + ": inputs must have the same size in axis 0, but have sizes " + std::to_string(x.dim(0)) +
                            " and " + std::to_string(y.dim(0)));
        if (x.dim(2) != y.dim(1))
            throw ExecError(op + ": shapes " + shapeToString(x.shape()) + " and " + shapeToString(y.shape()) +
                            " are not aligned");
        const DType dt = promote(x.dtype(), y.dtype());
        NDArray r = arrayop::reuseOrEmpty(out[0], dt, {x.dim(0), x.dim(1), y.dim(2)});
        for (int64_t i = 0; i < x.dim(0); ++i) {
            auto slice = [i](const NDArray& a) {
                return a.view({a.dim(1), a.dim(2)}, {a.strides()[1], a.strides()[2]}, a.offset() + i * a.strides()[0]);
            };
            matrixProductInto(slice(x), slice(y), slice(r));
        }
        out[0] = r;
        return;
    }
    case OpKind::Gemm: {
        const NDArray &z = in[0], &x = in[2], &y = in[3];
        const double a = scalarValue(in[1], "a", op), b = scalarValue(in[4], "b", op);
        if (x.dim(1) != y.dim(0))
            throw ExecError(op + ": shapes " + shapeToString(x.shape()) + " and " + shapeToString(y.shape()) +
                            " are not aligned");
        const Shape shape{std::max(z.dim(0), x.dim(0)), std::max(z.dim(1), y.dim(1))};
        if (shape[0] != x.dim(0) || shape[1] != y.dim(1) || (z.dim(0) != shape[0] && z.dim(0) != 1) ||
            (z.dim(1) != shape[1] && z.dim(1) != 1))
            throw ExecError(op + ": z of shape " + shapeToString(z.shape()) + " does not fit the product of " +
                            shapeToString(x.shape()) + " and " + shapeToString(y.shape()));
        NDArray target;
        if (z.shape() == shape) {
            target = writableCopy(z, out[0], m_inPlace, b != 0.0);
        } else {  // z broadcasts: a new array, as PyTensor's C code allocates one
            target = NDArray::empty(z.dtype(), shape);
            if (b != 0.0) target.assign(arrayop::broadcastView(z, shape, op + ": z"));
        }
        blas::gemm(a, x, y, b, target);
        out[0] = target;
        return;
    }
    case OpKind::Gemv:
    case OpKind::CGemv: {
        const NDArray &y = in[0], &A = in[2], &x = in[3];
        const double alpha = scalarValue(in[1], "alpha", op), beta = scalarValue(in[4], "beta", op);
        if (A.ndim() != 2 || x.ndim() != 1 || y.ndim() != 1 || A.dim(0) != y.dim(0) || A.dim(1) != x.dim(0))
            throw ExecError(op + ": incompatible shapes for gemv (beta * y + alpha * dot(A, x)): y " +
                            shapeToString(y.shape()) + ", A " + shapeToString(A.shape()) + ", x " + shapeToString(x.shape()));
        NDArray target = writableCopy(y, out[0], m_inPlace, beta != 0.0);
        if (blas::hasBlasDType(y.dtype())) blas::gemv(alpha, A, x, beta, target);
        else exactUpdate(alpha, A, x, beta, target);
        out[0] = target;
        return;
    }
    case OpKind::Ger:
    case OpKind::CGer: {
        const NDArray &A = in[0], &x = in[2], &y = in[3];
        const double alpha = scalarValue(in[1], "alpha", op);
        if (A.ndim() != 2 || x.ndim() != 1 || y.ndim() != 1 || A.dim(0) != x.dim(0) || A.dim(1) != y.dim(0))
            throw ExecError(op + ": the outer product of x " + shapeToString(x.shape()) + " and y " +
                            shapeToString(y.shape()) + " does not fit A " + shapeToString(A.shape()));
        NDArray target = writableCopy(A, out[0], m_inPlace, true);
        blas::ger(alpha, x, y, target);
        out[0] = target;
        return;
    }
    default: throw std::logic_error("not a BLAS op kind");
    }
}

OpPtr makeDot22() {
    static const OpPtr op = std::make_shared<BlasOp>(OpKind::Dot22, false);
    return op;
}
OpPtr makeDot22Scalar() {
    static const OpPtr op = std::make_shared<BlasOp>(OpKind::Dot22Scalar, false);
    return op;
}
OpPtr makeBatchedDot() {
    static const OpPtr op = std::make_shared<BlasOp>(OpKind::BatchedDot, false);
    return op;
}
OpPtr makeGemm(bool inplace) { return std::make_shared<BlasOp>(OpKind::Gemm, inplace); }
OpPtr makeGemv(bool inplace, bool cName) { return std::make_shared<BlasOp>(cName ? OpKind::CGemv : OpKind::Gemv, inplace); }
OpPtr makeGer(bool destructive, bool cName) { return std::make_shared<BlasOp>(cName ? OpKind::CGer : OpKind::Ger, destructive); }

namespace {
OpPtr fromParams(OpKind kind, const nlohmann::json& params) {
    PropReader r(params, blasClassName(kind));
    const bool flag = isGer(kind) ? r.getBool("destructive", false) : hasFlag(kind) ? r.getBool("inplace", false) : false;
    OpPtr op = std::make_shared<BlasOp>(kind, flag);
    r.check(*op);
    return op;
}
} // namespace

OpPtr makeOpDot22(const nlohmann::json& p, std::shared_ptr<const Graph>) { return fromParams(OpKind::Dot22, p); }
OpPtr makeOpDot22Scalar(const nlohmann::json& p, std::shared_ptr<const Graph>) { return fromParams(OpKind::Dot22Scalar, p); }
OpPtr makeOpGemm(const nlohmann::json& p, std::shared_ptr<const Graph>) { return fromParams(OpKind::Gemm, p); }
OpPtr makeOpGemv(const nlohmann::json& p, std::shared_ptr<const Graph>) { return fromParams(OpKind::Gemv, p); }
OpPtr makeOpCGemv(const nlohmann::json& p, std::shared_ptr<const Graph>) { return fromParams(OpKind::CGemv, p); }
OpPtr makeOpGer(const nlohmann::json& p, std::shared_ptr<const Graph>) { return fromParams(OpKind::Ger, p); }
OpPtr makeOpCGer(const nlohmann::json& p, std::shared_ptr<const Graph>) { return fromParams(OpKind::CGer, p); }
OpPtr makeOpBatchedDot(const nlohmann::json& p, std::shared_ptr<const Graph>) { return fromParams(OpKind::BatchedDot, p); }

} // namespace tl
