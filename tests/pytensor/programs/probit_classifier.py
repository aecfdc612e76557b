"""A probit classifier: Bernoulli log-likelihood through the normal CDF (erf), predictions and gradient."""
import numpy as np
import pytensor
import pytensor.tensor as pt

X = pt.matrix("X", shape=(45, 3))
y = pt.vector("y", shape=(45,), dtype="int8")
beta = pt.vector("beta", shape=(3,))

eta = pt.dot(X, beta)
p = 0.5 * (1 + pt.erf(eta / pt.sqrt(2.0)))
p = pt.clip(p, 1e-12, 1 - 1e-12)
ll = pt.sum(pt.switch(pt.eq(y, 1), pt.log(p), pt.log1p(-p)))
pred = pt.cast(p > 0.5, "int8")
accuracy = pt.mean(pt.eq(pred, y))
g = pytensor.grad(ll, beta)

inputs = [X, y, beta]
outputs = [ll, pred, accuracy, g]

rng = np.random.default_rng(27)
_X = rng.normal(size=(45, 3))
values = {"X": _X, "y": (_X @ [1.0, -0.5, 0.25] + rng.normal(size=45) > 0).astype("int8"),
          "beta": np.array([0.5, -0.2, 0.1])}
