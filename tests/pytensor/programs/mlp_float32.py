"""A two-layer float32 MLP classifier: forward pass, cross-entropy and parameter gradients."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.tensor.special import softmax

X = pt.matrix("X", shape=(32, 8), dtype="float32")
Y = pt.matrix("Y", shape=(32, 4), dtype="float32")
W1 = pt.matrix("W1", shape=(8, 16), dtype="float32")
b1 = pt.vector("b1", shape=(16,), dtype="float32")
W2 = pt.matrix("W2", shape=(16, 4), dtype="float32")
b2 = pt.vector("b2", shape=(4,), dtype="float32")

hidden = pt.maximum(X @ W1 + b1, 0)
probs = softmax(hidden @ W2 + b2, axis=1)
loss = -(Y * pt.log(probs + np.float32(1e-7))).sum(axis=1).mean()
grads = pytensor.grad(loss, [W1, b1, W2, b2])

inputs = [X, Y, W1, b1, W2, b2]
outputs = [loss, probs, *grads]

rng = np.random.default_rng(23)
values = {
    "X": rng.normal(size=(32, 8)).astype("float32"),
    "Y": np.eye(4, dtype="float32")[rng.integers(0, 4, size=32)],
    "W1": (rng.normal(size=(8, 16)) * 0.3).astype("float32"),
    "b1": np.zeros(16, dtype="float32"),
    "W2": (rng.normal(size=(16, 4)) * 0.3).astype("float32"),
    "b2": np.zeros(4, dtype="float32"),
}
