"""Gradients through switches with a zero branch (PyTensor's local_mul_switch_sink and
local_div_switch_sink move the products and quotients inside them). The values stay
where both branches are finite: where one is inf or NaN, only the rewritten graph is 0
there, and every stage here is compared with PyTensor's compiled function."""
import numpy as np
import pytensor
import pytensor.tensor as pt

p = pt.vector("p", shape=(5,))
x = pt.vector("x", shape=(5,))

entropy = pt.switch(pt.eq(p, 0), 0.0, p * pt.log(p)).sum()
safe_sqrt = pt.switch(x > 0, pt.sqrt(x), 0.0).sum()
ratio = pt.switch(pt.eq(x, 0), 0.0, pt.log1p(x)) / x

inputs = [p, x]
outputs = [pytensor.grad(entropy, p), pytensor.grad(safe_sqrt, x), ratio]

values = {
    "p": np.array([0.05, 0.1, 0.2, 0.3, 0.35]),
    "x": np.array([0.25, 1.0, 0.5, 2.0, 4.0]),
}
