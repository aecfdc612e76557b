"""Matrix functions: expm of a rate matrix (a continuous-time Markov chain), norms, block_diag,
matrix_dot, outer products and a Lyapunov solve."""
import numpy as np
import pytensor.tensor as pt

Qraw = pt.matrix("Qraw", shape=(3, 3))
t = pt.scalar("t")
A = pt.matrix("A", shape=(3, 3))
v = pt.vector("v", shape=(3,))

off = pt.exp(Qraw) * (1 - pt.eye(3))
Q = off - pt.diag(off.sum(axis=1))
P = pt.linalg.expm(Q * t)
outputs = [
    P, P.sum(axis=1), pt.linalg.norm(A), pt.linalg.norm(v, ord=1), pt.linalg.norm(A, ord="nuc"),
    pt.linalg.block_diag(A, pt.eye(2)), pt.linalg.matrix_dot(A, A.T, A),
    pt.linalg.solve_discrete_lyapunov(0.5 * A, pt.eye(3)),
]
inputs = [Qraw, t, A, v]

rng = np.random.default_rng(52)
values = {"Qraw": rng.normal(size=(3, 3)) * 0.3, "t": np.array(0.7), "A": rng.normal(size=(3, 3)),
          "v": rng.normal(size=3)}
