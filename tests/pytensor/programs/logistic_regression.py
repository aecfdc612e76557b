"""Logistic regression: the mean negative log-likelihood and its gradient."""
import numpy as np
import pytensor
import pytensor.tensor as pt

X = pt.matrix("X", shape=(60, 4))
y = pt.vector("y", shape=(60,))
w = pt.vector("w", shape=(4,))
b = pt.scalar("b")

logits = X @ w + b
p = pt.sigmoid(logits)
nll = -pt.mean(y * pt.log(p) + (1 - y) * pt.log1p(-p))
gw, gb = pytensor.grad(nll, [w, b])

inputs = [X, y, w, b]
outputs = [nll, gw, gb]

rng = np.random.default_rng(11)
_X = rng.normal(size=(60, 4))
values = {
    "X": _X,
    "y": (rng.uniform(size=60) < 1 / (1 + np.exp(-_X @ [1.0, -2.0, 0.5, 0.0]))).astype("float64"),
    "w": rng.normal(size=4) * 0.1,
    "b": np.array(0.3),
}
