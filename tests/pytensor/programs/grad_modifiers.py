"""Gradient modifiers as training code and PyMC's helpers use them: zero_grad, disconnected_grad,
grad_clip and grad_scale, their forward values (identities) and the gradients they shape."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.gradient import disconnected_grad, grad_clip, grad_scale, zero_grad

x = pt.vector("x", shape=(5,))
w = pt.vector("w", shape=(5,))

baseline = zero_grad((x * w).mean())
stop = disconnected_grad(w ** 2)
clipped = grad_clip(x * w, -0.5, 0.5)
scaled = grad_scale(pt.sin(x), 0.1)
const = disconnected_grad(pt.exp(w))
loss = ((x * w - baseline) ** 2).sum() + (stop * x).sum() + (clipped ** 3).sum() + (scaled * w).sum() + (const * x).sum()
gx, gw = pytensor.grad(loss, [x, w])

inputs = [x, w]
outputs = [baseline, stop, clipped, scaled, const, loss, gx, gw]
rng = np.random.default_rng(302)
values = {"x": rng.normal(size=5), "w": rng.normal(size=5)}
