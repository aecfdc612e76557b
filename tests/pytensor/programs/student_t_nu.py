"""Robust (Student-t) linear regression where the degrees of freedom are learned: the log-likelihood,
its gradient in log(nu) (digamma) and the second derivative in log(nu) (trigamma), as a Laplace
approximation of nu's posterior would use them."""
import numpy as np
import pytensor
import pytensor.tensor as pt

N = 35
X = pt.matrix("X", shape=(N, 2))
y = pt.vector("y", shape=(N,))
w = pt.vector("w", shape=(2,))
log_nu = pt.scalar("log_nu")
log_s = pt.scalar("log_s")

nu = pt.exp(log_nu)
s = pt.exp(log_s)
r = (y - X @ w) / s
ll = pt.sum(pt.gammaln((nu + 1) / 2) - pt.gammaln(nu / 2) - 0.5 * pt.log(nu * np.pi) - log_s
            - (nu + 1) / 2 * pt.log1p(r ** 2 / nu))
lp = ll - nu / 10.0 + log_nu  # Exponential(0.1) prior on nu with the log Jacobian
g_nu, g_w, g_s = pytensor.grad(lp, [log_nu, w, log_s])
h_nu = pytensor.grad(g_nu, log_nu)
weights = (nu + 1) / (nu + r ** 2)  # IRLS weights

inputs = [X, y, w, log_nu, log_s]
outputs = [lp, g_nu, g_w, g_s, h_nu, weights]

rng = np.random.default_rng(11)
_X = np.column_stack([np.ones(N), rng.normal(size=N)])
values = {"X": _X, "y": _X @ [0.5, -1.0] + rng.standard_t(3, size=N) * 0.5, "w": np.array([0.4, -0.9]),
          "log_nu": np.log(4.0), "log_s": np.log(0.5)}
# PyTensor C psi / tri_gamma are ~1e-10 off scipy; the sums cancel, so the gradient is 1e-8 off
reference_rtol = {1: 1e-7, 4: 1e-7}
