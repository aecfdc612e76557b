"""Reference values of the linear-algebra and BLAS kernels, computed by NumPy and SciPy
(run with ../shared/pytensor/python.sh, which has both):

    ../shared/pytensor/python.sh tests/data/make_linalg_reference.py > tests/data/linalg_reference.json

tests/engine/tst_linalg_*.cpp read the JSON: each case has named input arrays and the
arrays NumPy/SciPy return for them. Eigenvectors and singular vectors are fixed only up
to sign, so the tests compare the values and the reconstructions for those."""
import json
import sys

import numpy as np
import scipy.linalg as sla

from reference_arrays import arr  # beside this script

rng = np.random.default_rng(20240611)


cases = {}


def case(name, inputs, outputs, **params):
    cases[name] = {"inputs": {k: arr(v) for k, v in inputs.items()}, "outputs": [arr(o) for o in outputs],
                   "params": params}


n = 4
A = rng.normal(size=(n, n)) + 3 * np.eye(n)
G = rng.normal(size=(n, n))
S = G @ G.T + n * np.eye(n)           # symmetric positive definite
Sym = G + G.T                          # symmetric indefinite
Lo = np.tril(rng.normal(size=(n, n))) + 2 * np.eye(n)
Up = np.triu(rng.normal(size=(n, n))) + 2 * np.eye(n)
b = rng.normal(size=n)
B = rng.normal(size=(n, 2))
M = rng.normal(size=(5, 3))
W = rng.normal(size=(3, 5))
Tri = np.diag(rng.normal(size=n) + 4) + np.diag(rng.normal(size=n - 1), 1) + np.diag(rng.normal(size=n - 1), -1)
Band = Tri + np.diag(rng.normal(size=n - 2), 2)

# numpy.linalg
case("inv", {"a": A}, [np.linalg.inv(A)])
case("det", {"a": A}, [np.linalg.det(A)])
case("slogdet", {"a": A}, list(np.linalg.slogdet(A)))
sing = np.array([[1.0, 2.0], [2.0, 4.0]])
case("det_singular", {"a": sing}, [np.linalg.det(sing)])
case("slogdet_singular", {"a": sing}, list(np.linalg.slogdet(sing)))
w, v = np.linalg.eigh(Sym)
case("eigh", {"a": Sym}, [w, v])
case("eigh_upper", {"a": np.triu(Sym)}, list(np.linalg.eigh(np.triu(Sym), "U")))
for name, x in (("svd_tall", M), ("svd_wide", W)):
    u, s, vt = np.linalg.svd(x, full_matrices=False)
    case(name, {"a": x}, [u, s, vt])
    U, s2, VT = np.linalg.svd(x, full_matrices=True)
    case(name + "_full", {"a": x}, [U, s2, VT])
case("pinv_tall", {"a": M}, [np.linalg.pinv(M)])
case("pinv_wide", {"a": W}, [np.linalg.pinv(W)])
case("pinv_hermitian", {"a": Sym}, [np.linalg.pinv(Sym, hermitian=True)])
rankdef = np.outer(rng.normal(size=4), rng.normal(size=3))
case("pinv_rank_deficient", {"a": rankdef}, [np.linalg.pinv(rankdef)])
x, res, rank, sv = np.linalg.lstsq(M, rng.normal(size=5), rcond=-1)
case("lstsq", {"a": M, "b": M @ np.array([1.0, -2.0, 0.5]) + 0.1 * np.arange(5)},
     list(np.linalg.lstsq(M, M @ np.array([1.0, -2.0, 0.5]) + 0.1 * np.arange(5), rcond=-1)))

# scipy.linalg
case("solve_gen_vec", {"a": A, "b": b}, [sla.solve(A, b)])
case("solve_gen_mat", {"a": A, "b": B}, [sla.solve(A, B)])
case("solve_sym", {"a": Sym, "b": b}, [sla.solve(Sym, b, assume_a="sym")])
case("solve_sym_lower", {"a": np.tril(Sym), "b": b}, [sla.solve(np.tril(Sym), b, assume_a="sym", lower=True)])
case("solve_pos", {"a": S, "b": B}, [sla.solve(S, B, assume_a="pos")])
case("solve_pos_lower", {"a": np.tril(S), "b": B}, [sla.solve(np.tril(S), B, assume_a="pos", lower=True)])
case("solve_tridiagonal", {"a": Tri, "b": B}, [np.linalg.solve(Tri, B)])
case("solve_banded", {"a": Band, "b": b}, [np.linalg.solve(Band, b)])
case("solve_triangular_lower", {"a": Lo, "b": b}, [sla.solve_triangular(Lo, b, lower=True)])
case("solve_triangular_upper", {"a": Up, "b": B}, [sla.solve_triangular(Up, B, lower=False)])
case("solve_triangular_unit", {"a": Lo, "b": B}, [sla.solve_triangular(Lo, B, lower=True, unit_diagonal=True)])
case("cholesky_lower", {"a": S}, [sla.cholesky(S, lower=True)])
case("cholesky_upper", {"a": S}, [sla.cholesky(S, lower=False)])
c = sla.cholesky(S, lower=True)
case("cho_solve", {"c": c, "b": B}, [sla.cho_solve((c, True), B)])
P, L, U = sla.lu(A)
case("lu", {"a": A}, [P, L, U])
PL, U2 = sla.lu(A, permute_l=True)
case("lu_permute_l", {"a": A}, [PL, U2])
lu, piv = sla.lu_factor(A)
case("lu_factor", {"a": A}, [lu, piv.astype(np.int32)])
perm = np.arange(n)
for i, p in enumerate(piv):
    perm[i], perm[p] = perm[p], perm[i]
