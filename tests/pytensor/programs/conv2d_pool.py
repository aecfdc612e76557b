"""A tiny convolutional classifier written with slicing: a 3x3 'valid' convolution of a batch of
8x8 images with 2 filters as a sum of shifted slices times kernel taps, bias and ReLU, 2x2 max-pooling
by reshape and max over two axes, flatten, a dense softmax layer, the cross-entropy on integer labels,
and the gradients in the kernels, bias and dense weights."""
import numpy as np
import pytensor
import pytensor.tensor as pt

B, H, F, C = 5, 8, 2, 3
imgs = pt.tensor3("imgs", shape=(B, H, H))
labels = pt.vector("labels", shape=(B,), dtype="int64")
kern = pt.tensor3("kern", shape=(F, 3, 3))
bias = pt.vector("bias", shape=(F,))
Wd = pt.matrix("Wd", shape=(F * 3 * 3, C))
bd = pt.vector("bd", shape=(C,))

Ho = H - 2
conv = pt.zeros((B, F, Ho, Ho))
for i in range(3):
    for j in range(3):
        patch = imgs[:, i:i + Ho, j:j + Ho]  # (B, Ho, Ho)
        conv = conv + patch[:, None, :, :] * kern[None, :, i, j, None, None]
act = pt.maximum(conv + bias[None, :, None, None], 0)
pooled = act.reshape((B, F, Ho // 2, 2, Ho // 2, 2)).max(axis=(3, 5))
flat = pooled.reshape((B, -1))
logits = flat @ Wd + bd
logp = pt.special.log_softmax(logits, axis=-1)
loss = -pt.mean(logp[pt.arange(B), labels])
acc = pt.mean(pt.eq(pt.argmax(logits, axis=1), labels))
grads = pytensor.grad(loss, [kern, bias, Wd, bd])

inputs = [imgs, labels, kern, bias, Wd, bd]
outputs = [loss, acc, *grads]

rng = np.random.default_rng(8)
values = {"imgs": rng.normal(size=(B, H, H)), "labels": np.array([0, 2, 1, 1, 0]),
          "kern": rng.normal(size=(F, 3, 3)) * 0.4, "bias": np.array([0.1, -0.05]),
          "Wd": rng.normal(size=(F * 9, C)) * 0.3, "bd": np.zeros(C)}
