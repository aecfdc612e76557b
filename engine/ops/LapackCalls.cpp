// LAPACKE `_work` calls for float and double (see LapackCalls.h). Work arrays live
// in the caller's Workspace, slots 6 and 7 (and integer slots 2 and 3), so the
// buffers an op keeps its matrices in (slots 0-5, integer slots 0-1) survive.
#include "ops/LapackCalls.h"

#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

namespace tl::lapack {

namespace {
constexpr int L = LAPACK_COL_MAJOR;
template <typename T> constexpr bool kFloat = std::is_same_v<T, float>;
// LAPACK returns the optimal work size as a float; round up and keep at least `minimum`.
template <typename T> int workSize(T query, int minimum) { return std::max(minimum, static_cast<int>(query) + 1); }
} // namespace

template <typename T> int getrf(int m, int n, T* a, int lda, int* ipiv) {
    if constexpr (kFloat<T>) return LAPACKE_sgetrf_work(L, m, n, a, lda, ipiv);
    else return LAPACKE_dgetrf_work(L, m, n, a, lda, ipiv);
}

template <typename T> int getrs(char trans, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb) {
    if constexpr (kFloat<T>) return LAPACKE_sgetrs_work(L, trans, n, nrhs, a, lda, ipiv, b, ldb);
    else return LAPACKE_dgetrs_work(L, trans, n, nrhs, a, lda, ipiv, b, ldb);
}

template <typename T> int potrf(char uplo, int n, T* a, int lda) {
    if constexpr (kFloat<T>) return LAPACKE_spotrf_work(L, uplo, n, a, lda);
    else return LAPACKE_dpotrf_work(L, uplo, n, a, lda);
}

template <typename T> int potrs(char uplo, int n, int nrhs, const T* a, int lda, T* b, int ldb) {
    if constexpr (kFloat<T>) return LAPACKE_spotrs_work(L, uplo, n, nrhs, a, lda, b, ldb);
    else return LAPACKE_dpotrs_work(L, uplo, n, nrhs, a, lda, b, ldb);
}

template <typename T> int trtrs(char uplo, char trans, char diag, int n, int nrhs, const T* a, int lda, T* b, int ldb) {
    if constexpr (kFloat<T>) return LAPACKE_strtrs_work(L, uplo, trans, diag, n, nrhs, a, lda, b, ldb);
    else return LAPACKE_dtrtrs_work(L, uplo, trans, diag, n, nrhs, a, lda, b, ldb);
}

template <typename T> int gtsv(int n, int nrhs, T* dl, T* d, T* du, T* b, int ldb) {
    if constexpr (kFloat<T>) return LAPACKE_sgtsv_work(L, n, nrhs, dl, d, du, b, ldb);
    else return LAPACKE_dgtsv_work(L, n, nrhs, dl, d, du, b, ldb);
}

template <typename T> int gbsv(int n, int kl, int ku, int nrhs, T* ab, int ldab, int* ipiv, T* b, int ldb) {
    if constexpr (kFloat<T>) return LAPACKE_sgbsv_work(L, n, kl, ku, nrhs, ab, ldab, ipiv, b, ldb);
    else return LAPACKE_dgbsv_work(L, n, kl, ku, nrhs, ab, ldab, ipiv, b, ldb);
}

template <typename T> int trsyl(char transa, char transb, int isgn, int m, int n, const T* a, int lda, const T* b, int ldb, T* c, int ldc, T* scale) {
    if constexpr (kFloat<T>) return LAPACKE_strsyl_work(L, transa, transb, isgn, m, n, a, lda, b, ldb, c, ldc, scale);
    else return LAPACKE_dtrsyl_work(L, transa, transb, isgn, m, n, a, lda, b, ldb, c, ldc, scale);
}

template <typename T> int getri(int n, T* a, int lda, const int* ipiv, Workspace& ws) {
    T query = 0;
    int info;
    if constexpr (kFloat<T>) info = LAPACKE_sgetri_work(L, n, a, lda, ipiv, &query, -1);
    else info = LAPACKE_dgetri_work(L, n, a, lda, ipiv, &query, -1);
    if (info != 0) return info;
    const int lwork = workSize(query, std::max(1, n));
    if constexpr (kFloat<T>) return LAPACKE_sgetri_work(L, n, a, lda, ipiv, ws.get<T>(6, static_cast<size_t>(lwork)), lwork);
    else return LAPACKE_dgetri_work(L, n, a, lda, ipiv, ws.get<T>(6, static_cast<size_t>(lwork)), lwork);
}

template <typename T> int sysv(char uplo, int n, int nrhs, T* a, int lda, int* ipiv, T* b, int ldb, Workspace& ws) {
    T query = 0;
    int info;
    if constexpr (kFloat<T>) info = LAPACKE_ssysv_work(L, uplo, n, nrhs, a, lda, ipiv, b, ldb, &query, -1);
    else info = LAPACKE_dsysv_work(L, uplo, n, nrhs, a, lda, ipiv, b, ldb, &query, -1);
    if (info != 0) return info;
    const int lwork = workSize(query, 1);
    if constexpr (kFloat<T>) return LAPACKE_ssysv_work(L, uplo, n, nrhs, a, lda, ipiv, b, ldb, ws.get<T>(6, static_cast<size_t>(lwork)), lwork);
    else return LAPACKE_dsysv_work(L, uplo, n, nrhs, a, lda, ipiv, b, ldb, ws.get<T>(6, static_cast<size_t>(lwork)), lwork);
}

template <typename T> int geqrf(int m, int n, T* a, int lda, T* tau, Workspace& ws) {
    T query = 0;
    int info;
    if constexpr (kFloat<T>) info = LAPACKE_sgeqrf_work(L, m, n, a, lda, tau, &query, -1);
    else info = LAPACKE_dgeqrf_work(L, m, n, a, lda, tau, &query, -1);
    if (info != 0) return info;
    const int lwork = workSize(query, std::max(1, n));
    if constexpr (kFloat<T>) return LAPACKE_sgeqrf_work(L, m, n, a, lda, tau, ws.get<T>(6, static_cast<size_t>(lwork)), lwork);
    else return LAPACKE_dgeqrf_work(L, m, n, a, lda, tau, ws.get<T>(6, static_cast<size_t>(lwork)), lwork);
}

template <typename T> int geqp3(int m, int n, T* a, int lda, int* jpvt, T* tau, Workspace& ws) {
    T query = 0;
    int info;
    if constexpr (kFloat<T>) info = LAPACKE_sgeqp3_work(L, m, n, a, lda, jpvt, tau, &query, -1);
    else info = LAPACKE_dgeqp3_work(L, m, n, a, lda, jpvt, tau, &query, -1);
    if (info != 0) return info;
    const int lwork = workSize(query, 3 * n + 1);
    if constexpr (kFloat<T>) return LAPACKE_sgeqp3_work(L, m, n, a, lda, jpvt, tau, ws.get<T>(6, static_cast<size_t>(lwork)), lwork);
    else return LAPACKE_dgeqp3_work(L, m, n, a, lda, jpvt, tau, ws.get<T>(6, static_cast<size_t>(lwork)), lwork);
}

template <typename T> int orgqr(int m, int n, int k, T* a, int lda, const T* tau, Workspace& ws) {
    T query = 0;
    int info;
    if constexpr (kFloat<T>) info = LAPACKE_sorgqr_work(L, m, n, k, a, lda, tau, &query, -1);
    else info = LAPACKE_dorgqr_work(L, m, n, k, a, lda, tau, &query, -1);
    if (info != 0) return info;
    const int lwork = workSize(query, std::max(1, n));
    if constexpr (kFloat<T>) return LAPACKE_sorgqr_work(L, m, n, k, a, lda, tau, ws.get<T>(6, static_cast<size_t>(lwork)), lwork);
    else return LAPACKE_dorgqr_work(L, m, n, k, a, lda, tau, ws.get<T>(6, static_cast<size_t>(lwork)), lwork);
}

template <typename T> int syevd(char jobz, char uplo, int n, T* a, int lda, T* w, Workspace& ws) {
    T query = 0;
    int iquery = 0, info;
    if constexpr (kFloat<T>) info = LAPACKE_ssyevd_work(L, jobz, uplo, n, a, lda, w, &query, -1, &iquery, -1);
    else info = LAPACKE_dsyevd_work(L, jobz, uplo, n, a, lda, w, &query, -1, &iquery, -1);
    if (info != 0) return info;
    const int lwork = workSize(query, 1), liwork = std::max(1, iquery);
    if constexpr (kFloat<T>) return LAPACKE_ssyevd_work(L, jobz, uplo, n, a, lda, w, ws.get<T>(6, static_cast<size_t>(lwork)), lwork, ws.ints(2, static_cast<size_t>(liwork)), liwork);
    else return LAPACKE_dsyevd_work(L, jobz, uplo, n, a, lda, w, ws.get<T>(6, static_cast<size_t>(lwork)), lwork, ws.ints(2, static_cast<size_t>(liwork)), liwork);
}

template <typename T> int sygvd(char jobz, char uplo, int n, T* a, int lda, T* b, int ldb, T* w, Workspace& ws) {
    T query = 0;
    int iquery = 0, info;
    if constexpr (kFloat<T>) info = LAPACKE_ssygvd_work(L, 1, jobz, uplo, n, a, lda, b, ldb, w, &query, -1, &iquery, -1);
    else info = LAPACKE_dsygvd_work(L, 1, jobz, uplo, n, a, lda, b, ldb, w, &query, -1, &iquery, -1);
    if (info != 0) return info;
    const int lwork = workSize(query, 1), liwork = std::max(1, iquery);
    if constexpr (kFloat<T>) return LAPACKE_ssygvd_work(L, 1, jobz, uplo, n, a, lda, b, ldb, w, ws.get<T>(6, static_cast<size_t>(lwork)), lwork, ws.ints(2, static_cast<size_t>(liwork)), liwork);
    else return LAPACKE_dsygvd_work(L, 1, jobz, uplo, n, a, lda, b, ldb, w, ws.get<T>(6, static_cast<size_t>(lwork)), lwork, ws.ints(2, static_cast<size_t>(liwork)), liwork);
}

template <typename T>
int gesdd(char jobz, int m, int n, T* a, int lda, T* s, T* u, int ldu, T* vt, int ldvt, Workspace& ws) {
    T query = 0;
    int* iwork = ws.ints(2, static_cast<size_t>(8 * std::max(1, std::min(m, n))));
    int info;
    if constexpr (kFloat<T>) info = LAPACKE_sgesdd_work(L, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, &query, -1, iwork);
    else info = LAPACKE_dgesdd_work(L, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, &query, -1, iwork);
    if (info != 0) return info;
    const int lwork = workSize(query, 1);
    T* work = ws.get<T>(6, static_cast<size_t>(lwork));
    if constexpr (kFloat<T>) return LAPACKE_sgesdd_work(L, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork);
    else return LAPACKE_dgesdd_work(L, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork);
}

template <typename T>
int gelsd(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, T rcond, int* rank, Workspace& ws) {
    T query = 0;
    int iquery = 0, info;
    if constexpr (kFloat<T>) info = LAPACKE_sgelsd_work(L, m, n, nrhs, a, lda, b, ldb, s, rcond, rank, &query, -1, &iquery);
    else info = LAPACKE_dgelsd_work(L, m, n, nrhs, a, lda, b, ldb, s, rcond, rank, &query, -1, &iquery);
    if (info != 0) return info;
    const int lwork = workSize(query, 1), liwork = std::max(1, iquery);
    T* work = ws.get<T>(6, static_cast<size_t>(lwork));
    int* iwork = ws.ints(2, static_cast<size_t>(liwork));
    if constexpr (kFloat<T>) return LAPACKE_sgelsd_work(L, m, n, nrhs, a, lda, b, ldb, s, rcond, rank, work, lwork, iwork);
    else return LAPACKE_dgelsd_work(L, m, n, nrhs, a, lda, b, ldb, s, rcond, rank, work, lwork, iwork);
}

template <typename T> int gees(int n, T* a, int lda, T* wr, T* wi, T* z, int ldz, Workspace& ws) {
    T query = 0;
    int sdim = 0, info;
    if constexpr (kFloat<T>) info = LAPACKE_sgees_work(L, 'V', 'N', nullptr, n, a, lda, &sdim, wr, wi, z, ldz, &query, -1, nullptr);
    else info = LAPACKE_dgees_work(L, 'V', 'N', nullptr, n, a, lda, &sdim, wr, wi, z, ldz, &query, -1, nullptr);
    if (info != 0) return info;
    const int lwork = workSize(query, std::max(1, 3 * n));
    T* work = ws.get<T>(6, static_cast<size_t>(lwork));
    if constexpr (kFloat<T>) return LAPACKE_sgees_work(L, 'V', 'N', nullptr, n, a, lda, &sdim, wr, wi, z, ldz, work, lwork, nullptr);
    else return LAPACKE_dgees_work(L, 'V', 'N', nullptr, n, a, lda, &sdim, wr, wi, z, ldz, work, lwork, nullptr);
}

namespace {
// LAPACK's selctg for gges: alpha = (alphar + i alphai) inside the unit circle of beta,
// false for beta == 0 (an infinite eigenvalue), as SciPy's _iuc.
template <typename T> lapack_logical insideUnitCircle(const T* alphar, const T* alphai, const T* beta) {
    if (*beta == 0) return 0;
    return std::hypot(*alphar, *alphai) < std::fabs(*beta);
}
} // namespace

template <typename T>
int ggesInsideUnitCircle(int n, T* a, int lda, T* b, int ldb, int* sdim, T* vsl, int ldvsl, T* vsr, int ldvsr, Workspace& ws) {
    // The eigenvalues are not kept, so they live here rather than in the op's slots.
    std::vector<T> eig(3 * static_cast<size_t>(std::max(n, 1)));
    T *alphar = eig.data(), *alphai = alphar + std::max(n, 1), *beta = alphai + std::max(n, 1);
    std::vector<lapack_logical> bwork(static_cast<size_t>(std::max(n, 1)));
    T query = 0;
    int info;
    if constexpr (kFloat<T>)
        info = LAPACKE_sgges_work(L, 'V', 'V', 'S', insideUnitCircle<float>, n, a, lda, b, ldb, sdim, alphar, alphai, beta, vsl,
                                  ldvsl, vsr, ldvsr, &query, -1, bwork.data());
    else
        info = LAPACKE_dgges_work(L, 'V', 'V', 'S', insideUnitCircle<double>, n, a, lda, b, ldb, sdim, alphar, alphai, beta, vsl,
                                  ldvsl, vsr, ldvsr, &query, -1, bwork.data());
    if (info != 0) return info;
    const int lwork = workSize(query, std::max(1, 8 * n + 16));
    T* work = ws.get<T>(6, static_cast<size_t>(lwork));
    if constexpr (kFloat<T>)
        return LAPACKE_sgges_work(L, 'V', 'V', 'S', insideUnitCircle<float>, n, a, lda, b, ldb, sdim, alphar, alphai, beta, vsl,
                                  ldvsl, vsr, ldvsr, work, lwork, bwork.data());
    else
        return LAPACKE_dgges_work(L, 'V', 'V', 'S', insideUnitCircle<double>, n, a, lda, b, ldb, sdim, alphar, alphai, beta, vsl,
                                  ldvsl, vsr, ldvsr, work, lwork, bwork.data());
}

template <typename T> int gebalScale(int n, T* a, int lda, T* scale) {
    int ilo = 0, ihi = 0;
    if constexpr (kFloat<T>) return LAPACKE_sgebal_work(L, 'S', n, a, lda, &ilo, &ihi, scale);
    else return LAPACKE_dgebal_work(L, 'S', n, a, lda, &ilo, &ihi, scale);
}

// Both precisions of every routine.
template int getrf<float>(int, int, float*, int, int*);
template int getri<float>(int, float*, int, const int*, Workspace&);
template int getrs<float>(char, int, int, const float*, int, const int*, float*, int);
template int potrf<float>(char, int, float*, int);
template int potrs<float>(char, int, int, const float*, int, float*, int);
template int sysv<float>(char, int, int, float*, int, int*, float*, int, Workspace&);
template int trtrs<float>(char, char, char, int, int, const float*, int, float*, int);
template int gtsv<float>(int, int, float*, float*, float*, float*, int);
template int gbsv<float>(int, int, int, int, float*, int, int*, float*, int);
template int geqrf<float>(int, int, float*, int, float*, Workspace&);
template int geqp3<float>(int, int, float*, int, int*, float*, Workspace&);
template int orgqr<float>(int, int, int, float*, int, const float*, Workspace&);
template int syevd<float>(char, char, int, float*, int, float*, Workspace&);
template int sygvd<float>(char, char, int, float*, int, float*, int, float*, Workspace&);
template int gesdd<float>(char, int, int, float*, int, float*, float*, int, float*, int, Workspace&);
template int gelsd<float>(int, int, int, float*, int, float*, int, float*, float, int*, Workspace&);
template int gees<float>(int, float*, int, float*, float*, float*, int, Workspace&);
template int ggesInsideUnitCircle<float>(int, float*, int, float*, int, int*, float*, int, float*, int, Workspace&);
template int gebalScale<float>(int, float*, int, float*);
template int trsyl<float>(char, char, int, int, int, const float*, int, const float*, int, float*, int, float*);
template int getrf<double>(int, int, double*, int, int*);
template int getri<double>(int, double*, int, const int*, Workspace&);
template int getrs<double>(char, int, int, const double*, int, const int*, double*, int);
template int potrf<double>(char, int, double*, int);
template int potrs<double>(char, int, int, const double*, int, double*, int);
template int sysv<double>(char, int, int, double*, int, int*, double*, int, Workspace&);
template int trtrs<double>(char, char, char, int, int, const double*, int, double*, int);
template int gtsv<double>(int, int, double*, double*, double*, double*, int);
template int gbsv<double>(int, int, int, int, double*, int, int*, double*, int);
template int geqrf<double>(int, int, double*, int, double*, Workspace&);
template int geqp3<double>(int, int, double*, int, int*, double*, Workspace&);
template int orgqr<double>(int, int, int, double*, int, const double*, Workspace&);
template int syevd<double>(char, char, int, double*, int, double*, Workspace&);
template int sygvd<double>(char, char, int, double*, int, double*, int, double*, Workspace&);
template int gesdd<double>(char, int, int, double*, int, double*, double*, int, double*, int, Workspace&);
template int gelsd<double>(int, int, int, double*, int, double*, int, double*, double, int*, Workspace&);
template int gees<double>(int, double*, int, double*, double*, double*, int, Workspace&);
template int ggesInsideUnitCircle<double>(int, double*, int, double*, int, int*, double*, int, double*, int, Workspace&);
template int gebalScale<double>(int, double*, int, double*);
template int trsyl<double>(char, char, int, int, int, const double*, int, const double*, int, double*, int, double*);

} // namespace tl::lapack
