"""Ranks of tied data as a nonparametric test computes them: argsort (default quicksort and
kind='stable'/'mergesort') of 40 integer-valued scores with many ties, along both axes of a matrix
with ties, sort of int8 and uint8 vectors, and an average rank through argsort of argsort."""
import numpy as np
import pytensor.tensor as pt

s = pt.vector("s", shape=(40,))
M = pt.matrix("M", shape=(20, 3))
i8 = pt.vector("i8", shape=(24,), dtype="int8")
u8 = pt.vector("u8", shape=(24,), dtype="uint8")

outputs = [
    pt.argsort(s), pt.argsort(s, kind="stable"), pt.argsort(s, kind="mergesort"), pt.argsort(-s),
    pt.argsort(M, axis=0), pt.argsort(M, axis=1), pt.argsort(M, axis=None),
    pt.sort(i8), pt.argsort(i8), pt.sort(u8), pt.argsort(u8, kind="stable"),
    pt.argsort(pt.argsort(s)), s[pt.argsort(s)[-5:]],
]
inputs = [s, M, i8, u8]
rng = np.random.default_rng(308)
values = {"s": rng.integers(0, 4, size=40).astype(float), "M": rng.integers(0, 3, size=(20, 3)).astype(float),
          "i8": rng.integers(-3, 3, size=24).astype("int8"), "u8": rng.integers(0, 5, size=24).astype("uint8")}
