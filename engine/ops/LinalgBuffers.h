#pragma once
// Moving matrices between tensorlens arrays (any dtype, any strides, views into a
// batch) and the column-major float/double buffers LAPACK works on, and the casts
// back to the output dtype PyTensor gives the op (ints truncate as NumPy's astype).
#include "core/NDArray.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

namespace tl::linalg {

/// Reusable scratch buffers for one op call: a Blockwise hands the same Workspace to
/// every core computation of its batch, so a batch of small systems allocates once.
class Workspace {
public:
    /// At least n elements of T in buffer `slot` (0..7); contents are unspecified.
    template <typename T> T* get(int slot, size_t n) {
        auto& b = m_bufs[static_cast<size_t>(slot)];
        const size_t bytes = (n == 0 ? 1 : n) * sizeof(T);
        if (b.size() < bytes) b.resize(bytes);
        return reinterpret_cast<T*>(b.data());
    }
    /// The same for LAPACK's integer arrays (pivots, ...).
    int* ints(int slot, size_t n) { return get<int>(8 + slot, n); }

private:
    // double-aligned storage: std::vector<double> guarantees the alignment of every T used here.
    struct Buf {
        std::vector<double> d;
        size_t size() const { return d.size() * sizeof(double); }
        void resize(size_t bytes) { d.resize((bytes + sizeof(double) - 1) / sizeof(double)); }
        void* data() { return d.data(); }
    };
    Buf m_bufs[12];
};

/// `v` converted to T as NumPy's astype does on x86: truncation toward zero for
/// integers, NaN and out-of-range values give the integer minimum of int64 narrowed,
/// bool is v != 0. Never undefined behaviour (a plain static_cast of NaN would be).
template <typename T> T castResult(double v) {
    if constexpr (std::is_same_v<T, bool>) {
        return v != 0.0;
    } else if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(v);
    } else {
        constexpr double lo = -9223372036854775808.0, hi = 9223372036854775808.0;
        const int64_t i = (std::isnan(v) || v < lo || v >= hi) ? std::numeric_limits<int64_t>::min()
                                                                : static_cast<int64_t>(v);
        return static_cast<T>(static_cast<uint64_t>(i));
    }
}

/// Element (i, j) of a 2-d array, or element i of a 1-d one (j ignored), as T.
template <typename T> T elementAs(const NDArray& a, int64_t i, int64_t j) {
    return dispatchDType(a.dtype(), [&](auto s) -> T {
        using S = decltype(s);
        const S* p = a.data<S>();
        const int64_t off = a.ndim() == 2 ? i * a.strides()[0] + j * a.strides()[1] : i * a.strides()[0];
        return static_cast<T>(p[off]);
    });
}

/// Copies the 2-d array `a` (rows x cols, any dtype and strides) into dst, column-major
/// with leading dimension ld >= rows: dst[i + j*ld] = a[i, j].
template <typename T> void loadColMajor(const NDArray& a, T* dst, int64_t ld) {
    const int64_t rows = a.dim(0), cols = a.dim(1), s0 = a.strides()[0], s1 = a.strides()[1];
    dispatchDType(a.dtype(), [&](auto s) {
        using S = decltype(s);
        const S* p = a.data<S>();
        for (int64_t j = 0; j < cols; ++j)
            for (int64_t i = 0; i < rows; ++i) dst[i + j * ld] = static_cast<T>(p[i * s0 + j * s1]);
    });
}

/// Copies the 1-d array `a` into dst (contiguous), or a 2-d array when `a` is a matrix.
template <typename T> void loadVector(const NDArray& a, T* dst) {
    const int64_t n = a.dim(0), s0 = a.strides()[0];
    dispatchDType(a.dtype(), [&](auto s) {
        using S = decltype(s);
        const S* p = a.data<S>();
        for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<T>(p[i * s0]);
    });
}

/// Writes src (rows x cols, column-major, leading dimension ld) into the 2-d array out
/// (any strides), converting to out's dtype with castResult.
template <typename T> void storeColMajor(const T* src, int64_t ld, const NDArray& out) {
    const int64_t rows = out.dim(0), cols = out.dim(1), s0 = out.strides()[0], s1 = out.strides()[1];
    dispatchDType(out.dtype(), [&](auto o) {
        using O = decltype(o);
        O* p = out.data<O>();
        for (int64_t j = 0; j < cols; ++j)
            for (int64_t i = 0; i < rows; ++i) p[i * s0 + j * s1] = castResult<O>(static_cast<double>(src[i + j * ld]));
    });
}

/// Writes n values of src into the 1-d array out (any stride), converting as above.
template <typename T> void storeVector(const T* src, const NDArray& out) {
    const int64_t n = out.dim(0), s0 = out.strides()[0];
    dispatchDType(out.dtype(), [&](auto o) {
        using O = decltype(o);
        O* p = out.data<O>();
        for (int64_t i = 0; i < n; ++i) p[i * s0] = castResult<O>(static_cast<double>(src[i]));
    });
}

/// Writes one value into the 0-d array out.
inline void storeScalar(double v, const NDArray& out) {
    dispatchDType(out.dtype(), [&](auto o) {
        using O = decltype(o);
        *out.data<O>() = castResult<O>(v);
    });
}

/// True when every element of `a` is finite (integer and bool arrays always are).
bool allFinite(const NDArray& a);

} // namespace tl::linalg
