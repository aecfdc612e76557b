#include "ops/LinalgOp.h"

#include "ops/ArrayOpUtil.h"

namespace tl::linalg {

DType scipyDType(DType in) {
    switch (in) {
    case DType::Bool:
    case DType::Int8:
    case DType::Int16:
    case DType::UInt8:
    case DType::UInt16:
    case DType::Float32: return DType::Float32;
    default: return DType::Float64;
    }
}

void requireNdim(const Type& t, int ndim, const std::string& what) {
    arrayop::requireTensor(t, what);
    if (t.ndim() != ndim)
        throw OpTypeError(what + " must be " + (ndim == 1 ? "a vector" : ndim == 2 ? "a matrix" : std::to_string(ndim) + "-d") +
                          ", got " + t.toString());
}

void requireSquareType(const Type& t, const std::string& what) {
    if (t.shape[0] != kUnknownDim && t.shape[1] != kUnknownDim && t.shape[0] != t.shape[1])
        throw OpTypeError(what + " must be a square matrix, got " + t.toString());
}

void requireSquare(const NDArray& a, const std::string& op) {
    if (a.ndim() != 2 || a.dim(0) != a.dim(1))
        throw ExecError(op + ": the input is expected to be a square matrix, but has the shape " + shapeToString(a.shape()));
}

void checkFinite(bool check, const NDArray& a, const std::string& op) {
    if (check && !allFinite(a)) throw ExecError(op + ": array must not contain infs or NaNs (check_finite=True)");
}

StaticShape squareShape(const Type& t) {
    const int64_t n = t.shape[0] != kUnknownDim ? t.shape[0] : t.shape[1];
    return {n, n};
}

void throwSingular(const std::string& op, int info, const char* what) {
    throw ExecError(op + ": " + what + " (LAPACK: the pivot at row " + std::to_string(info) + " is zero)");
}

} // namespace tl::linalg
