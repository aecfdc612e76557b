"""Integer arithmetic as index code does it: mod and floor_div with negative operands (Python
semantics), int8 / uint8 / int16 wrap-around, true_div of ints, bitwise ops, integer abs/sign,
comparisons and bool arithmetic, and float mod / floor_div of negative numbers."""
import numpy as np
import pytensor.tensor as pt

a = pt.vector("a", shape=(8,), dtype="int64")
b = pt.vector("b", shape=(8,), dtype="int64")
c8 = pt.vector("c8", shape=(8,), dtype="int8")
u8 = pt.vector("u8", shape=(8,), dtype="uint8")
i16 = pt.vector("i16", shape=(8,), dtype="int16")
m = pt.vector("m", shape=(8,), dtype="bool")
f = pt.vector("f", shape=(8,))

outputs = [
    a % b, a // b, pt.mod(a, 3), pt.floor_div(a, -3), a / b, pt.int_div(a, b),
    c8 + c8, c8 * 3, u8 + u8, u8 - 200, i16 * i16,
    pt.bitwise_and(a, b), pt.bitwise_or(a, b), pt.bitwise_xor(a, 5), pt.invert(a), pt.invert(m),
    pt.abs(a), pt.sign(a), pt.abs(c8), a ** 2, pt.maximum(c8, u8), u8 // 7, u8 % 7,
    m + m, m * a, pt.sum(m), pt.prod(a[:4]), pt.eq(a % 2, 0), pt.xor(m, a > 0),
    f % 1.5, f // 1.5, pt.mod(-f, 2), a + 0.5, c8 / 4,
]
inputs = [a, b, c8, u8, i16, m, f]

values = {
    "a": np.array([7, -7, 7, -7, 0, 13, -1, 100], dtype="int64"),
    "b": np.array([2, 2, -2, -2, 5, -4, 3, 7], dtype="int64"),
    "c8": np.array([100, -100, 127, -128, 5, 64, -1, 0], dtype="int8"),
    "u8": np.array([200, 100, 255, 0, 1, 128, 17, 250], dtype="uint8"),
    "i16": np.array([300, -300, 200, 32000, 2, -181, 1000, 7], dtype="int16"),
    "m": np.array([True, False, True, True, False, False, True, False]),
    "f": np.array([3.7, -3.7, 1.5, -1.5, 0.0, -0.1, 10.25, -7.0]),
}
