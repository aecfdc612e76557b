#include "core/NDArray.h"

#include "core/StridedWalk.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace tl {

namespace {
thread_local MemoryTracker* t_tracker = nullptr;
std::atomic<size_t> g_maxAllocationBytes{size_t(8) << 30};  // 8 GiB
} // namespace

MemoryTracker* MemoryTracker::current() { return t_tracker; }

MemoryTrackerScope::MemoryTrackerScope(MemoryTracker* tracker) : m_previous(t_tracker) { t_tracker = tracker; }
MemoryTrackerScope::~MemoryTrackerScope() { t_tracker = m_previous; }

Storage::Storage(size_t bytes) : m_bytes(bytes), m_tracker(t_tracker) {
    // Large buffers start on a page: where each array starts within a page decides
    // which of them compete for the same cache sets in a kernel streaming through
    // several (core/StreamStore.h), and an allocator's random offsets made the same
    // kernel's time vary by a fifth from run to run. Page-aligned, every large array
    // has one layout, as large NumPy arrays (fresh pages from mmap) do.
    const size_t align = bytes >= kPageAlignedBytes ? 4096 : 64;
    const size_t rounded = (bytes + align - 1) / align * align;
    m_data = std::aligned_alloc(align, rounded == 0 ? align : rounded);
    if (!m_data) throw AllocationError("out of memory allocating " + std::to_string(bytes) + " bytes");
    if (m_tracker) m_tracker->allocated(m_bytes);
}

Storage::Storage(LentTag, void* data, size_t bytes) : m_data(data), m_bytes(bytes), m_lent(true) {}

Storage::~Storage() {
    if (m_lent) return;
    std::free(m_data);
    if (m_tracker) m_tracker->released(m_bytes);
}

void Storage::untrack() {
    if (m_tracker) m_tracker->released(m_bytes);
    m_tracker = nullptr;
}

size_t NDArray::maxAllocationBytes() { return g_maxAllocationBytes.load(); }
void NDArray::setMaxAllocationBytes(size_t bytes) { g_maxAllocationBytes.store(bytes); }

Strides NDArray::contiguousStrides(const Shape& shape) {
    Strides s(shape.size());
    int64_t acc = 1;
    for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
        s[i] = acc;
        acc *= shape[i] > 0 ? shape[i] : 1;
    }
    return s;
}

NDArray NDArray::empty(DType dtype, const Shape& shape) {
    size_t count = 1;
    for (int64_t d : shape) {
        if (d < 0) throw AllocationError("negative dimension " + std::to_string(d) + " in shape " + shapeToString(shape));
        if (d != 0 && count > std::numeric_limits<size_t>::max() / static_cast<size_t>(d))
            throw AllocationError("shape " + shapeToString(shape) + " overflows");
        count *= static_cast<size_t>(d);
    }
    size_t bytes = count * dtypeSize(dtype);
    if (count != 0 && bytes / count != dtypeSize(dtype))
        throw AllocationError("shape " + shapeToString(shape) + " overflows");
    if (bytes > maxAllocationBytes())
        throw AllocationError("refusing to allocate " + std::to_string(bytes) + " bytes for shape " +
                              shapeToString(shape) + " (limit " + std::to_string(maxAllocationBytes()) + ")");
    NDArray a;
    a.m_storage = std::make_shared<Storage>(bytes);
    a.m_dtype = dtype;
    a.m_shape = shape;
    a.m_strides = contiguousStrides(shape);
    return a;
}

NDArray NDArray::zeros(DType dtype, const Shape& shape) {
    NDArray a = empty(dtype, shape);
    std::memset(a.m_storage->data(), 0, a.m_storage->bytes());
    return a;
}

NDArray NDArray::scalar(DType dtype, double value) {
    NDArray a = empty(dtype, {});
    a.set({}, value);
    return a;
}

NDArray NDArray::fromVector(DType dtype, const Shape& shape, const std::vector<double>& values) {
    NDArray a = empty(dtype, shape);
    if (static_cast<int64_t>(values.size()) != a.size())
        throw std::invalid_argument("fromVector: " + std::to_string(values.size()) + " values for shape " +
                                    shapeToString(shape));
    dispatchDType(dtype, [&](auto t) {
        using T = decltype(t);
        T* p = a.data<T>();
        for (size_t i = 0; i < values.size(); ++i) p[i] = static_cast<T>(values[i]);
    });
    return a;
}

