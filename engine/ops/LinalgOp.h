#pragma once
// The linear-algebra ops of pytensor.tensor.slinalg / nlinalg (ops/Linalg*.cpp):
// PyTensor's props and printed names (PropsOp), a kernel that computes one core
// problem into the arrays it is handed (SliceKernel, so Blockwise batches them),
// and the dtype rules PyTensor takes from SciPy and NumPy:
//  - SciPy-based ops (Solve, Cholesky, LU, QR, Eigvalsh, ...) compute in float32
//    for float32 (and for bool, int8, int16, uint8, uint16, which SciPy maps to float32)
//    and in float64 otherwise, LAPACK's s and d routines;
//  - NumPy-based ops (MatrixInverse, Det, SLogDet, Eigh, SVD, MatrixPinv, Lstsq)
//    compute in float64 whatever the input, then cast to the output dtype PyTensor
//    gives them (often the input's: the inverse of an int matrix is an int matrix).
// Where SciPy or NumPy raise (a singular matrix, one not positive definite, NaN
// under check_finite) the kernel throws ExecError saying so; the executor adds the
// node, Blockwise the batch element.
#include "ops/PropsOp.h"
#include "ops/SliceKernel.h"

namespace tl {

class LinalgOp : public PropsOp, public SliceKernel {
public:
    using PropsOp::PropsOp;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override {
        performSlice(*this, *this, inputs, outputs);
    }
};

namespace linalg {

/// The dtype SciPy's LAPACK dispatch computes a (promoted) input dtype in.
DType scipyDType(DType in);
/// The float type a kernel computes in for an output of dtype `d`: float for float32.
inline bool computesInFloat(DType d) { return d == DType::Float32; }

/// OpTypeError unless t is a tensor of `ndim` dims ("Cholesky input must be a matrix").
void requireNdim(const Type& t, int ndim, const std::string& what);
/// OpTypeError when both static dims of a matrix type are known and differ.
void requireSquareType(const Type& t, const std::string& what);
/// ExecError unless a is a square matrix.
void requireSquare(const NDArray& a, const std::string& op);
/// ExecError "array must not contain infs or NaNs" when check is on and a is not finite.
void checkFinite(bool check, const NDArray& a, const std::string& op);
/// A square matrix's static shape with the dims unified (a known one wins).
StaticShape squareShape(const Type& t);

/// "lower", "upper": LAPACK's uplo for a flag.
inline char uplo(bool lower) { return lower ? 'L' : 'U'; }
/// LAPACK info > 0 from a factorization of a singular matrix, worded for users.
[[noreturn]] void throwSingular(const std::string& op, int info, const char* what = "the matrix is singular");

} // namespace linalg
} // namespace tl
