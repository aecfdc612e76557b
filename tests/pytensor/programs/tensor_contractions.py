"""Contractions: tensordot over several axes, einsum (trace, outer, batched, transposes, ellipsis),
batched matmul with broadcast batch dims, vector-matrix matmul, outer, and their gradients."""
import numpy as np
import pytensor
import pytensor.tensor as pt

A = pt.tensor3("A", shape=(2, 3, 4))
B = pt.tensor3("B", shape=(4, 3, 5))
C = pt.tensor3("C", shape=(1, 4, 5))
D = pt.tensor4("D", shape=(2, 3, 5, 2))
S = pt.matrix("S", shape=(4, 4))
u = pt.vector("u", shape=(4,))
v = pt.vector("v", shape=(3,))

td = pt.tensordot(A, B, axes=[[1, 2], [1, 0]])         # (2, 5)
td0 = pt.tensordot(u, S, axes=0)                       # outer product (4, 4, 4)
td1 = pt.tensordot(A, u, axes=1)                        # (2, 3)
e_trace = pt.einsum("ii->", S)
e_diag = pt.einsum("ii->i", S)
e_outer = pt.einsum("i,j->ij", u, v)
e_batch = pt.einsum("bij,jk->bik", A, S)
e_perm = pt.einsum("ijk->kji", A)
e_ell = pt.einsum("...ij,...jk->...ik", A, C)          # broadcast batch (2,) x (1,)
e_three = pt.einsum("bij,j,bik->bk", A, u, A)
bm = pt.matmul(A, C)                                    # (2,3,4) @ (1,4,5) -> (2,3,5)
bm4 = pt.matmul(D.swapaxes(-1, -2), pt.ones((5, 1)))    # (2,3,2,1)
vm = u @ S
mv = S @ u
loss = (td ** 2).sum() + e_batch.sum() + (e_ell * bm).sum() + e_three.sum() + (vm * mv).sum() + e_trace * e_outer.sum()
grads = pytensor.grad(loss, [A, B, C, S, u, v])

inputs = [A, B, C, D, S, u, v]
outputs = [td, td0, td1, e_trace, e_diag, e_outer, e_batch, e_perm, e_ell, e_three, bm, bm4, vm, mv, *grads]

rng = np.random.default_rng(105)
values = {"A": rng.normal(size=(2, 3, 4)), "B": rng.normal(size=(4, 3, 5)), "C": rng.normal(size=(1, 4, 5)),
          "D": rng.normal(size=(2, 3, 5, 2)), "S": rng.normal(size=(4, 4)), "u": rng.normal(size=4),
          "v": rng.normal(size=3)}
