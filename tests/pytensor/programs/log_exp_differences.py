"""Log-space sums and differences as mixture and interval models write them:
logaddexp of two log-densities, log(exp(a) - exp(b)) of two log-CDFs (a censored
interval's probability), and logit(sigmoid(x)); PyTensor's stabilize keeps each
finite where the exps overflow or cancel."""
import numpy as np
import pytensor
import pytensor.tensor as pt

a = pt.vector("a", shape=(4,))
b = pt.vector("b", shape=(4,))
x = pt.vector("x", shape=(4,))

mix = pt.logaddexp(a, b)
interval = pt.log(pt.exp(a) - pt.exp(b))
inputs = [a, b, x]
outputs = [mix, interval, pytensor.grad(interval.sum(), a), pt.log(pt.sigmoid(x) / (1 - pt.sigmoid(x)))]
values = {"a": np.array([800.0, 1.0, -3.0, 0.0]), "b": np.array([799.0, 0.5, -30.0, -1e-9]), "x": np.array([-40.0, 0.3, 5.0, 30.0])}
