"""Multinomial logistic regression: softmax cross-entropy on integer labels, with its gradient."""
import numpy as np
import pytensor
import pytensor.tensor as pt
from pytensor.tensor.special import log_softmax, softmax

X = pt.matrix("X", shape=(50, 6))
labels = pt.vector("labels", shape=(50,), dtype="int64")
W = pt.matrix("W", shape=(6, 3))
b = pt.vector("b", shape=(3,))

logits = X @ W + b
probs = softmax(logits, axis=-1)
loss = -log_softmax(logits, axis=-1)[pt.arange(labels.shape[0]), labels].mean()
accuracy = pt.eq(pt.argmax(probs, axis=1), labels).mean()
gW, gb = pytensor.grad(loss, [W, b])

inputs = [X, labels, W, b]
outputs = [loss, accuracy, probs, gW, gb]

rng = np.random.default_rng(12)
values = {
    "X": rng.normal(size=(50, 6)),
    "labels": rng.integers(0, 3, size=50),
    "W": rng.normal(size=(6, 3)) * 0.3,
    "b": np.zeros(3),
}
