"""Spectral features and tensor systems as models write them: the power spectrum of a batch of
signals by pt.fft.rfft (default, 'ortho' and 'no_norm' scaling), a low-pass filter applied in
frequency space and transformed back by pt.fft.irfft (even and odd lengths), a 2-d transform,
the gradient of a spectral loss through both transforms; numpy's tensorinv and tensorsolve on a
reshaped operator (PyTensor has no gradient for them); and cpu_contiguous of a transpose."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.tensor import fft
from pytensor.tensor.extra_ops import cpu_contiguous
from pytensor.tensor.nlinalg import tensorinv, tensorsolve

x = pt.matrix("x", shape=(3, 8))
y = pt.matrix("y", shape=(2, 7))
img = pt.tensor3("img", shape=(2, 4, 6))
cutoff = pt.vector("cutoff", shape=(5,))
A = pt.tensor3("A", shape=(6, 2, 3))
b = pt.vector("b", shape=(6,))

spec = fft.rfft(x)                                   # (3, 5, 2)
power = (spec ** 2).sum(axis=-1)
ortho = fft.rfft(y, norm="ortho")                    # (2, 4, 2)
filtered = fft.irfft(spec * cutoff[None, :, None])   # even length 8
odd_back = fft.irfft(fft.rfft(y, norm="no_norm"), norm="no_norm", is_odd=True)
spec2 = fft.rfft(img)                                # transforms the last two axes
loss = (power * pt.linspace(1.0, 0.2, 5)).sum() + (filtered ** 2).sum()
g_x, g_cut = pytensor.grad(loss, [x, cutoff])
g_y = pytensor.grad((fft.irfft(ortho, norm="ortho", is_odd=True) * y).sum(), y)

op_inv = tensorinv(A, ind=1)                         # (2, 3, 6)
sol = tensorsolve(A, b)                              # (2, 3)
check = pt.tensordot(A, sol, axes=2)
contig = cpu_contiguous(x.T) * 2.0

inputs = [x, y, img, cutoff, A, b]
outputs = [spec, power, ortho, filtered, odd_back, spec2, g_x, g_cut, g_y, op_inv, sol, check, contig]
rng = np.random.default_rng(2718)
values = {
    "x": rng.normal(size=(3, 8)),
    "y": rng.normal(size=(2, 7)),
    "img": rng.normal(size=(2, 4, 6)),
    "cutoff": np.array([1.0, 1.0, 0.8, 0.3, 0.0]),
    "A": rng.normal(size=(6, 2, 3)) + 3 * np.eye(6).reshape(6, 2, 3),
    "b": rng.normal(size=6),
}
