"""A state-space model as pymc-extras builds it: an AR(2) plus level in companion form, the initial
covariance from solve_discrete_lyapunov, a Kalman filter in scan with a Cholesky-based innovation
log-density (cholesky, solve_triangular, log of the diagonal), and the gradient of the total
log-likelihood in the AR coefficients and log noise scales through the scan."""
import numpy as np
import pytensor
import pytensor.tensor as pt

T = 20
ys = pt.vector("ys", shape=(T,))
rho = pt.vector("rho", shape=(2,))
log_q = pt.scalar("log_q")
log_r = pt.scalar("log_r")

Tm = pt.stack([pt.stack([rho[0], rho[1]]), pt.as_tensor(np.array([1.0, 0.0]))])  # (2, 2)
Qm = pt.zeros((2, 2))[0, 0].set(pt.exp(2 * log_q))
Z = pt.as_tensor(np.array([[1.0, 0.0]]))
H = pt.exp(2 * log_r).reshape((1, 1))
P0 = pt.linalg.solve_discrete_lyapunov(Tm, Qm)
a0 = pt.zeros(2)


def kf(y, a, P, Tm, Qm, Z, H):
    v = y[None] - Z @ a
    F = Z @ P @ Z.T + H
    Lf = pt.linalg.cholesky(F)
    w = pt.linalg.solve_triangular(Lf, v, lower=True)
    K = P @ Z.T @ pt.linalg.inv(F)
    a_upd = a + K @ v
    P_upd = P - K @ Z @ P
    ll = -0.5 * pt.sum(w ** 2) - pt.sum(pt.log(pt.diagonal(Lf))) - 0.5 * np.log(2 * np.pi)
    return Tm @ a_upd, Tm @ P_upd @ Tm.T + Qm, ll


(a_s, P_s, lls), _ = pytensor.scan(kf, sequences=ys, outputs_info=[a0, P0, None], non_sequences=[Tm, Qm, Z, H])
total = lls.sum()
grads = pytensor.grad(total, [rho, log_q, log_r])

inputs = [ys, rho, log_q, log_r]
outputs = [total, P0, a_s[-1], *grads]

rng = np.random.default_rng(67)
_x = np.zeros(T + 2)
for i in range(2, T + 2):
    _x[i] = 0.6 * _x[i - 1] + 0.2 * _x[i - 2] + rng.normal() * 0.5
values = {"ys": _x[2:] + rng.normal(size=T) * 0.3, "rho": np.array([0.5, 0.25]), "log_q": np.log(0.5),
          "log_r": np.log(0.3)}
