"""Unsigned integers wider than a byte, as hashing, counting and image code use them: uint16,
uint32 and uint64 arithmetic that wraps, NumPy's promotion with signed ints and floats
(uint32 + int32 is int64, uint64 + int64 is float64, uint16 * float32 stays float32), sums
and products accumulated in uint64, max/min/argmax, floor division and mod, bitwise ops,
comparisons, casts between them (in range), unsigned indices, a uint64 beyond 2^63, and a
gradient through a float cast of a count. The signed operands of mixed arithmetic are not
negative: there PyTensor's C code converts them to unsigned (docs/semantics.md)."""
import numpy as np
import pytensor
import pytensor.tensor as pt

u16 = pt.vector("u16", shape=(6,), dtype="uint16")
u32 = pt.vector("u32", shape=(6,), dtype="uint32")
u64 = pt.vector("u64", shape=(6,), dtype="uint64")
i32 = pt.vector("i32", shape=(6,), dtype="int32")
n32 = pt.vector("n32", shape=(6,), dtype="int32")
n64 = pt.vector("n64", shape=(6,), dtype="int64")
f32 = pt.vector("f32", shape=(6,), dtype="float32")
w = pt.vector("w", shape=(6,))
idx = pt.vector("idx", shape=(3,), dtype="uint32")

counts = pt.cast(u16, "float64")
loss = pt.sum(w * counts) + pt.sum(w ** 2)

outputs = [
    u16 + u16, u16 * u16, u16 - 1, u32 * u32, u32 - u32[::-1], u64 * 3, u64 + u64,
    u16 + n32, u32 + n64, (u64 % 1000) + n64, u16 * f32, u16 + 1.5, u32 * 2.5,
    pt.sum(u16), pt.sum(u32), pt.prod(u16[:3]), pt.max(u64), pt.min(u32), pt.argmax(u64),
    u32 // 7, u32 % 7, u64 // pt.maximum(u32, 1), pt.bitwise_and(u32, 0xFF), pt.bitwise_xor(u64, u64[::-1]),
    pt.invert(u16), pt.lt(u32, n32), pt.eq(u64, u64[0]), pt.maximum(u16, u32),
    pt.cast(u32, "uint16"), pt.cast(u16, "uint64"), pt.cast(i32, "uint32"), pt.cast(u64, "int64"),
    pt.cast(f32, "uint32"), pt.cast(u64, "float64"), pt.cumsum(u32), pt.sqrt(u32), u32 / 2,
    w[idx], pt.sum(u16 > 100), pt.switch(u32 > 5, u32, u16),
    pytensor.grad(loss, w),
]
inputs = [u16, u32, u64, i32, n32, n64, f32, w, idx]

values = {
    "u16": np.array([65535, 1, 300, 0, 40000, 7], dtype="uint16"),
    "u32": np.array([4294967295, 3, 100000, 0, 2147483648, 9], dtype="uint32"),
    "u64": np.array([18446744073709551615, 2, 9223372036854775809, 0, 12345678901234567890, 5],
                    dtype="uint64"),
    "i32": np.array([-1, 5, -100000, 2147483647, -2147483648, 0], dtype="int32"),
    "n32": np.array([1, 5, 100000, 2147483647, 0, 12], dtype="int32"),
    "n64": np.array([3, 4, 2**52 + 1, 2**40, 0, 1], dtype="int64"),
    "f32": np.array([0.5, 2.75, 3e9, 1.0, 65535.9, 12.0], dtype="float32"),
    "w": np.array([0.5, -1.0, 2.0, 0.25, -0.75, 1.5]),
    "idx": np.array([5, 0, 3], dtype="uint32"),
}
