"""Products with exact zeros as reliability and survival code computes them: the probability that
every component works (prod along axes, rows with one zero and with two zeros), its gradient
(PyTensor's Prod gradient special-cases zeros), prod with no_zeros_in_input, var and std with ddof and
their gradients, a geometric mean via exp(mean(log)), and ptp."""
import numpy as np
import pytensor
import pytensor.tensor as pt

R = pt.matrix("R", shape=(5, 4))
z = pt.vector("z", shape=(6,))

p_all = pt.prod(R, axis=1)
p_any = 1 - pt.prod(1 - R, axis=0)
total = pt.sum(p_all) + pt.sum(p_any) + pt.prod(R[:, 0])
gR = pytensor.grad(total, R)
v1 = pt.var(z, ddof=1)
s0 = pt.std(z)
gz = pytensor.grad(v1 + 2 * s0, z)
gm = pt.exp(pt.mean(pt.log(pt.abs(z) + 1)))
rng_ = pt.ptp(R, axis=0)
pnz = pt.prod(pt.abs(z) + 0.5, no_zeros_in_input=True)
gpnz = pytensor.grad(pnz, z)

inputs = [R, z]
outputs = [p_all, p_any, total, gR, v1, s0, gz, gm, rng_, pnz, gpnz]

rng = np.random.default_rng(73)
_R = rng.uniform(0.5, 0.99, size=(5, 4))
_R[1, 2] = 0.0
_R[3, 0] = 0.0
_R[3, 3] = 0.0
_R[4, 1] = 1.0
values = {"R": _R, "z": rng.normal(size=6)}
