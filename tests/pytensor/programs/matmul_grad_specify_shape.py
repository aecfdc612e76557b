"""The gradient of a matmul chain whose factors' static shapes are partly known: PyTensor
wraps a gradient in SpecifyShape(g, None, 2), a dim left unchecked."""
import numpy as np
import pytensor
import pytensor.tensor as pt

P = pt.matrix("P")
Z = pt.matrix("Z", shape=(1, 2))
y = (P @ Z.T @ Z @ P).sum()
inputs = [P, Z]
outputs = pytensor.grad(y, [P, Z])
values = {"Z": np.array([[1.0, 0.5]]), "P": np.eye(2) * 0.3 + 0.1}
