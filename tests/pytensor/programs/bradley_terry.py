"""A Bradley-Terry / Elo model of pairwise matches: team strengths with a sum-to-zero constraint
(subtracting the mean), home advantage, win probabilities from log_sigmoid of differences gathered by
two int index vectors, draws handled by an ordered-logit threshold, a ranking by argsort descending,
per-team win counts by inc_subtensor, and the gradient in the strengths (scatter-add with repeated
indices)."""
import numpy as np
import pytensor
import pytensor.tensor as pt

T, G = 7, 40
home = pt.vector("home", shape=(G,), dtype="int64")
away = pt.vector("away", shape=(G,), dtype="int64")
result = pt.vector("result", shape=(G,), dtype="int8")  # 1 home win, 0 draw, -1 away win
s_raw = pt.vector("s_raw", shape=(T,))
adv = pt.scalar("adv")
log_c = pt.scalar("log_c")

s = s_raw - s_raw.mean()
c = pt.exp(log_c)
d = s[home] - s[away] + adv
lp_home = (-pt.softplus(-(d - c)))
lp_away = (-pt.softplus(-(-d - c)))
lp_draw = pt.log(pt.sigmoid(d + c) - pt.sigmoid(d - c))
ll = pt.sum(pt.switch(pt.eq(result, 1), lp_home, pt.switch(pt.eq(result, -1), lp_away, lp_draw)))
lp = ll - 0.5 * pt.sum(s_raw ** 2)
ranking = pt.argsort(-s)
wins = pt.zeros((T,), dtype="int64")[home].inc(pt.eq(result, 1)) + pt.zeros((T,), dtype="int64")[away].inc(pt.eq(result, -1))
grads = pytensor.grad(lp, [s_raw, adv, log_c])

inputs = [home, away, result, s_raw, adv, log_c]
outputs = [lp, ranking, wins, *grads]

rng = np.random.default_rng(43)
_h = rng.integers(0, T, size=G)
_a = (_h + rng.integers(1, T, size=G)) % T
_true = np.linspace(-1, 1, T)
_d = _true[_h] - _true[_a] + 0.3
_u = rng.uniform(size=G)
_p_home = 1 / (1 + np.exp(-(_d - 0.5)))
_p_away = 1 / (1 + np.exp(_d + 0.5))
_res = np.where(_u < _p_home, 1, np.where(_u > 1 - _p_away, -1, 0)).astype("int8")
values = {"home": _h, "away": _a, "result": _res, "s_raw": rng.normal(size=T) * 0.3, "adv": 0.2,
          "log_c": np.log(0.4)}
