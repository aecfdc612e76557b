"""The gradient of a boolean-mask selection M[mask.nonzero()]: FAST_RUN's local_fill_to_alloc
builds the allocation's shape through broadcast_shape, which applies a bare scalar op (ps.neg(1))
outside any Elemwise; the trace must write that node as the graph writer does (a Scalar node)."""
import numpy as np
import pytensor
import pytensor.tensor as pt

M = pt.matrix("M", shape=(3, 2))
mask = pt.matrix("mask", shape=(3, 2), dtype="bool")
inputs = [M, mask]
outputs = [pytensor.grad(M[mask.nonzero()].sum(), M)]
values = {"M": np.arange(6.0).reshape(3, 2), "mask": np.array([[True, False], [False, True], [True, True]])}
