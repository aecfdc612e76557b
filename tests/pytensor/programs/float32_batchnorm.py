"""A float32 network layer as trained on a GPU-minded config: batch normalisation with keepdims
mean/var over the batch, a learned scale and shift, GELU (tanh form) and sigmoid-gated residual,
dropout applied from a given float32 mask, a float32 MSE loss with an L2 penalty using an int32
count cast to float32, and the gradients in all float32 parameters."""
import numpy as np
import pytensor
import pytensor.tensor as pt

B, D = 16, 6
x = pt.matrix("x", shape=(B, D), dtype="float32")
target = pt.matrix("target", shape=(B, D), dtype="float32")
mask = pt.matrix("mask", shape=(B, D), dtype="float32")
gamma = pt.vector("gamma", shape=(D,), dtype="float32")
beta = pt.vector("beta", shape=(D,), dtype="float32")
W = pt.matrix("W", shape=(D, D), dtype="float32")
n_params = pt.scalar("n_params", dtype="int32")

eps = np.float32(1e-5)
mean = pt.mean(x, axis=0, keepdims=True)
var = pt.var(x, axis=0, keepdims=True)
xh = (x - mean) / pt.sqrt(var + eps)
bn = gamma * xh + beta
c = np.float32(np.sqrt(2 / np.pi))
gelu = np.float32(0.5) * bn * (np.float32(1) + pt.tanh(c * (bn + np.float32(0.044715) * bn ** 3)))
h = gelu @ W
gate = pt.sigmoid(h)
out = (gate * h + (np.float32(1) - gate) * x) * mask / np.float32(0.8)
l2 = (pt.sum(W ** 2) + pt.sum(gamma ** 2)) / pt.cast(n_params, "float32")
loss = pt.mean((out - target) ** 2) + np.float32(0.01) * l2
grads = pytensor.grad(loss, [gamma, beta, W])

inputs = [x, target, mask, gamma, beta, W, n_params]
outputs = [loss, out, var.squeeze(), *grads]

rng = np.random.default_rng(31)
f32 = np.float32
values = {"x": (rng.normal(size=(B, D)) * 2 + 1).astype(f32), "target": rng.normal(size=(B, D)).astype(f32),
          "mask": (rng.uniform(size=(B, D)) > 0.2).astype(f32), "gamma": np.ones(D, f32) + f32(0.1),
          "beta": np.full(D, 0.05, f32), "W": (rng.normal(size=(D, D)) * 0.4).astype(f32),
          "n_params": np.int32(D * D + D)}
