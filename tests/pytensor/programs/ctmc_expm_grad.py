"""A continuous-time Markov chain likelihood as phylogenetics and multi-state survival models use it:
a 4-state rate matrix from exp(log rates) off the diagonal with minus the diagonal of the row sums,
transition matrices expm(Q t) for several branch lengths, the log-likelihood of observed transitions
gathered by two index vectors, the stationary distribution from a least-squares solve, and the gradient
in the log rates (through Expm's gradient)."""
import numpy as np
import pytensor
import pytensor.tensor as pt

S, Nt = 4, 18
log_rates = pt.vector("log_rates", shape=(S * (S - 1),))
branch = pt.vector("branch", shape=(3,))
frm = pt.vector("frm", shape=(Nt,), dtype="int64")
to = pt.vector("to", shape=(Nt,), dtype="int64")
which = pt.vector("which", shape=(Nt,), dtype="int64")

off = ~np.eye(S, dtype=bool)
rows, cols = np.nonzero(off)
Q0 = pt.zeros((S, S))[rows, cols].set(pt.exp(log_rates))
Q = Q0 - pt.diag(pt.sum(Q0, axis=1))
Ps = [pt.linalg.expm(Q * branch[i]) for i in range(3)]
P = pt.stack(Ps)  # (3, S, S)
ll = pt.sum(pt.log(P[which, frm, to]))
A = pt.concatenate([Q.T, pt.ones((1, S))], axis=0)
bvec = pt.concatenate([pt.zeros(S), pt.ones(1)])
pi = pt.linalg.solve(A.T @ A, A.T @ bvec, assume_a="pos")
g = pytensor.grad(ll, log_rates)

inputs = [log_rates, branch, frm, to, which]
outputs = [ll, P, pi, g]

rng = np.random.default_rng(61)
values = {"log_rates": rng.normal(size=S * (S - 1)) * 0.3 - 0.5, "branch": np.array([0.3, 1.0, 2.5]),
          "frm": rng.integers(0, S, size=Nt), "to": rng.integers(0, S, size=Nt), "which": rng.integers(0, 3, size=Nt)}
reference_rtol = {3: 1e-10}
