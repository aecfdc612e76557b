"""Ordered logistic regression: sorted cutpoints, category probabilities by differences, integer outcomes."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pt.vector("x", shape=(30,))
outcome = pt.vector("outcome", shape=(30,), dtype="int64")
beta = pt.scalar("beta")
raw_cuts = pt.vector("raw_cuts", shape=(3,))

cuts = pt.concatenate([raw_cuts[:1], raw_cuts[0] + pt.cumsum(pt.exp(raw_cuts[1:]))])
eta = beta * x
cdf = pt.sigmoid(cuts[None, :] - eta[:, None])
padded = pt.concatenate([pt.zeros((30, 1)), cdf, pt.ones((30, 1))], axis=1)
probs = padded[:, 1:] - padded[:, :-1]
ll = pt.sum(pt.log(probs[pt.arange(30), outcome]))
grads = pytensor.grad(ll, [beta, raw_cuts])

inputs = [x, outcome, beta, raw_cuts]
outputs = [ll, probs, cuts, *grads]

rng = np.random.default_rng(47)
_x = rng.normal(size=30)
values = {"x": _x, "outcome": np.digitize(1.2 * _x + rng.logistic(size=30), [-1.0, 0.0, 1.2]),
          "beta": np.array(1.0), "raw_cuts": np.array([-1.0, 0.0, 0.2])}
