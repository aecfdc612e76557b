"""A forward-mode derivative (Rop) through a scan that integrates an ODE with Euler steps."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.gradient import Rop

x0 = pt.vector("x0", shape=(3,))
k = pt.vector("k", shape=(3,))
dt = pt.scalar("dt")
dk = pt.vector("dk", shape=(3,))

traj, _ = pytensor.scan(lambda x, k, dt: x + dt * (-k * x + pt.sin(x)), outputs_info=x0,
                        non_sequences=[k, dt], n_steps=20)
final = traj[-1]
sensitivity = Rop(final, k, dk)

inputs = [x0, k, dt, dk]
outputs = [final, sensitivity]

values = {"x0": np.array([1.0, -0.5, 2.0]), "k": np.array([0.5, 1.5, 0.2]), "dt": np.array(0.05),
          "dk": np.array([1.0, 0.0, -1.0])}
