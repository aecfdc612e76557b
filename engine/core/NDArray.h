#pragma once
// A strided n-d array over shared storage. Views (Subtensor, DimShuffle, ...)
// share the Storage, so destroying (inplace) ops really overwrite what their
// aliases see, as in NumPy and PyTensor.
#include "core/MemoryTracker.h"
#include "core/DType.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tl {

using Shape = std::vector<int64_t>;
using Strides = std::vector<int64_t>;  // in elements, may be 0 (broadcast) or negative

/// Raw bytes, 64-byte aligned, page-aligned from kPageAlignedBytes on; reports its
/// size to the MemoryTracker that was current when it was allocated.
class Storage {
public:
    static constexpr size_t kPageAlignedBytes = size_t{1} << 20;
    explicit Storage(size_t bytes);
    /// Non-owning storage over bytes another Storage owns: never freed, never counted.
    /// Scan lends its buffer rows to its inner function through one (see NDArray::lend).
    struct LentTag {};
    Storage(LentTag, void* data, size_t bytes);
    ~Storage();
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;
    void* data() const { return m_data; }
    size_t bytes() const { return m_bytes; }
    bool isLent() const { return m_lent; }
    /// Points a lent storage at other bytes of the same size (Scan moves its lent row
    /// to the next buffer row each step without allocating). No-op for owning storage.
    void relend(void* data) {
        if (m_lent) m_data = data;
    }
    /// Reports the bytes released now and stops reporting: for arrays that outlive the
    /// run (and the MemoryTracker) that allocated them, e.g. a graph's returned outputs.
    void untrack();

private:
    void* m_data = nullptr;
    size_t m_bytes = 0;
    MemoryTracker* m_tracker = nullptr;
    bool m_lent = false;
};

/// Thrown for absurd or impossible allocations (negative dims, overflow,
/// more than the configured limit) instead of crashing.
struct AllocationError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class NDArray {
public:
    NDArray() = default;

    /// Uninitialised C-contiguous array.
    static NDArray empty(DType dtype, const Shape& shape);
    static NDArray zeros(DType dtype, const Shape& shape);
    /// 0-d array holding `value` converted to dtype.
    static NDArray scalar(DType dtype, double value);
    static NDArray fromVector(DType dtype, const Shape& shape, const std::vector<double>& values);

    bool valid() const { return m_storage != nullptr; }
    DType dtype() const { return m_dtype; }
    const Shape& shape() const { return m_shape; }
    const Strides& strides() const { return m_strides; }
    int ndim() const { return static_cast<int>(m_shape.size()); }
    int64_t dim(int axis) const { return m_shape[axis]; }
    int64_t size() const;  // number of elements
    size_t nbytes() const { return static_cast<size_t>(size()) * dtypeSize(m_dtype); }
    bool isContiguous() const {  // inline: every kernel call asks, often on a handful of elements
        int64_t acc = 1;
        for (int i = ndim() - 1; i >= 0; --i) {
            if (m_shape[i] != 1 && m_strides[i] != acc) return false;
            acc *= m_shape[i];
        }
        return true;
    }
    const std::shared_ptr<Storage>& storage() const { return m_storage; }
    int64_t offset() const { return m_offset; }
    /// True when both arrays may touch the same bytes.
    bool sharesStorageWith(const NDArray& other) const { return m_storage && m_storage == other.m_storage; }

    /// Pointer to the first element (shallow const: views of one storage can write).
    template <typename T> T* data() const {
        return static_cast<T*>(m_storage->data()) + m_offset;
    }
    void* rawData() const { return static_cast<char*>(m_storage->data()) + m_offset * dtypeSize(m_dtype); }

    /// Element at a multi-index (no bounds check beyond debug asserts), as double.
    double get(std::span<const int64_t> index) const;
    void set(std::span<const int64_t> index, double value) const;
    /// Element i in C order (row-major logical order), as double.
    double flatGet(int64_t i) const;
    /// Value of a 0-d or 1-element array, as double / int64.
    double item() const;
    int64_t itemInt() const;
    /// All elements in C order, as doubles (tests, printing).
    std::vector<double> toDoubles() const;

    /// A view with new shape/strides/offset over the same storage.
    NDArray view(Shape shape, Strides strides, int64_t offset) const;

    /// What a value stands for. Nearly always an array; the two non-tensor index values
    /// of advanced indexing (a slice, None: ir/SliceValue.h) travel as small arrays
    /// marked so, so no integer array is ever taken for one. Copies keep the role.
    enum class Role : uint8_t { Array, Slice, None };
    Role role() const { return m_role; }
    /// The same value (shared storage) marked with `role`.
    NDArray withRole(Role role) const {
        NDArray a = *this;
        a.m_role = role;
        return a;
    }
    /// A C-contiguous array's elements seen through a new lent Storage (Storage::LentTag)
    /// spanning exactly them (offset 0): a kernel that finds the result alone in its output
    /// cell (use_count 1) writes straight into this array's memory, which is how Scan
    /// preallocates inner outputs in its buffer rows, as PyTensor does. This array's
    /// storage must outlive the result. Throws std::invalid_argument if not contiguous.
    NDArray lend() const;
    /// Re-points this view at another element offset of the same storage, so a loop can
    /// walk rows without allocating. The caller guarantees the bounds.
    void setOffset(int64_t offset) { m_offset = offset; }
    /// A C-contiguous deep copy.
    NDArray copy() const;
    /// Deep copy converted to dtype.
    NDArray astype(DType dtype) const;
    /// Copies src (same shape, any strides) into this array's elements.
    void assign(const NDArray& src) const;

    static Strides contiguousStrides(const Shape& shape);
    /// Largest array the executor will allocate (guards against absurd shapes).
    static size_t maxAllocationBytes();
    static void setMaxAllocationBytes(size_t bytes);

private:
    std::shared_ptr<Storage> m_storage;
    DType m_dtype = DType::Float64;
    Shape m_shape;
    Strides m_strides;
    int64_t m_offset = 0;  // in elements
    Role m_role = Role::Array;
};

std::string shapeToString(const Shape& s);

} // namespace tl
