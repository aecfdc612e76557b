"""Signal operations of time-series models: 1-D convolution (full and valid), padding modes and
a moving average."""
import numpy as np
import pytensor.tensor as pt
from pytensor.tensor.signal import convolve1d

x = pt.vector("x", shape=(20,))
kernel = pt.vector("kernel", shape=(5,))
M = pt.matrix("M", shape=(3, 4))

outputs = [
    convolve1d(x, kernel, mode="full"), convolve1d(x, kernel, mode="valid"),
    pt.pad(M, 1, mode="constant", constant_values=0.5), pt.pad(M, ((0, 0), (2, 1)), mode="edge"),
    pt.pad(x, 3, mode="reflect"), pt.pad(M, 1, mode="wrap"),
    convolve1d(x, pt.ones(4) / 4, mode="valid"),
]
inputs = [x, kernel, M]

rng = np.random.default_rng(51)
values = {"x": np.cumsum(rng.normal(size=20)), "kernel": np.array([0.1, 0.2, 0.4, 0.2, 0.1]),
          "M": rng.normal(size=(3, 4))}
