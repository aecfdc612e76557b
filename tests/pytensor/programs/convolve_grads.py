"""1-D convolutions as a distributed-lag (adstock) model uses them: convolve1d in 'full', 'valid' and
'same' modes, batched over channels (Blockwise), with a geometric decay kernel, and the gradients in
the series and the decay rate."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.tensor.signal import convolve1d

x = pt.matrix("x", shape=(3, 12))
alpha = pt.scalar("alpha")
k = pt.vector("k", shape=(4,))

kern = alpha ** pt.arange(5)
full = convolve1d(x, kern, mode="full")
valid = convolve1d(x, kern, mode="valid")
same = convolve1d(x[0], k, mode="same")
same_even = convolve1d(x[1], k[:4], mode="same")
loss = (full ** 2).sum() + valid.sum() + (same * same_even).sum()
g = pytensor.grad(loss, [x, alpha, k])
inputs = [x, alpha, k]
outputs = [full, valid, same, same_even, loss, *g]
rng = np.random.default_rng(323)
values = {"x": rng.uniform(size=(3, 12)), "alpha": np.array(0.6), "k": np.array([0.5, 1.0, -0.3, 0.2])}
