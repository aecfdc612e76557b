"""The seed report's first program: the last value of x' = exp(x) - 5 after 10 steps and its
forward-mode derivative (the loop's own R_op, as PyTensor computed Rop when the report was written)."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x_init = pt.vector("x_init", shape=(7,))
x_init_tangent = pt.vector("x_init_tangent", shape=(7,))

seq, _ = pytensor.scan(lambda x: pt.exp(x) - 5, outputs_info=[x_init], n_steps=10)
out = seq[-1]
out_tangent = pytensor.Rop(out, x_init, eval_points=x_init_tangent, use_op_rop_implementation=True)

inputs = [x_init, x_init_tangent]
outputs = [out, out_tangent]

values = {"x_init": np.linspace(-1, 1, 7) * 0.1, "x_init_tangent": np.ones(7)}
