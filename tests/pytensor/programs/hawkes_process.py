"""A univariate Hawkes process with an exponential kernel: the recursive excitation
A_i = exp(-beta (t_i - t_{i-1})) (1 + A_{i-1}) in a scan over inter-event gaps (sequence from a
diff), the log-intensities at the events, the compensator in closed form with expm1, the
log-likelihood and its gradient in the log parameters, and the branching ratio."""
import numpy as np
import pytensor
import pytensor.tensor as pt

N = 40
times = pt.vector("times", shape=(N,))
T_end = pt.scalar("T_end")
log_mu = pt.scalar("log_mu")
log_alpha = pt.scalar("log_alpha")
log_beta = pt.scalar("log_beta")

mu, alpha, beta = pt.exp(log_mu), pt.exp(log_alpha), pt.exp(log_beta)
gaps = pt.diff(times)


def rec(gap, A, beta):
    return pt.exp(-beta * gap) * (1 + A)


As, _ = pytensor.scan(rec, sequences=gaps, outputs_info=pt.zeros(()), non_sequences=beta)
A_all = pt.concatenate([pt.zeros(1), As])
log_lam = pt.log(mu + alpha * A_all)
comp = mu * T_end - alpha / beta * pt.sum(pt.expm1(-beta * (T_end - times)))
ll = pt.sum(log_lam) - comp
grads = pytensor.grad(ll, [log_mu, log_alpha, log_beta])

inputs = [times, T_end, log_mu, log_alpha, log_beta]
outputs = [ll, log_lam, comp, *grads, alpha / beta]

rng = np.random.default_rng(53)
_t = np.cumsum(rng.exponential(0.5, size=N))
values = {"times": _t, "T_end": _t[-1] + 0.3, "log_mu": np.log(1.0), "log_alpha": np.log(0.6),
          "log_beta": np.log(1.5)}
