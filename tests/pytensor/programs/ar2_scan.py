"""An AR(2) process: one-step predictions over the data and a free-running forecast (scan, mit_sot taps)."""
import numpy as np
import pytensor
import pytensor.tensor as pt

y = pt.vector("y", shape=(40,))
phi1 = pt.scalar("phi1")
phi2 = pt.scalar("phi2")
c = pt.scalar("c")
sigma = pt.scalar("sigma")

preds, _ = pytensor.scan(lambda y_tm1, y_tm2: c + phi1 * y_tm1 + phi2 * y_tm2,
                         sequences=[dict(input=y, taps=[-1, -2])])
resid = y[2:] - preds
loglike = pt.sum(-0.5 * (resid / sigma) ** 2 - pt.log(sigma) - 0.5 * np.log(2 * np.pi))

forecast, _ = pytensor.scan(lambda y_tm2, y_tm1: c + phi1 * y_tm1 + phi2 * y_tm2,
                            outputs_info=[dict(initial=y[-2:], taps=[-2, -1])], n_steps=10)

inputs = [y, phi1, phi2, c, sigma]
outputs = [loglike, preds, forecast]

rng = np.random.default_rng(24)
_y = np.zeros(40)
for t in range(2, 40):
    _y[t] = 0.2 + 0.6 * _y[t - 1] - 0.2 * _y[t - 2] + rng.normal() * 0.3
values = {"y": _y, "phi1": np.array(0.55), "phi2": np.array(-0.15), "c": np.array(0.25), "sigma": np.array(0.3)}