case("pivot_to_permutations", {"p": piv.astype(np.int32)}, [perm, np.argsort(perm)])
for mode in ("full", "economic", "r"):
    for name, x in (("tall", M), ("wide", W)):
        r = sla.qr(x, mode=mode)
        case(f"qr_{mode}_{name}", {"a": x}, list(r) if isinstance(r, tuple) else [r])
q, r, p = sla.qr(M, pivoting=True)
case("qr_full_pivoting", {"a": M}, [q, r, p.astype(np.int32)])
(h, tau), r = sla.qr(M, mode="raw")
case("qr_raw", {"a": M}, [h, tau, r])
case("eigvalsh", {"a": Sym}, [sla.eigvalsh(Sym)])
case("eigvalsh_generalized", {"a": Sym, "b": S}, [sla.eigvalsh(Sym, S)])
for name, x in (("expm_small", 0.01 * A), ("expm_medium", 0.4 * A), ("expm_large", 3.0 * A),
                ("expm_rate", np.array([[-0.5, 0.3, 0.2], [0.1, -0.4, 0.3], [0.25, 0.25, -0.5]]) * 2.7)):
    case(name, {"a": x}, [sla.expm(x)])
Q = S / 10
case("lyapunov", {"a": 0.5 * A / np.abs(np.linalg.eigvals(A)).max(), "q": Q},
     [sla.solve_discrete_lyapunov(0.5 * A / np.abs(np.linalg.eigvals(A)).max(), Q, method="bilinear")])
case("continuous_lyapunov", {"a": A - 2 * np.eye(len(A)), "q": Q}, [sla.solve_continuous_lyapunov(A - 2 * np.eye(len(A)), Q)])
case("block_diag", {"a": M, "b": A}, [sla.block_diag(M, A)])
case("kron", {"a": W, "b": A}, [np.kron(W, A)])
T3a, T3b = rng.normal(size=(2, 2, 3)), rng.normal(size=(2, 3, 2))
case("kron3", {"a": T3a, "b": T3b}, [np.kron(T3a, T3b)])

# BLAS shapes
alpha, beta = 0.7, -1.3
y = rng.normal(size=5)
xv = rng.normal(size=3)
case("gemv", {"y": y, "a": M, "x": xv}, [beta * y + alpha * (M @ xv)], alpha=alpha, beta=beta)
Z = rng.normal(size=(5, 4))
case("gemm", {"z": Z, "x": M, "y": rng.normal(size=(3, 4))}, [], alpha=alpha, beta=beta)
cases["gemm"]["outputs"] = [arr(beta * Z + alpha * (M @ np.array(cases["gemm"]["inputs"]["y"]["data"]).reshape(3, 4)))]
case("ger", {"a": M, "x": rng.normal(size=5), "y": xv}, [], alpha=alpha)
gx = np.array(cases["ger"]["inputs"]["x"]["data"])
cases["ger"]["outputs"] = [arr(M + alpha * np.outer(gx, xv))]

# numpy.linalg.tensorinv / tensorsolve
T4 = rng.normal(size=(2, 3, 6)) + 2 * np.eye(6).reshape(2, 3, 6)
case("tensorinv", {"a": T4}, [np.linalg.tensorinv(T4, ind=2)], ind=2)
T5 = rng.normal(size=(6, 2, 3)) + 3 * np.eye(6).reshape(6, 2, 3)
rhs = rng.normal(size=6)
case("tensorsolve", {"a": T5, "b": rhs}, [np.linalg.tensorsolve(T5, rhs)])
T6 = rng.normal(size=(2, 6, 3)) + 3 * np.eye(6).reshape(6, 2, 3).transpose(1, 0, 2)
case("tensorsolve_axes", {"a": T6, "b": rhs}, [np.linalg.tensorsolve(T6, rhs, axes=(0,))], axes=[0])
# scipy.linalg.solve_discrete_are: a 3-state, 2-input system; one whose pencil SciPy balances
Ad = rng.normal(size=(3, 3)) * 0.6
Bd = rng.normal(size=(3, 2))
Qd = np.eye(3) + 0.1 * (lambda g: g @ g.T)(rng.normal(size=(3, 3)))
Rd = np.array([[2.0, 0.3], [0.3, 1.0]])
case("dare", {"a": Ad, "b": Bd, "q": Qd, "r": Rd}, [sla.solve_discrete_are(Ad, Bd, Qd, Rd)])
Ab = np.array([[1e3, 2.0], [0.0, 0.5]])
Bb = np.array([[1.0], [1e-3]])
Qb = np.diag([1e-4, 1e4])
Rb = np.array([[3.0]])
case("dare_balanced", {"a": Ab, "b": Bb, "q": Qb, "r": Rb}, [sla.solve_discrete_are(Ab, Bb, Qb, Rb)])

json.dump({"generated_by": "tests/data/make_linalg_reference.py", "numpy": np.__version__,
           "scipy": __import__("scipy").__version__, "cases": cases}, sys.stdout, indent=None, allow_nan=False)
print()
