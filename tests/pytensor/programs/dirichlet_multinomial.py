"""A Dirichlet-multinomial model on the simplex: softmax-centred logits, the log-pmf from gammaln
sums, and the gradient in the unconstrained parameters."""
import numpy as np
import pytensor
import pytensor.tensor as pt

counts = pt.matrix("counts", shape=(12, 4))
z = pt.vector("z", shape=(3,))
log_conc = pt.scalar("log_conc")

logits = pt.concatenate([z, -z.sum(keepdims=True)])
p = pt.special.softmax(logits)
alpha = pt.exp(log_conc) * p
n = counts.sum(axis=1)
logpmf = (pt.gammaln(n + 1) + pt.gammaln(alpha.sum()) - pt.gammaln(n + alpha.sum())
          + pt.sum(pt.gammaln(counts + alpha) - pt.gammaln(alpha) - pt.gammaln(counts + 1), axis=1))
total = logpmf.sum() + pt.sum(pt.special.log_softmax(logits))
grads = pytensor.grad(total, [z, log_conc])

inputs = [counts, z, log_conc]
outputs = [total, logpmf, p, *grads]

# PyTensor's C code computes psi (the gradient of gammaln) by a short asymptotic series with
# 10-digit coefficients (AS 103), which agrees with scipy (and with tensorlens, which matches
# scipy to 1e-15) to about 1e-10 relative: the gradients are compared with that tolerance.
reference_rtol = {3: 1e-8, 4: 1e-8}

rng = np.random.default_rng(49)
values = {"counts": rng.multinomial(20, [0.1, 0.2, 0.3, 0.4], size=12).astype("float64"),
          "z": np.array([0.1, -0.2, 0.3]), "log_conc": np.array(1.5)}
