"""Multi-head self-attention as a transformer layer writes it: reshapes from pt.shape, dimshuffles
into heads, batched matmuls, a causal mask with triu and where(-inf), softmax over the last axis,
layer norm, and the gradients in the weights."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.tensor.special import softmax

X = pt.tensor3("X", shape=(2, 5, 8))       # batch, time, model dim
Wq = pt.matrix("Wq", shape=(8, 8))
Wk = pt.matrix("Wk", shape=(8, 8))
Wv = pt.matrix("Wv", shape=(8, 8))
Wo = pt.matrix("Wo", shape=(8, 8))
gamma = pt.vector("gamma", shape=(8,))

B, T, D = X.shape[0], X.shape[1], X.shape[2]
H = 2


def heads(Z):
    return Z.reshape((B, T, H, D // H)).dimshuffle(0, 2, 1, 3)


q, k, v = heads(X @ Wq), heads(X @ Wk), heads(X @ Wv)
scores = q @ k.swapaxes(-1, -2) / pt.sqrt(pt.cast(D // H, "float64"))
causal = pt.triu(pt.ones((T, T)), k=1).astype("bool")
scores = pt.where(causal, -np.inf, scores)
att = softmax(scores, axis=-1)
ctx = (att @ v).dimshuffle(0, 2, 1, 3).reshape((B, T, D)) @ Wo
res = X + ctx
mean = res.mean(axis=-1, keepdims=True)
var = res.var(axis=-1, keepdims=True)
out = gamma * (res - mean) / pt.sqrt(var + 1e-5)
loss = (out ** 2).mean() + (out[:, -1] * X[:, 0]).sum()
grads = pytensor.grad(loss, [Wq, Wk, Wv, Wo, gamma, X])

inputs = [X, Wq, Wk, Wv, Wo, gamma]
outputs = [att, out, loss, *grads]

rng = np.random.default_rng(119)
values = {"X": rng.normal(size=(2, 5, 8)), **{n: rng.normal(size=(8, 8)) * 0.3 for n in ("Wq", "Wk", "Wv", "Wo")},
          "gamma": np.ones(8) + 0.1 * rng.normal(size=8)}
