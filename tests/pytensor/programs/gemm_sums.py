"""Sums with a matrix product that PyTensor's gemm_optimizer folds into one Gemm (or, for a
row or column, a Gemv or Ger): a dense layer with a bias, a scaled update, a repeated
addend, a product added to another, and a product also read elsewhere (which stays)."""
import numpy as np
import pytensor.tensor as pt

W = pt.matrix("W", shape=(5, 3))
X = pt.matrix("X", shape=(3, 4))
Y = pt.matrix("Y", shape=(3, 4))
Z = pt.matrix("Z", shape=(4, 2))
C = pt.matrix("C", shape=(5, 4))
D = pt.matrix("D", shape=(5, 2))
b = pt.vector("b", shape=(5,))
v = pt.vector("v", shape=(3,))
u = pt.vector("u", shape=(5,))
s = pt.scalar("s")

shared = pt.dot(W, Y)
outputs = [
    pt.tanh(pt.dot(W, X) + C),              # Gemm under an elementwise op
    2.0 * C - s * pt.dot(W, X * 2.0),       # Gemm(C, -s, W, 2X, 2)
    pt.dot(W, X + 1.0) + C + 3.0 * C,       # one addend, scale 4
    pt.dot(pt.dot(W, X), Z) + D + pt.dot(pt.exp(W), pt.dot(X, Z)),
    pt.dot(W, v) + b,                       # Gemv of b
    b - pt.dot(W, v * s),                   # Gemv with a negative scale
    pt.outer(u, v) + W,                     # Ger of W
    shared + C, pt.exp(shared),             # the product read twice: no Gemm
]
inputs = [W, X, Y, Z, C, D, b, v, u, s]

rng = np.random.default_rng(61)
values = {"W": rng.normal(size=(5, 3)), "X": rng.normal(size=(3, 4)), "Y": rng.normal(size=(3, 4)),
          "Z": rng.normal(size=(4, 2)), "C": rng.normal(size=(5, 4)), "D": rng.normal(size=(5, 2)),
          "b": rng.normal(size=5), "v": rng.normal(size=3), "u": rng.normal(size=5), "s": np.array(0.3)}
