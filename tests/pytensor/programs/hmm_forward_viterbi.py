"""A 3-state Gaussian hidden Markov model: the forward algorithm in log space (logsumexp over the
previous state inside scan), its gradient in the transition logits and emission means, and Viterbi
decoding (max/argmax per step as a float and an int64 nit_sot, then a backwards scan that follows
the back-pointers by integer indexing)."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.tensor.math import logsumexp

K, T = 3, 25
obs = pt.vector("obs", shape=(T,))
trans_logits = pt.matrix("trans_logits", shape=(K, K))
means = pt.vector("means", shape=(K,))
log_sd = pt.scalar("log_sd")
init_logits = pt.vector("init_logits", shape=(K,))

logA = pt.special.log_softmax(trans_logits, axis=1)
log_pi = pt.special.log_softmax(init_logits)
sd = pt.exp(log_sd)
logB = -0.5 * ((obs[:, None] - means[None, :]) / sd) ** 2 - log_sd - 0.5 * np.log(2 * np.pi)  # (T, K)


def fwd(lb, alpha_prev, logA):
    return logsumexp(alpha_prev[:, None] + logA, axis=0) + lb


alpha0 = log_pi + logB[0]
alphas, _ = pytensor.scan(fwd, sequences=logB[1:], outputs_info=alpha0, non_sequences=logA)
loglik = logsumexp(alphas[-1])
g_trans, g_means, g_sd = pytensor.grad(loglik, [trans_logits, means, log_sd])


def vit(lb, delta_prev, logA):
    scores = delta_prev[:, None] + logA  # (from, to)
    return pt.max(scores, axis=0) + lb, pt.argmax(scores, axis=0)


(deltas, backptr), _ = pytensor.scan(vit, sequences=logB[1:], outputs_info=[alpha0, None],
                                     non_sequences=logA)
last = pt.argmax(deltas[-1])


def back(bp, state):
    return bp[state]


path_rev, _ = pytensor.scan(back, sequences=backptr, outputs_info=last, go_backwards=True)
path = pt.concatenate([path_rev[::-1], last[None]])

inputs = [obs, trans_logits, means, log_sd, init_logits]
outputs = [loglik, g_trans, g_means, g_sd, path, pt.max(deltas[-1])]

rng = np.random.default_rng(7)
states = np.repeat([0, 2, 1, 2, 0], 5)
values = {"obs": np.array([-2.0, 0.0, 2.0])[states] + rng.normal(size=T) * 0.6,
          "trans_logits": np.eye(K) * 2.0 + rng.normal(size=(K, K)) * 0.1,
          "means": np.array([-1.8, 0.1, 1.9]), "log_sd": np.log(0.7),
          "init_logits": np.zeros(K)}
