"""Masked attention and masked softmax: rows with -inf logits (some rows entirely masked), softmax and
log_softmax along each axis, logsumexp with -inf entries and its gradient, max-with-keepdims
subtraction, and argmax of masked rows."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.tensor.special import log_softmax, softmax

S = pt.matrix("S", shape=(4, 5))
mask = pt.matrix("mask", shape=(4, 5), dtype="bool")

logits = pt.switch(mask, S, -np.inf)
att = softmax(logits, axis=-1)
lsm = log_softmax(logits, axis=-1)
lse = pt.logsumexp(logits, axis=-1)
safe = pt.switch(pt.isnan(att), 0.0, att)
g = pytensor.grad((safe * S).sum() + pt.switch(pt.isinf(lse), 0.0, lse).sum(), S)
inputs = [S, mask]
outputs = [att, lsm, lse, softmax(logits, axis=0), pt.argmax(logits, axis=-1), safe, g,
           pt.max(logits, axis=-1, keepdims=True), logits - pt.max(logits, axis=-1, keepdims=True)]
rng = np.random.default_rng(317)
values = {"S": rng.normal(size=(4, 5)), "mask": np.array([[1, 1, 0, 1, 0], [0, 0, 0, 0, 0], [1, 0, 0, 0, 0], [1, 1, 1, 1, 1]], dtype=bool)}
