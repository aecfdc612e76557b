"""A recurrence's gradient with truncate_gradient: PyTensor's gradient loop runs 3 steps
into nit_sot buffers as long as the forward loop (10 rows), the rows it never reaches
stay zero, and the gradient reads all of them."""
import numpy as np
import pytensor
import pytensor.tensor as pt

obs = pt.vector("obs", shape=(10,))
rho = pt.scalar("rho")
h, _ = pytensor.scan(lambda o, h, rho: pt.tanh(rho * h + o), sequences=[obs],
                     outputs_info=[pt.zeros(())], non_sequences=[rho], truncate_gradient=3)
loss = (h**2).sum()

inputs = [obs, rho]
outputs = [h, pytensor.grad(loss, obs), pytensor.grad(loss, rho)]

values = {"obs": np.linspace(-1.0, 1.0, 10), "rho": np.array(0.8)}
