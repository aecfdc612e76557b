"""PyMC's check_parameters: a log-density guarded by CheckAndRaise with a custom exception class
(ParameterValueError) on the joined parameter conditions, and pytensor.raise_op.assert_op with
several conditions; the checks pass for the given values. Also its gradient."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.raise_op import CheckAndRaise, assert_op


class ParameterValueError(ValueError):
    pass


x = pt.vector("x", shape=(10,))
mu = pt.scalar("mu")
sigma = pt.scalar("sigma")
nu = pt.scalar("nu")

logp = -0.5 * ((x - mu) / sigma) ** 2 - pt.log(sigma) - 0.5 * np.log(2 * np.pi)
cond = pt.all(pt.gt(sigma, 0)) & pt.all(pt.gt(nu, 0))
checked = CheckAndRaise(ParameterValueError, "sigma > 0, nu > 0")(logp, cond)
asserted = assert_op(pt.log(nu) * x, pt.gt(nu, 0), pt.all(pt.isfinite(x)) if hasattr(pt, "isfinite") else pt.all(~pt.isnan(x)))
total = checked.sum() + asserted.sum()
g = pytensor.grad(total, [mu, sigma, nu])

inputs = [x, mu, sigma, nu]
outputs = [checked, asserted, total, *g]
rng = np.random.default_rng(303)
values = {"x": rng.normal(size=10), "mu": np.array(0.3), "sigma": np.array(1.7), "nu": np.array(4.0)}
