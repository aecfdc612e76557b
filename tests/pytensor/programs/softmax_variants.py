"""softmax and log_softmax along each axis, logsumexp, and the gradient of an attention-weighted sum."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.tensor.special import log_softmax, softmax

S = pt.matrix("S", shape=(4, 6))
V = pt.matrix("V", shape=(6, 3))
T = pt.tensor3("T", shape=(2, 3, 4))

attn = softmax(S, axis=-1)
context = attn @ V
outputs = [
    attn, softmax(S, axis=0), softmax(T, axis=1), softmax(S, axis=None), log_softmax(S, axis=1),
    log_softmax(T, axis=0), pt.logsumexp(S, axis=1, keepdims=True), context,
    pytensor.grad(context.sum(), S),
]
inputs = [S, V, T]

rng = np.random.default_rng(41)
values = {"S": rng.normal(size=(4, 6)) * 2, "V": rng.normal(size=(6, 3)), "T": rng.normal(size=(2, 3, 4))}
