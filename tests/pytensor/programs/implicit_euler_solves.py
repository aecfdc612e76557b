"""Implicit Euler steps of a linear ODE and a smoother with a fixed positive definite
matrix: solves inside a loop whose matrices depend only on non-sequences, with the
gradient, whose loop solves with the transposed matrix."""
import numpy as np
import pytensor
import pytensor.tensor as pt

fs = pt.matrix("fs", shape=(12, 3))
A = pt.matrix("A", shape=(3, 3))
K = pt.matrix("K", shape=(3, 3))
x0 = pt.vector("x0", shape=(3,))
dt = 0.1


def step(f, x, A, K):
    M = pt.eye(3) - dt * A
    x_new = pt.linalg.solve(M, x + dt * f)
    w = pt.linalg.solve(K @ K.T + 3.0 * pt.eye(3), f, assume_a="pos")
    return x_new, w


(xs, ws), _ = pytensor.scan(step, sequences=fs, outputs_info=[x0, None], non_sequences=[A, K])
loss = (xs ** 2).sum() + ws.sum()

inputs = [fs, A, K, x0]
outputs = [xs, ws, pt.grad(loss, A)]

rng = np.random.default_rng(23)
values = {
    "fs": rng.normal(size=(12, 3)),
    "A": rng.normal(size=(3, 3)) * 0.5,
    "K": rng.normal(size=(3, 3)),
    "x0": rng.normal(size=3),
}
