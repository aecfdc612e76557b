"""A Kalman filter over observations (scan with linear algebra) and its log-likelihood."""
import numpy as np
import pytensor
import pytensor.tensor as pt

ys = pt.matrix("ys", shape=(15, 2))
A = pt.matrix("A", shape=(3, 3))
H = pt.matrix("H", shape=(2, 3))
Q = pt.matrix("Q", shape=(3, 3))
R = pt.matrix("R", shape=(2, 2))
x0 = pt.vector("x0", shape=(3,))
P0 = pt.matrix("P0", shape=(3, 3))


def kalman_step(y, x, P, A, H, Q, R):
    x_pred = A @ x
    P_pred = A @ P @ A.T + Q
    S = H @ P_pred @ H.T + R
    K = P_pred @ H.T @ pt.linalg.inv(S)
    innov = y - H @ x_pred
    x_new = x_pred + K @ innov
    P_new = (pt.eye(3) - K @ H) @ P_pred
    ll = -0.5 * (pt.log(pt.linalg.det(S)) + innov @ pt.linalg.solve(S, innov) + 2 * np.log(2 * np.pi))
    return x_new, P_new, ll


(xs, Ps, lls), _ = pytensor.scan(kalman_step, sequences=ys, outputs_info=[x0, P0, None],
                                 non_sequences=[A, H, Q, R])

inputs = [ys, A, H, Q, R, x0, P0]
outputs = [xs, lls.sum(), Ps[-1]]

rng = np.random.default_rng(15)
values = {
    "ys": np.cumsum(rng.normal(size=(15, 2)), axis=0),
    "A": np.array([[1.0, 0.1, 0.0], [0.0, 1.0, 0.1], [0.0, 0.0, 0.9]]),
    "H": np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]),
    "Q": np.eye(3) * 0.05,
    "R": np.eye(2) * 0.5,
    "x0": np.zeros(3),
    "P0": np.eye(3),
}
