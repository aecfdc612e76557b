#pragma once
// Walking the elements of strided arrays: every multi-index of a shape in C
// order, with the element offset it has in each array. The innermost axis runs
// as a plain loop; the outer axes carry like an odometer. Iterative: no
// recursion on the number of dims.
#include <cstdint>
#include <vector>

namespace tl {

/// Calls f(offsetA, offsetB) for every multi-index of `shape` in C order, where the
/// offsets start at offA / offB and advance by stridesA / stridesB (in elements).
template <typename Shape, typename Strides, typename F>
void forEachOffsetPair(const Shape& shape, const Strides& sa, int64_t offA, const Strides& sb, int64_t offB, F&& f) {
    const int nd = static_cast<int>(shape.size());
    for (int64_t d : shape)
        if (d == 0) return;
    if (nd == 0) {
        f(offA, offB);
        return;
    }
    std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
    const int64_t inner = shape[nd - 1], ia = sa[nd - 1], ib = sb[nd - 1];
    while (true) {
        for (int64_t i = 0; i < inner; ++i) f(offA + i * ia, offB + i * ib);
        int axis = nd - 2;
        for (; axis >= 0; --axis) {
            offA += sa[axis];
            offB += sb[axis];
            if (++idx[static_cast<size_t>(axis)] < shape[axis]) break;
            offA -= sa[axis] * shape[axis];
            offB -= sb[axis] * shape[axis];
            idx[static_cast<size_t>(axis)] = 0;
        }
        if (axis < 0) return;
    }
}

/// Calls f(offset) for every element of an array of `shape` and `strides` in C order.
template <typename Shape, typename Strides, typename F>
void forEachOffset(const Shape& shape, const Strides& strides, int64_t offset, F&& f) {
    forEachOffsetPair(shape, strides, offset, strides, offset, [&](int64_t a, int64_t) { f(a); });
}

} // namespace tl
