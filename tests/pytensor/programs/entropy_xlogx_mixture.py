"""Entropies and mixture log-likelihoods with exact zeros: xlogx and xlogy0 at 0, KL divergence,
a zero-inflated negative binomial through logaddexp/log1mexp/log1pexp, logsumexp with keepdims
along axis 0, and the gradients in the unconstrained parameters."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.tensor.xlogx import xlogx, xlogy0

p = pt.vector("p", shape=(6,))
q = pt.vector("q", shape=(6,))
k = pt.vector("k", shape=(12,))
logit_psi = pt.scalar("logit_psi")
log_mu = pt.scalar("log_mu")
log_alpha = pt.scalar("log_alpha")
Lw = pt.matrix("Lw", shape=(3, 12))

ent = -xlogx(p).sum()
kl = (xlogy0(p, p) - xlogy0(p, q)).sum()
psi = pt.sigmoid(logit_psi)
mu, alpha = pt.exp(log_mu), pt.exp(log_alpha)
nb = (pt.gammaln(k + alpha) - pt.gammaln(alpha) - pt.gammaln(k + 1)
      + alpha * (log_alpha - pt.log(alpha + mu)) + k * (log_mu - pt.log(alpha + mu)))
log_psi, log_1m_psi = -pt.log1pexp(-logit_psi), -pt.log1pexp(logit_psi)
zinb = pt.switch(pt.eq(k, 0), pt.logaddexp(log_1m_psi, log_psi + nb), log_psi + nb)
hurdle = pt.switch(pt.eq(k, 0), log_1m_psi, log_psi + nb - pt.log1mexp(alpha * (log_alpha - pt.log(alpha + mu))))
mix = pt.logsumexp(Lw + pt.log(pt.special.softmax(Lw.sum(axis=1)))[:, None], axis=0, keepdims=True)
total = zinb.sum() + hurdle.sum() + mix.sum()
grads = pytensor.grad(total, [logit_psi, log_mu, log_alpha, Lw])
gp = pytensor.grad(ent + kl, p)

inputs = [p, q, k, logit_psi, log_mu, log_alpha, Lw]
outputs = [ent, kl, xlogx(p), zinb, hurdle, mix, total, *grads, gp]
reference_rtol = {i: 1e-8 for i in (7, 8, 9, 10)}

rng = np.random.default_rng(118)
values = {"p": np.array([0.0, 0.1, 0.2, 0.0, 0.3, 0.4]), "q": np.array([0.1, 0.1, 0.3, 0.2, 0.2, 0.1]),
          "k": np.array([0, 0, 3, 1, 0, 7, 2, 0, 0, 5, 1, 12], dtype="float64"),
          "logit_psi": np.array(0.3), "log_mu": np.array(1.1), "log_alpha": np.array(0.2),
          "Lw": rng.normal(size=(3, 12))}
