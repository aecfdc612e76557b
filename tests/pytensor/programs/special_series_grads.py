"""Gradients of special functions whose derivatives are series, which PyTensor computes
with ScalarLoop (a scalar loop per element, stopping when the series converges): the
lower and upper regularized incomplete gamma functions in their shape k, the
regularized incomplete beta function in a and b, and the Gauss hypergeometric 2F1 in
its parameters, as Gamma/Beta CDFs and censored likelihoods in PyMC need them."""
import numpy as np
import pytensor
import pytensor.tensor as pt

k = pt.vector("k", shape=(5,))
x = pt.vector("x", shape=(5,))
a = pt.vector("a", shape=(4,))
b = pt.vector("b", shape=(4,))
z = pt.vector("z", shape=(4,))

lower = pt.gammainc(k, x).sum()
upper = pt.log(pt.gammaincc(k, x)).sum()
beta = pt.betainc(a, b, z).sum()
hyp = pt.hyp2f1(a, b, a + b + 0.5, z * 0.5).sum()

inputs = [k, x, a, b, z]
outputs = [
    pytensor.grad(lower, k), pytensor.grad(upper, k), pytensor.grad(upper, x),
    *pytensor.grad(beta, [a, b]), *pytensor.grad(hyp, [a, b]),
]

values = {"k": np.array([0.5, 1.0, 2.5, 7.0, 4.0]), "x": np.array([0.3, 2.0, 1.0, 9.0, 6.0]),
          "a": np.array([0.5, 1.5, 3.0, 10.0]), "b": np.array([2.0, 0.7, 3.0, 4.0]), "z": np.array([0.1, 0.5, 0.8, 0.95])}
# The series read PyTensor's C psi, whose coefficients agree with scipy to ~1e-10.
reference_rtol = {0: 1e-8, 1: 1e-8, 3: 1e-8, 4: 1e-8}
