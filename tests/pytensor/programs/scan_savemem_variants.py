"""Loops read through their traces in the ways scan_save_mem sizes buffers for: a
Fibonacci mit_sot read at its first rows and at [-3], a sit_sot strided every third
step and at its last, a nit_sot read only at its last row beside a full sit_sot, and
a state with taps -4 and -1 read at its last; n_steps constant throughout."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x0 = pt.vector("x0", shape=(2,))
a = pt.vector("a", shape=(3,))
w = pt.vector("w", shape=(3,))

fib = pytensor.scan(lambda f2, f1: f1 + f2 * 0.5, outputs_info=[dict(initial=pt.stack([x0, x0 + 1.0]), taps=[-2, -1])],
                    n_steps=9)[0]
xs = pytensor.scan(lambda s, w: pt.tanh(s * w + 0.1), outputs_info=[a], non_sequences=[w], n_steps=10)[0]
ys, zs = pytensor.scan(lambda s, w: [s * 0.9 + w, pt.sin(s)], outputs_info=[a, None], non_sequences=[w], n_steps=7)[0]
gap = pytensor.scan(lambda s4, s1: s1 * 0.7 + s4 * 0.2, outputs_info=[dict(initial=pt.stack([a, a * 2, a * 3, a * 4]), taps=[-4, -1])],
                    n_steps=8)[0]

inputs = [x0, a, w]
outputs = [fib[:4], fib[-3], xs[::3], xs[-1], ys, zs[-1], gap[-1]]
values = {"x0": np.array([0.5, -1.0]), "a": np.array([0.2, -0.4, 0.9]), "w": np.array([1.5, -0.5, 0.8])}
