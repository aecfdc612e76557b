"""Linear-algebra utilities of a regression toolkit: lu_factor / lu_solve for several right-hand
sides, a symmetric solve (assume_a='sym') of an indefinite system, ridge regression by solve and its
gradient in the penalty, lstsq residuals, matrix norms (fro, nuc, 2, inf, 1) and vector norms
(1, inf, -inf), and the gradient of the Frobenius and nuclear norms."""
import numpy as np
import pytensor
import pytensor.tensor as pt

A = pt.matrix("A", shape=(4, 4))
B = pt.matrix("B", shape=(4, 2))
S = pt.matrix("S", shape=(3, 3))
X = pt.matrix("X", shape=(12, 3))
y = pt.vector("y", shape=(12,))
log_lam = pt.scalar("log_lam")

lu_piv = pt.linalg.lu_factor(A)
x_lu = pt.linalg.lu_solve(lu_piv, B)
Ssym = S + S.T
x_sym = pt.linalg.solve(Ssym, pt.ones(3), assume_a="sym")
lam = pt.exp(log_lam)
w_ridge = pt.linalg.solve(X.T @ X + lam * pt.eye(3), X.T @ y, assume_a="pos")
cv = pt.sum((y - X @ w_ridge) ** 2) + lam * pt.sum(w_ridge ** 2)
g_lam = pytensor.grad(cv, log_lam)
w_ls = pt.linalg.lstsq(X, y, rcond=-1)[0]
norms = pt.stack([pt.linalg.norm(A, "fro"), pt.linalg.norm(A, "nuc"), pt.linalg.norm(A, 2), pt.linalg.norm(A, np.inf),
                  pt.linalg.norm(A, 1), pt.linalg.norm(y, 1), pt.linalg.norm(y, np.inf), pt.linalg.norm(y, -np.inf)])
gA = pytensor.grad(pt.linalg.norm(A, "fro") + pt.linalg.norm(A, "nuc"), A)
g_lu = pytensor.grad(pt.sum(x_lu ** 2), A)

inputs = [A, B, S, X, y, log_lam]
outputs = [x_lu, x_sym, w_ridge, cv, g_lam, w_ls, norms, gA, g_lu]

rng = np.random.default_rng(101)
_X = rng.normal(size=(12, 3))
values = {"A": rng.normal(size=(4, 4)) + 2 * np.eye(4), "B": rng.normal(size=(4, 2)),
          "S": rng.normal(size=(3, 3)), "X": _X, "y": _X @ [1.0, 0.0, -1.0] + rng.normal(size=12) * 0.3,
          "log_lam": np.log(0.5)}
