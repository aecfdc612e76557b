"""Newton's method for a square root and a bisection search, as scans that stop with `until`."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.scan.utils import until

a = pt.vector("a", shape=(6,))
x0 = pt.vector("x0", shape=(6,))
tol = pt.scalar("tol")


def newton(x, a, tol):
    x_new = 0.5 * (x + a / x)
    return x_new, until(pt.max(pt.abs(x_new - x)) < tol)


roots, _ = pytensor.scan(newton, outputs_info=[x0], non_sequences=[a, tol], n_steps=50)


def bisect(lo, hi, a, tol):
    mid = 0.5 * (lo + hi)
    too_big = mid**3 > a
    new_lo = pt.switch(too_big, lo, mid)
    new_hi = pt.switch(too_big, mid, hi)
    return [new_lo, new_hi], until(pt.all(new_hi - new_lo < tol))


(los, his), _ = pytensor.scan(bisect, outputs_info=[pt.zeros(6), pt.maximum(a, 1.0)], non_sequences=[a, tol],
                              n_steps=200)

inputs = [a, x0, tol]
outputs = [roots[-1], roots.shape[0], 0.5 * (los[-1] + his[-1]), los.shape[0]]

values = {"a": np.array([2.0, 3.0, 10.0, 0.5, 7.5, 100.0]), "x0": np.ones(6), "tol": np.array(1e-10)}
