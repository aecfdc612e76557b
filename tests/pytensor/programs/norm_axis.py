"""Row norms as a distance-based model takes them: pt.linalg.norm of a matrix along an axis (ord None,
2, 1, inf), with keepdims, on a 3-D stack along the last axis."""
import numpy as np
import pytensor
import pytensor.tensor as pt

X = pt.matrix("X", shape=(4, 3))
T = pt.tensor3("T", shape=(2, 3, 4))
rn = pt.linalg.norm(X, axis=1)
outputs = [rn, pt.linalg.norm(X, ord=2, axis=0), pt.linalg.norm(X, ord=1, axis=1), pt.linalg.norm(X, ord=np.inf, axis=1),
           pt.linalg.norm(T, axis=-1, keepdims=True)]  # (its gradient fails in PyTensor 2.34: Real.grad)
inputs = [X, T]
rng = np.random.default_rng(325)
values = {"X": rng.normal(size=(4, 3)), "T": rng.normal(size=(2, 3, 4))}
