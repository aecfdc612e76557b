"""The gradient of pt.interp: PyTensor's compiled graph has a Composite that works in place on the
outputs of Blockwise{Subtensor{i}}, which are not views (Blockwise has no view_map), so the
AdvancedSubtensor1 output they are taken from is still read after the Composite overwrites them."""
import numpy as np
import pytensor
import pytensor.tensor as pt

xp = pt.vector("xp", shape=(5,))
fp = pt.vector("fp", shape=(5,))
xq = pt.vector("xq", shape=(7,))
inputs = [xp, fp, xq]
outputs = [pytensor.grad(pt.interp(xq, xp, fp).sum(), fp)]
values = {"xp": np.array([0.0, 1.0, 2.5, 3.0, 4.0]), "fp": np.array([0.3, -1.0, 2.0, 0.5, 1.0]),
          "xq": np.array([-1.0, 0.0, 0.5, 2.5, 2.9, 4.0, 5.0])}
