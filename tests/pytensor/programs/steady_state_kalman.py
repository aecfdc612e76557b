"""A state-space model's steady-state Kalman filter, as statespace libraries set it up: the
stationary predicted-state covariance P from pt.linalg.solve_discrete_are on the transposed system
(A^T, C^T, process noise, observation noise), the steady-state gain, the log-likelihood of a short
series filtered with that fixed gain, and its gradient in the transition, observation and noise
parameters (PyTensor's gradient of the Riccati solve goes through a discrete Lyapunov solve). A
second, batched Riccati solve with enforce_Q_symmetric over two systems."""
import numpy as np
import pytensor
import pytensor.tensor as pt

rho = pt.vector("rho", shape=(2,))
coupling = pt.scalar("coupling")
log_sigma = pt.vector("log_sigma", shape=(2,))
log_tau = pt.scalar("log_tau")
C = pt.matrix("C", shape=(1, 2))
ys = pt.vector("ys", shape=(6,))
As = pt.tensor3("As", shape=(2, 2, 2))
Qs = pt.tensor3("Qs", shape=(2, 2, 2))
Bs = pt.tensor3("Bs", shape=(2, 2, 1))
Rs = pt.tensor3("Rs", shape=(2, 1, 1))

A = pt.stack([pt.stack([rho[0], coupling]), pt.stack([pt.constant(0.0), rho[1]])])
Q = pt.diag(pt.exp(2 * log_sigma))
H = pt.exp(2 * log_tau).reshape((1, 1))
P = pt.linalg.solve_discrete_are(A.T, C.T, Q, H)
S = C @ P @ C.T + H
K = P @ C.T @ pt.linalg.inv(S)

x = pt.zeros(2)
loglik = 0.0
for t in range(6):
    err = ys[t] - (C @ x)[0]
    loglik = loglik - 0.5 * (pt.log(2 * np.pi * S[0, 0]) + err ** 2 / S[0, 0])
    x = A @ (x + K[:, 0] * err)
grads = pytensor.grad(loglik, [rho, coupling, log_sigma, log_tau, C])

Ps = pt.linalg.solve_discrete_are(As, Bs, Qs, Rs, enforce_Q_symmetric=True)

inputs = [rho, coupling, log_sigma, log_tau, C, ys, As, Qs, Bs, Rs]
outputs = [P, K, loglik, *grads, Ps]
rng = np.random.default_rng(5150)
values = {
    "rho": np.array([0.8, 0.4]), "coupling": np.array(0.3), "log_sigma": np.array([-0.5, 0.2]),
    "log_tau": np.array(-0.3), "C": np.array([[1.0, 0.5]]), "ys": rng.normal(size=6),
    "As": np.array([[[0.9, 0.1], [0.0, 0.5]], [[0.3, -0.2], [0.4, 0.7]]]),
    "Qs": np.array([[[1.0, 0.2], [0.0, 2.0]], [[0.5, 0.0], [0.1, 0.5]]]),
    "Bs": np.ones((2, 2, 1)), "Rs": np.array([[[1.0]], [[2.0]]]),
}
