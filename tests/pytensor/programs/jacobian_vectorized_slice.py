"""A vectorized jacobian through a slice: jacobian(vectorize=True) vmaps the gradient, whose
IncSubtensor (the gradient of x[:3]) becomes the core op of a Blockwise; the exporter must write
that core op as it writes an IncSubtensor node (idx_list ":stop"), not as raw slice props."""
import numpy as np
import pytensor.tensor as pt
from pytensor.gradient import jacobian

x = pt.vector("x", shape=(4,))
inputs = [x]
outputs = [jacobian(pt.exp(x[:3]), x, vectorize=True)]
values = {"x": np.array([0.1, 0.2, 0.3, 0.4])}
