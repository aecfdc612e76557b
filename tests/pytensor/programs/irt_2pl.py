"""A two-parameter item-response model with multidimensional abilities: responses as a (persons,
items) int8 matrix with missing entries coded -1, abilities and discriminations gathered with 2-D
integer index matrices, a dot product along the last axis, the log-likelihood masked by the observed
entries, item difficulties centred, and the gradient in abilities, log discriminations and
difficulties."""
import numpy as np
import pytensor
import pytensor.tensor as pt

P, I, D = 12, 8, 2
resp = pt.matrix("resp", shape=(P, I), dtype="int8")
theta = pt.matrix("theta", shape=(P, D))
log_a = pt.matrix("log_a", shape=(I, D))
b_raw = pt.vector("b_raw", shape=(I,))

pidx = pt.arange(P)[:, None] + pt.zeros((1, I), dtype="int64")
iidx = pt.arange(I)[None, :] + pt.zeros((P, 1), dtype="int64")
b = b_raw - b_raw.mean()
th = theta[pidx]          # (P, I, D)
a = pt.exp(log_a)[iidx]   # (P, I, D)
eta = pt.sum(th * a, axis=-1) - b[iidx]
observed = pt.neq(resp, -1)
y = pt.cast(pt.eq(resp, 1), "float64")
ll_mat = y * (-pt.softplus(-(eta))) + (1 - y) * (-pt.softplus(-(-eta)))
ll = pt.sum(pt.where(observed, ll_mat, 0.0))
lp = ll - 0.5 * pt.sum(theta ** 2) - 0.5 * pt.sum(log_a ** 2) - 0.5 * pt.sum(b_raw ** 2) / 4
n_obs = pt.sum(observed, axis=0)
p_correct = pt.sum(pt.where(observed, pt.sigmoid(eta), 0.0), axis=0) / n_obs
grads = pytensor.grad(lp, [theta, log_a, b_raw])

inputs = [resp, theta, log_a, b_raw]
outputs = [lp, n_obs, p_correct, *grads]

rng = np.random.default_rng(59)
_th = rng.normal(size=(P, D))
_eta = _th @ np.abs(rng.normal(size=(I, D))).T - rng.normal(size=I)
_r = (rng.uniform(size=(P, I)) < 1 / (1 + np.exp(-_eta))).astype("int8")
_r[rng.uniform(size=(P, I)) < 0.15] = -1
values = {"resp": _r, "theta": _th * 0.8, "log_a": rng.normal(size=(I, D)) * 0.2, "b_raw": rng.normal(size=I) * 0.5}
