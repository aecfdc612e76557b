"""Einsum as attention and factor models write it: 'bhqd,bhkd->bhqk' scores, 'bhqk,bhkd->bhqd'
context, a three-operand chain 'ij,jk,kl->il', 'i,i->' and 'ij->' reductions, 'ijk->jik', a
broadcasting '...d,d->...' and the gradients of a loss through all of them."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.tensor.special import softmax

Qm = pt.tensor4("Qm", shape=(2, 2, 3, 4))
Km = pt.tensor4("Km", shape=(2, 2, 5, 4))
Vm = pt.tensor4("Vm", shape=(2, 2, 5, 4))
A = pt.matrix("A", shape=(3, 4))
B = pt.matrix("B", shape=(4, 5))
C = pt.matrix("C", shape=(5, 2))
u = pt.vector("u", shape=(4,))

scores = pt.einsum("bhqd,bhkd->bhqk", Qm, Km) / 2.0
ctx = pt.einsum("bhqk,bhkd->bhqd", softmax(scores, axis=-1), Vm)
chain = pt.einsum("ij,jk,kl->il", A, B, C)
dot = pt.einsum("i,i->", u, u)
tot = pt.einsum("ij->", A)
perm = pt.einsum("ijk->jik", Qm[0])
bcast = pt.einsum("...d,d->...", Qm, u)
loss = (ctx ** 2).sum() + chain.sum() + dot + tot + (bcast ** 2).sum()
g = pytensor.grad(loss, [Qm, Km, Vm, A, B, C, u])
inputs = [Qm, Km, Vm, A, B, C, u]
outputs = [scores, ctx, chain, dot, tot, perm, bcast, *g]
rng = np.random.default_rng(322)
values = {n: rng.normal(size=s) for n, s in [("Qm", (2, 2, 3, 4)), ("Km", (2, 2, 5, 4)), ("Vm", (2, 2, 5, 4)),
                                              ("A", (3, 4)), ("B", (4, 5)), ("C", (5, 2)), ("u", (4,))]}
