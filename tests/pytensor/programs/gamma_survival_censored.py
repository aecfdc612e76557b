"""Right-censored survival regressions: a Gamma model whose censored rows contribute
log Q(k, t/theta) (gammaincc), a Weibull model with log S = -(t/lam)^k and interval-censored rows
through log1mexp, and the gradients in the log shape (through gammaincc's derivative in k) and the
regression weights."""
import numpy as np
import pytensor
import pytensor.tensor as pt

N = 24
t = pt.vector("t", shape=(N,))
event = pt.vector("event", shape=(N,))
x = pt.vector("x", shape=(N,))
log_k = pt.scalar("log_k")
b = pt.vector("b", shape=(2,))

k = pt.exp(log_k)
theta = pt.exp(b[0] + b[1] * x)
z = t / theta
logpdf = (k - 1) * pt.log(t) - z - pt.gammaln(k) - k * pt.log(theta)
logsf = pt.log(pt.gammaincc(k, z))
ll_gamma = pt.sum(pt.switch(pt.eq(event, 1), logpdf, logsf))

lam = pt.exp(b[0] + b[1] * x)
wz = (t / lam) ** k
w_logpdf = log_k - pt.log(lam) + (k - 1) * pt.log(t / lam) - wz
w_logsf = -wz
# interval [t, 1.5 t]: log(S(t) - S(1.5 t)) = -wz + log1mexp(-(wz2 - wz))
wz2 = (1.5 * t / lam) ** k
w_interval = -wz + pt.log1mexp(-(wz2 - wz))
ll_weib = pt.sum(pt.switch(pt.eq(event, 1), w_logpdf, pt.switch(pt.eq(event, 0), w_logsf, w_interval)))

g_gamma = pytensor.grad(ll_gamma, [log_k, b])
g_weib = pytensor.grad(ll_weib, [log_k, b])

inputs = [t, event, x, log_k, b]
outputs = [ll_gamma, ll_weib, *g_gamma, *g_weib, logsf]

rng = np.random.default_rng(3)
_x = rng.normal(size=N) * 0.5
_t = rng.gamma(2.0, np.exp(0.3 + 0.4 * _x))
_ev = rng.choice([0.0, 1.0, 2.0], size=N, p=[0.3, 0.5, 0.2])
_ev[:3] = [0.0, 1.0, 2.0]
values = {"t": _t, "event": _ev, "x": _x, "log_k": np.log(1.7), "b": np.array([0.2, 0.3])}
# PyTensor's derivative of gammaincc in k is a series it sums to its own tolerance
reference_rtol = {2: 1e-9, 3: 1e-9}
