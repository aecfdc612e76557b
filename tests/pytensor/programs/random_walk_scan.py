"""A random walk simulated with scan: uniform and normal draws inside the loop (random variables)."""
import numpy as np
import pytensor
import pytensor.tensor as pt

x0 = pt.scalar("x0")
drift = pt.scalar("drift")
rng_var = pytensor.shared(np.random.default_rng(7), name="rng")


def walk(x, rng, drift):
    next_rng, step = pt.random.normal(drift, 1.0, rng=rng).owner.outputs
    return x + step, {rng: next_rng}


path, updates = pytensor.scan(walk, outputs_info=[x0], non_sequences=[rng_var, drift], n_steps=15)
jumps = pt.random.uniform(-1, 1, size=(15,), rng=rng_var)

inputs = [x0, drift]
outputs = [path, path.max(), jumps]

values = {"x0": np.array(0.5), "drift": np.array(0.1)}
