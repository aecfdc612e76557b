#pragma once
// NumPy's advanced indexing, shared by AdvancedSubtensor(1) and AdvancedIncSubtensor(1)
// (docs/ops.md#advanced-indexing): x[idx...] where each index is an integer array of
// any rank (0-d included), a boolean mask, a slice or np.newaxis. Integer arrays
// broadcast together; masks become their nonzero() coordinates; the advanced
// dimensions go where the first advanced index is when the advanced indices are
// consecutive, and in front of everything when slices or new axes separate them.
//   x (6, 5):  x[[0, 2]]        -> (2, 5)      x[:, [4, 0]] -> (6, 2)
//   T (4, 3, 5): T[a, :, b]     -> (len, 3)    T[:, a, b]   -> (4, len)
// The plan of one call lists, for every element of the result in C order, the
// element of x it reads (gather) or writes (scatter).
#include "core/NDArray.h"
#include "ir/Type.h"

#include <span>
#include <string>
#include <vector>

namespace tl::advindex {

/// What one index input is, by its type: an integer tensor of any rank (or an integer
/// ScalarType), a boolean mask of rank >= 1, a slice, or None (np.newaxis).
enum class IndexKind : uint8_t { Integer, Mask, Slice, NewAxis };

/// The kind of an index input of type `t`; throws OpTypeError naming `where` for any
/// other type (float tensors, a 0-d boolean, which PyTensor does not support).
IndexKind indexKind(const Type& t, const std::string& where);

/// Static type of x[indices] as PyTensor's AdvancedSubtensor.make_node computes it:
/// checks the index count against x's rank and constant/static mask lengths, and
/// follows constant slices and known dims into static lengths. `constants` holds the
/// values of constant inputs (null otherwise; may be empty). Throws OpTypeError.
Type indexedType(const Type& x, std::span<const Type* const> indices, std::span<const NDArray* const> constants,
                 const std::string& opName);

/// Where the elements of x[indices] sit in x, for one call.
class Plan {
public:
    /// Resolves the indices against x (bounds, masks, broadcasting). Throws ExecError
    /// as NumPy raises IndexError: "index 7 is out of bounds for axis 0 with size 6".
    Plan(const NDArray& x, std::span<const NDArray> indices, std::span<const IndexKind> kinds, const std::string& opName);

    /// Shape of the result (the indexed region).
    const Shape& shape() const { return m_shape; }
    int64_t size() const;
    /// Calls f(elementOffsetInX) for every element of the region in C order; offsets
    /// are in elements of x's storage (x.offset() included).
    template <typename F> void forEach(F&& f) const;

private:
    // One loop level: a strided run, or the advanced block through its offset table.
    struct Level {
        int64_t size = 1;
        int64_t stride = 0;
        bool table = false;
    };
    Shape m_shape;
    std::vector<Level> m_levels;
    std::vector<int64_t> m_table;  // offsets of the advanced block's elements, C order
    int64_t m_base = 0;
};

/// x[indices] as a new C-contiguous array.
NDArray gather(const NDArray& x, const Plan& plan);

/// How AdvancedIncSubtensor combines y with x's indexed elements.
enum class ScatterMode : uint8_t {
    Set,       ///< x[idx] = y; with repeated indices the last write wins
    Add,       ///< np.add.at(x, idx, y): repeated indices accumulate
    AddOnce,   ///< x[idx] += y (ignore_duplicates): each write reads the value before any
};

/// Writes y into `target`'s indexed elements (target has x's shape). y must already have
/// target's dtype and broadcast to plan.shape() (NumPy's rules; leading length-1 dims of y
/// beyond the region's rank are dropped). Throws ExecError starting with `where`.
void scatter(const NDArray& target, const Plan& plan, const NDArray& y, ScatterMode mode, const std::string& where);

// ---------------------------------------------------------------- implementation

template <typename F> void Plan::forEach(F&& f) const {
    for (const Level& l : m_levels)
        if (l.size == 0) return;
    const int n = static_cast<int>(m_levels.size());
    if (n == 0) {
        f(m_base);
        return;
    }
    std::vector<int64_t> idx(n, 0), off(n + 1, m_base);
    auto step = [&](int d) { return m_levels[d].table ? m_table[idx[d]] : idx[d] * m_levels[d].stride; };
    for (int d = 0; d < n; ++d) off[d + 1] = off[d] + step(d);
    const Level& inner = m_levels[n - 1];
    while (true) {
        const int64_t rowBase = off[n - 1];
        if (inner.table)
            for (int64_t i = 0; i < inner.size; ++i) f(rowBase + m_table[i]);
        else
            for (int64_t i = 0; i < inner.size; ++i) f(rowBase + i * inner.stride);
        int d = n - 2;
        for (; d >= 0; --d) {
            if (++idx[d] < m_levels[d].size) break;
            idx[d] = 0;
        }
        if (d < 0) return;
        for (int e = d; e < n - 1; ++e) off[e + 1] = off[e] + step(e);
    }
}

} // namespace tl::advindex
