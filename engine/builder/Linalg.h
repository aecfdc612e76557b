#pragma once
// Products and linear algebra as pytensor.tensor builds them: pt.matmul (the
// Matmul Blockwise), pt.tensordot, pt.outer, pt.linalg.* (each core op wrapped in
// Blockwise with its gufunc signature, inputs padded to the same number of batch
// dims as Blockwise.make_node does), and the BLAS ops for building compiled-graph
// shapes by hand. `dot` (builder/Indexing.h) keeps vectors in one Dot node.
#include "builder/GraphBuilder.h"

#include <optional>
#include <string>
#include <vector>

namespace tl {

/// Blockwise(core)(inputs) with core's gufunc signature; inputs with fewer batch dims
/// are padded on the left with broadcastable dims (ExpandDims), as PyTensor does.
std::vector<Var> blockwise(OpPtr core, std::vector<Var> inputs, std::optional<std::string> name = std::nullopt);

/// pt.matmul: vectors are promoted to matrices and the added dim dropped again; a
/// 0-d input is refused as NumPy does.
Var matmul(Var a, Var b);
/// pt.tensordot(a, b, axes): the summed axes of a last and of b first, both reshaped to
/// matrices, one Dot, and the result reshaped (PyTensor's implementation).
Var tensordot(Var a, Var b, const std::vector<int>& axesA, const std::vector<int>& axesB);
/// pt.tensordot(a, b, n): the last n axes of a with the first n of b.
Var tensordot(Var a, Var b, int n = 2);
/// pt.outer(x, y): dot(x[:, None], y[None, :]).
Var outer(Var x, Var y);

namespace linalg {

Var inv(Var a);
Var det(Var a);
/// pt.linalg.slogdet: (sign(det(a)), log(abs(det(a)))), as PyTensor builds it.
std::pair<Var, Var> slogdet(Var a);
/// pt.linalg.solve; `assumeA` as SciPy's (lower/upper triangular go to solve_triangular);
/// bNdim 0 means PyTensor's default (min(b.ndim, 2)).
Var solve(Var a, Var b, const std::string& assumeA = "gen", bool lower = false, bool transposed = false,
          int bNdim = 0, bool checkFinite = true);
/// trans: 0 (a x = b) or 1 (a^T x = b).
Var solveTriangular(Var a, Var b, int trans = 0, bool lower = false, bool unitDiagonal = false, int bNdim = 0,
                    bool checkFinite = true);
Var cholesky(Var a, bool lower = true, bool checkFinite = false, const std::string& onError = "raise");
Var choSolve(Var c, bool lower, Var b, int bNdim = 0, bool checkFinite = true);
/// pt.linalg.lu: (P, L, U), (PL, U) with permuteL, (p, L, U) with pIndices.
std::vector<Var> lu(Var a, bool permuteL = false, bool pIndices = false, bool checkFinite = true);
std::pair<Var, Var> luFactor(Var a, bool checkFinite = true);
Var pivotToPermutation(Var pivots, bool inverse = false);
std::pair<Var, Var> eigh(Var a, const std::string& uplo = "L");
/// scipy.linalg.eigvalsh(a) or, with b, the generalized problem.
Var eigvalsh(Var a, std::optional<Var> b = std::nullopt, bool lower = true);
std::vector<Var> svd(Var a, bool fullMatrices = true, bool computeUv = true);
Var pinv(Var a, bool hermitian = false);
std::vector<Var> qr(Var a, const std::string& mode = "full", bool pivoting = false);
std::vector<Var> lstsq(Var a, Var b, double rcond = -1.0);
/// pt.linalg.tensorinv(a, ind) and tensorsolve(a, b, axes), NumPy's (TensorInv, TensorSolve).
Var tensorinv(Var a, int ind = 2);
Var tensorsolve(Var a, Var b, std::optional<std::vector<int>> axes = std::nullopt);
Var expm(Var a);
/// The gradient wrt a of expm(a) given its output's gradient g (ExpmGrad).
Var expmGrad(Var a, Var g);
/// Continuous Lyapunov equation A X + X A^T = Q, as pt.linalg.solve_continuous_lyapunov
/// (scipy's; PyTensor's docstring writes "+ Q = 0", but the op solves "= Q").
Var solveContinuousLyapunov(Var a, Var q);
/// pt.linalg.solve_discrete_are: the stabilizing solution of the discrete algebraic Riccati
/// equation A^T X A - X - (A^T X B)(R + B^T X B)^-1 (B^T X A) + Q = 0.
Var solveDiscreteAre(Var a, Var b, Var q, Var r, bool enforceQSymmetric = false);
/// Discrete Lyapunov equation A X A^T - X = -Q, SciPy's bilinear method.
Var solveDiscreteLyapunov(Var a, Var q);
Var blockDiag(const std::vector<Var>& matrices);
/// pt.linalg.kron: the lower-rank input padded with leading dims.
Var kron(Var a, Var b);

} // namespace linalg

// The BLAS ops of compiled graphs, for building them by hand.
Var gemv(Var y, Var alpha, Var a, Var x, Var beta, bool inplace = false);
Var ger(Var a, Var alpha, Var x, Var y, bool destructive = false);
Var gemm(Var z, Var a, Var x, Var y, Var b, bool inplace = false);
Var dot22(Var x, Var y);
Var dot22Scalar(Var x, Var y, Var a);
Var batchedDot(Var x, Var y);

} // namespace tl
