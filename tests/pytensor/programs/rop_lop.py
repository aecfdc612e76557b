"""Jacobian-vector and vector-Jacobian products (Rop, Lop) of a small network, and a Hessian-vector product."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.gradient import Lop, Rop

x = pt.vector("x", shape=(5,))
W = pt.matrix("W", shape=(5, 3))
v = pt.vector("v", shape=(5,))
u = pt.vector("u", shape=(3,))

y = pt.tanh(x @ W) * pt.exp(-x[:3])
jvp = Rop(y, x, v)
vjp = Lop(y, x, u)
f = pt.sum(pt.sin(x) * x**2) + pt.sum(y**2)
hvp = Rop(pytensor.grad(f, x), x, v)

inputs = [x, W, v, u]
outputs = [y, jvp, vjp, hvp]

rng = np.random.default_rng(34)
values = {"x": rng.normal(size=5), "W": rng.normal(size=(5, 3)), "v": rng.normal(size=5), "u": rng.normal(size=3)}