int64_t NDArray::size() const {
    int64_t n = 1;
    for (int64_t d : m_shape) n *= d;
    return n;
}

double NDArray::get(std::span<const int64_t> index) const {
    int64_t off = 0;
    for (size_t i = 0; i < index.size(); ++i) off += index[i] * m_strides[i];
    return dispatchDType(m_dtype, [&](auto t) { return static_cast<double>(data<decltype(t)>()[off]); });
}

void NDArray::set(std::span<const int64_t> index, double value) const {
    int64_t off = 0;
    for (size_t i = 0; i < index.size(); ++i) off += index[i] * m_strides[i];
    dispatchDType(m_dtype, [&](auto t) {
        using T = decltype(t);
        data<T>()[off] = static_cast<T>(value);
    });
}

double NDArray::flatGet(int64_t i) const {
    int64_t off = 0;
    for (int axis = ndim() - 1; axis >= 0; --axis) {
        int64_t d = m_shape[axis];
        off += (i % d) * m_strides[axis];
        i /= d;
    }
    return dispatchDType(m_dtype, [&](auto t) { return static_cast<double>(data<decltype(t)>()[off]); });
}

double NDArray::item() const {
    if (size() != 1) throw std::invalid_argument("item() of an array with " + std::to_string(size()) + " elements");
    return flatGet(0);
}

int64_t NDArray::itemInt() const {
    if (size() != 1) throw std::invalid_argument("itemInt() of an array with " + std::to_string(size()) + " elements");
    return dispatchDType(m_dtype, [&](auto t) { return static_cast<int64_t>(data<decltype(t)>()[0]); });
}

std::vector<double> NDArray::toDoubles() const {
    std::vector<double> out(static_cast<size_t>(size()));
    for (int64_t i = 0; i < size(); ++i) out[i] = flatGet(i);
    return out;
}

NDArray NDArray::view(Shape shape, Strides strides, int64_t offset) const {
    NDArray v;
    v.m_storage = m_storage;
    v.m_dtype = m_dtype;
    v.m_shape = std::move(shape);
    v.m_strides = std::move(strides);
    v.m_offset = offset;
    return v;
}


void NDArray::assign(const NDArray& src) const {
    if (src.m_shape != m_shape)
        throw std::invalid_argument("assign: shape " + shapeToString(src.m_shape) + " into " + shapeToString(m_shape));
    const bool overlap = sharesStorageWith(src);
    // Copy through a temporary when the two views overlap (x[1:] = x[:-1]).
    const NDArray from = overlap ? src.copy() : src;
    dispatchDType(m_dtype, [&](auto td) {
        using TD = decltype(td);
        TD* dst = static_cast<TD*>(m_storage->data());
        dispatchDType(from.m_dtype, [&](auto ts) {
            using TS = decltype(ts);
            const TS* s = static_cast<const TS*>(from.m_storage->data());
            if (isContiguous() && from.isContiguous() && std::is_same_v<TS, TD>) {
                std::memcpy(dst + m_offset, s + from.m_offset, nbytes());
                return;
            }
            forEachOffsetPair(m_shape, from.m_strides, from.m_offset, m_strides, m_offset,
                         [&](int64_t so, int64_t dof) { dst[dof] = static_cast<TD>(s[so]); });
        });
    });
}

NDArray NDArray::copy() const { return astype(m_dtype).withRole(m_role); }

NDArray NDArray::lend() const {
    if (!m_storage || !isContiguous()) throw std::invalid_argument("lend: only a valid C-contiguous array can be lent");
    NDArray v;
    v.m_storage = std::make_shared<Storage>(Storage::LentTag{}, rawData(), nbytes());
    v.m_dtype = m_dtype;
    v.m_shape = m_shape;
    v.m_strides = contiguousStrides(m_shape);
    v.m_offset = 0;
    return v;
}

NDArray NDArray::astype(DType dtype) const {
    NDArray out = empty(dtype, m_shape);
    out.assign(*this);
    return out;
}

std::string shapeToString(const Shape& s) {
    std::string out = "(";
    for (size_t i = 0; i < s.size(); ++i) {
        if (i) out += ", ";
        out += std::to_string(s[i]);
    }
    if (s.size() == 1) out += ",";
    return out + ")";
}

} // namespace tl
