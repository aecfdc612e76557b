#pragma once
// Factories of the linear-algebra core ops (pytensor.tensor.slinalg / nlinalg),
// with PyTensor's props and defaults. Each op is a core op over matrices; the
// builder wraps it in Blockwise with gufuncSignature(), as pytensor.tensor.linalg
// does. Kernels and type rules: ops/LinalgOp.h and the ops/Linalg*.cpp files.
#include "ir/Op.h"

#include <optional>
#include <string>
#include <vector>

namespace tl {

// numpy.linalg
OpPtr makeMatrixInverse();
OpPtr makeDet();
OpPtr makeSLogDet();
/// Eigen-decomposition of a symmetric matrix from its UPLO ("L" or "U") triangle.
OpPtr makeEigh(const std::string& uplo = "L");
OpPtr makeSVD(bool fullMatrices = true, bool computeUv = true);
OpPtr makeMatrixPinv(bool hermitian = false);
/// np.linalg.lstsq(x, y, rcond): (solution, residuals, rank, singular values).
OpPtr makeLstsq();
/// np.linalg.tensorinv(a, ind): the inverse of a as a (prod(shape[ind:]), prod(shape[:ind]))
/// matrix, of shape shape[ind:] + shape[:ind].
OpPtr makeTensorInv(int ind = 2);
/// np.linalg.tensorsolve(a, b, axes): x with tensordot(a, x, x.ndim) = b, `axes` of a
/// moved to the end first.
OpPtr makeTensorSolve(std::optional<std::vector<int>> axes = std::nullopt);

// scipy.linalg
/// assume_a: "gen", "sym", "her", "pos", "tridiagonal" or "banded"; b_ndim 1 or 2.
OpPtr makeSolve(const std::string& assumeA, bool lower, bool checkFinite, int bNdim, bool overwriteA = false,
                bool overwriteB = false);
OpPtr makeSolveTriangular(bool unitDiagonal, bool lower, bool checkFinite, int bNdim, bool overwriteB = false);
/// on_error: "raise" or "nan".
OpPtr makeCholesky(bool lower = true, bool checkFinite = false, const std::string& onError = "raise",
                   bool overwriteA = false);
OpPtr makeCholeskySolve(bool lower, bool checkFinite, int bNdim, bool overwriteB = false);
OpPtr makeLU(bool permuteL = false, bool overwriteA = false, bool checkFinite = true, bool pIndices = false);
OpPtr makeLUFactor(bool overwriteA = false, bool checkFinite = true);
OpPtr makePivotToPermutations(bool inverse = true);
/// mode: "full", "economic", "r" or "raw".
OpPtr makeQR(const std::string& mode = "full", bool overwriteA = false, bool pivoting = false, bool checkFinite = false);
OpPtr makeEigvalsh(bool lower = true);

// The gradient ops pytensor.grad builds for Eigh and Eigvalsh (ops/LinalgSpectralGrad.cpp).
/// EighGrad(x, w, v, gw, gv): the gradient wrt x of Eigh{UPLO}(x) = (w, v).
OpPtr makeEighGrad(const std::string& uplo = "L");
/// EigvalshGrad(a, b, gw): the gradients (ga, gb) of Eigvalsh{lower}(a, b).
OpPtr makeEigvalshGrad(bool lower = true);
OpPtr makeExpm();
/// ExpmGrad(A, gA): the gradient wrt A of Expm(A), gA the gradient of its output.
OpPtr makeExpmGrad();
/// scipy.linalg.solve_continuous_lyapunov(A, Q): X with A X + X A^T = Q.
OpPtr makeSolveContinuousLyapunov();
OpPtr makeBilinearSolveDiscreteLyapunov();
/// scipy.linalg.solve_discrete_are(A, B, Q, R): the stabilizing X of the discrete
/// algebraic Riccati equation (ops/LinalgRiccati.cpp).
OpPtr makeSolveDiscreteARE(bool enforceQSymmetric = false);
OpPtr makeBlockDiagonal(int nInputs);
/// np.kron of two arrays of equal rank (the builder pads the lower-rank one).
OpPtr makeKroneckerProduct();

/// Whether `kind` is one of the linear-algebra ops above (pytensor.tensor.slinalg / nlinalg).
bool isLinalgKind(OpKind kind);

/// The op's gufunc signature as PyTensor gives it ("(m,m),(m)->(m)" for a Solve with
/// b_ndim=1), for the linear-algebra ops, Dot and BatchedDot; nullopt for an op
/// without one.
std::optional<std::string> gufuncSignatureOf(const Op& core);
/// The same; std::invalid_argument for an op without one.
std::string gufuncSignature(const Op& core);

} // namespace tl

namespace tl {

/// PyTensor's Op.inplace_on_inputs for the linear-algebra core ops: the op that
/// overwrites one of the `allowed` inputs where it can (Solve prefers b, then A unless
/// tridiagonal; SolveTriangular and CholeskySolve b; Cholesky, LU, LUFactor and QR A),
/// or `core` itself when none of them can be.
OpPtr inplaceOnInputs(const OpPtr& core, const std::vector<int>& allowed);

} // namespace tl
