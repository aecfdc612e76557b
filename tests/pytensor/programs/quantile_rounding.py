"""Quantiles, rounding and casts as preprocessing code does them: a linear-interpolation quantile
from sort with floor/ceil positions cast to int, round half to even and half away from zero on exact
halves, casts of negative floats to int (truncation), float mod and floor_div of negatives, sign and
abs, winsorising with clip at the quantiles, a pinball (quantile) loss with its subgradient, and
rounded-to-cents values."""
import numpy as np
import pytensor
import pytensor.tensor as pt

N = 21
x = pt.vector("x", shape=(N,))
halves = pt.vector("halves", shape=(8,))
q = pt.scalar("q")
pred = pt.scalar("pred")

xs = pt.sort(x)
pos = q * (N - 1)
lo = pt.floor(pos).astype("int64")
hi = pt.ceil(pos).astype("int64")
frac = pos - lo
quant = xs[lo] * (1 - frac) + xs[hi] * frac
q10, q90 = xs[2], xs[-3]
wins = pt.clip(x, q10, q90)
r_even = pt.round(halves)  # half to even
r_away = pt.round(halves, mode="half_away_from_zero")
trunc_int = halves.astype("int32")
fmod = pt.mod(halves, 1.5)
fdiv = pt.floor_div(halves, 1.5)
sg = pt.sign(halves) * pt.abs(halves)
err = x - pred
pinball = pt.mean(pt.maximum(q * err, (q - 1) * err))
g_pred, g_q = pytensor.grad(pinball, [pred, q])
cents = pt.round(x * 100) / 100
g_wins = pytensor.grad(pt.sum(wins ** 2), x)

inputs = [x, halves, q, pred]
outputs = [quant, wins, r_even, r_away, trunc_int, fmod, fdiv, sg, pinball, g_pred, g_q, cents, g_wins]

rng = np.random.default_rng(47)
values = {"x": rng.normal(size=N) * 3, "halves": np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -3.7, 4.2]),
          "q": 0.3, "pred": 0.25}
