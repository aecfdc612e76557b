"""pt.specify_shape with a None dim: the rows stay unchecked, the columns must be 2."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x = pt.matrix("x")
y = pt.specify_shape(x, (None, 2))
inputs = [x]
outputs = [y * 2.0]
values = {"x": np.arange(6.0).reshape(3, 2)}
