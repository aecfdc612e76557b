#pragma once
// The LAPACK routines behind the linear-algebra ops, through LAPACKE's column-major
// `_work` interface (no NaN pre-check, no hidden allocation: the caller's Workspace
// holds the work arrays, queried once per call). T is float or double: float32
// inputs go to the s routines as SciPy does, everything else to the d routines.
// Each returns LAPACK's info (0 ok, > 0 a numerical failure the op explains, < 0 a
// bad argument, which is a bug here).
#include "ops/LinalgBuffers.h"

namespace tl::lapack {

using linalg::Workspace;

// ---- factorizations
/// LU with partial pivoting of the m x n matrix a (ld lda); ipiv 1-based (min(m, n)).
template <typename T> int getrf(int m, int n, T* a, int lda, int* ipiv);
/// Inverse from getrf's factors, in place.
template <typename T> int getri(int n, T* a, int lda, const int* ipiv, Workspace& ws);
/// Solves with getrf's factors: op(A) x = b, trans 'N' or 'T'; b (n x nrhs) overwritten.
template <typename T> int getrs(char trans, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb);
/// Cholesky factor of the uplo ('L' or 'U') triangle, in place (the other triangle untouched).
template <typename T> int potrf(char uplo, int n, T* a, int lda);
/// Solves with potrf's factor; b overwritten.
template <typename T> int potrs(char uplo, int n, int nrhs, const T* a, int lda, T* b, int ldb);
/// Symmetric indefinite solve (Bunch-Kaufman) of the uplo triangle; a and b overwritten.
template <typename T> int sysv(char uplo, int n, int nrhs, T* a, int lda, int* ipiv, T* b, int ldb, Workspace& ws);
/// Triangular solve op(A) x = b (uplo 'L'/'U', trans 'N'/'T', diag 'N'/'U'); info > 0: a zero on the diagonal.
template <typename T> int trtrs(char uplo, char trans, char diag, int n, int nrhs, const T* a, int lda, T* b, int ldb);
/// Tridiagonal solve: dl, d, du (n-1, n, n-1) and b overwritten.
template <typename T> int gtsv(int n, int nrhs, T* dl, T* d, T* du, T* b, int ldb);
/// Banded solve with kl sub- and ku super-diagonals in LAPACK's band storage ab (ldab >= 2kl+ku+1).
template <typename T> int gbsv(int n, int kl, int ku, int nrhs, T* ab, int ldab, int* ipiv, T* b, int ldb);

// ---- QR
/// Householder QR: a overwritten with R and the reflectors, tau (min(m, n)).
template <typename T> int geqrf(int m, int n, T* a, int lda, T* tau, Workspace& ws);
/// QR with column pivoting; jpvt (n, in/out, 1-based).
template <typename T> int geqp3(int m, int n, T* a, int lda, int* jpvt, T* tau, Workspace& ws);
/// The first n columns of Q (m x n) from k reflectors, in place.
template <typename T> int orgqr(int m, int n, int k, T* a, int lda, const T* tau, Workspace& ws);

// ---- spectral
/// Eigen-decomposition of a symmetric matrix (divide and conquer, NumPy's eigh):
/// w ascending; jobz 'V' leaves the eigenvectors in a, 'N' only the values.
template <typename T> int syevd(char jobz, char uplo, int n, T* a, int lda, T* w, Workspace& ws);
/// Generalized symmetric-definite problem A v = w B v (SciPy's default "gvd" driver); b overwritten.
template <typename T> int sygvd(char jobz, char uplo, int n, T* a, int lda, T* b, int ldb, T* w, Workspace& ws);
/// SVD by divide and conquer (NumPy's svd): jobz 'A' full, 'S' reduced, 'N' values only.
template <typename T> int gesdd(char jobz, int m, int n, T* a, int lda, T* s, T* u, int ldu, T* vt, int ldvt,
                                Workspace& ws);
/// Least squares by SVD (NumPy's lstsq): b (max(m, n) x nrhs) overwritten with the solution
/// in its first n rows; s the singular values; rank the effective rank under rcond.
template <typename T> int gelsd(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, T rcond, int* rank,
                                Workspace& ws);
/// Real Schur form a = z t z^T (t overwrites a), no sorting.
template <typename T> int gees(int n, T* a, int lda, T* wr, T* wi, T* z, int ldz, Workspace& ws);
/// Generalized real Schur form (QZ) of the pencil (a, b), the eigenvalues inside the unit
/// circle (|alpha / beta| < 1, SciPy's ordqz sort='iuc') ordered first; vsl, vsr the left
/// and right Schur vectors; sdim the number of those eigenvalues. a, b overwritten.
template <typename T> int ggesInsideUnitCircle(int n, T* a, int lda, T* b, int ldb, int* sdim, T* vsl, int ldvsl, T* vsr,
                                                int ldvsr, Workspace& ws);
/// Scaling of a (job 'S', no permutation) that balances its row and column norms; the
/// factors in scale (n). a overwritten with the balanced matrix.
template <typename T> int gebalScale(int n, T* a, int lda, T* scale);
/// Solves op(A) X + isgn X op(B) = scale C for quasi-triangular A, B (Schur forms); C overwritten.
template <typename T> int trsyl(char transa, char transb, int isgn, int m, int n, const T* a, int lda, const T* b,
                                int ldb, T* c, int ldc, T* scale);

} // namespace tl::lapack
