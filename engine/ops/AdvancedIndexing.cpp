#include "ops/AdvancedIndexing.h"

#include "ir/Op.h"
#include "ir/SliceValue.h"
#include "ops/ArrayOpUtil.h"
#include "ops/Subtensor.h"

#include <algorithm>
#include <cstring>

namespace tl::advindex {

namespace {

std::string shapeTuple(const StaticShape& s) { return Type::shapeString(s); }

/// NumPy's broadcast of static shapes as PyTensor's add(*indices) types it: a dim is 1
/// when every operand has 1 there, the known length other than 1 when there is one
/// (they must agree), unknown otherwise. Returns false on a known mismatch.
bool broadcastStatic(const std::vector<StaticShape>& shapes, StaticShape& out) {
    size_t rank = 0;
    for (const auto& s : shapes) rank = std::max(rank, s.size());
    out.assign(rank, 1);
    for (size_t d = 0; d < rank; ++d) {
        bool unknown = false;
        int64_t known = 1;
        for (const auto& s : shapes) {
            if (s.size() + d < rank) continue;  // missing leading dims broadcast
            const int64_t v = s[d - (rank - s.size())];
            if (v == kUnknownDim) unknown = true;
            else if (v != 1) {
                if (known != 1 && known != v) return false;
                known = v;
            }
        }
        out[d] = known != 1 ? known : unknown ? kUnknownDim : 1;
    }
    return true;
}

int64_t countTrue(const NDArray& mask) {
    int64_t n = 0;
    for (int64_t i = 0; i < mask.size(); ++i) n += mask.flatGet(i) != 0.0;
    return n;
}

// One entry of the explicit index list: a mask has become one Integer entry per dim.
struct StaticEntry {
    IndexKind kind;
    StaticShape shape;                 // Integer: the index array's static shape
    const NDArray* slice = nullptr;    // Slice: the constant value, if any
};

} // namespace

IndexKind indexKind(const Type& t, const std::string& where) {
    if (t.isSliceType()) return IndexKind::Slice;
    if (t.isNoneType()) return IndexKind::NewAxis;
    if (t.dtype == DType::Bool) {
        if (t.isScalarType() || t.ndim() == 0)
            throw OpTypeError(where + ": indexing with a 0-d boolean is not supported (PyTensor raises NotImplementedError)");
        return IndexKind::Mask;
    }
    if (!isInteger(t.dtype)) throw OpTypeError(where + " must be an integer array, a boolean mask, a slice or None, got " + t.toString());
    return IndexKind::Integer;
}

Type indexedType(const Type& x, std::span<const Type* const> indices, std::span<const NDArray* const> constants,
                 const std::string& opName) {
    arrayop::requireTensor(x, opName + " input");
    std::vector<StaticEntry> entries;
    int consumed = 0;
    for (size_t i = 0; i < indices.size(); ++i) {
        const Type& t = *indices[i];
        const NDArray* c = i < constants.size() ? constants[i] : nullptr;
        const IndexKind k = indexKind(t, opName + " index " + std::to_string(i));
        if (k == IndexKind::Mask) {
            // A mask stands for its nonzero() coordinates: one integer index per dim.
            for (int j = 0; j < t.ndim(); ++j) {
                const int axis = consumed + j;
                if (axis < x.ndim() && x.shape[axis] != kUnknownDim && t.shape[j] != kUnknownDim && x.shape[axis] != t.shape[j])
                    throw OpTypeError(opName + ": boolean index did not match indexed tensor along axis " + std::to_string(axis) +
                                      "; size of axis is " + std::to_string(x.shape[axis]) +
                                      " but size of corresponding boolean axis is " + std::to_string(t.shape[j]));
            }
            const int64_t len = c ? countTrue(*c) : kUnknownDim;
            for (int j = 0; j < t.ndim(); ++j) entries.push_back({IndexKind::Integer, {len}, nullptr});
            consumed += t.ndim();
            continue;
        }
        entries.push_back({k, k == IndexKind::Integer && t.isTensorType() ? t.shape : StaticShape{}, c});
        if (k != IndexKind::NewAxis) ++consumed;
    }
    if (consumed > x.ndim())
        throw OpTypeError(opName + ": too many indices for array: tensor is " + std::to_string(x.ndim()) +
                          "-dimensional, but " + std::to_string(consumed) + " were indexed");

    StaticShape basic;  // the dims of the basic entries (and trailing axes), in order
    std::vector<StaticShape> advShapes;
    std::vector<size_t> advPositions;
    size_t basicBeforeAdv = 0;
    int axis = 0;
    for (size_t e = 0; e < entries.size(); ++e) {
        const StaticEntry& en = entries[e];
        if (en.kind == IndexKind::Integer) {
            if (advShapes.empty()) basicBeforeAdv = basic.size();
            advShapes.push_back(en.shape);
            advPositions.push_back(e);
            ++axis;
        } else if (en.kind == IndexKind::NewAxis) {
            basic.push_back(1);
        } else {
            const int64_t n = x.shape[axis++];
            std::optional<SliceBounds> b = en.slice ? readSliceValue(*en.slice) : std::nullopt;
            if (b && b->step && *b->step == 0) throw OpTypeError(opName + ": slice step cannot be zero");
            basic.push_back(b && n != kUnknownDim ? resolveSlice(b->start, b->stop, b->step, n).length : kUnknownDim);
        }
    }
    for (; axis < x.ndim(); ++axis) basic.push_back(x.shape[axis]);
    if (advShapes.empty()) return Type::tensor(x.dtype, std::move(basic));

    StaticShape adv;
    if (!broadcastStatic(advShapes, adv)) {
        std::string shapes;
        for (const auto& s : advShapes) shapes += (shapes.empty() ? "" : ", ") + shapeTuple(s);
        throw OpTypeError(opName + ": shape mismatch: indexing tensors could not be broadcast together with shapes [" + shapes + "]");
    }
    bool consecutive = true;
    for (size_t k = 1; k < advPositions.size(); ++k) consecutive = consecutive && advPositions[k] == advPositions[k - 1] + 1;
    // NumPy: separated advanced indices put their dims first.
    const size_t at = consecutive ? basicBeforeAdv : 0;
    StaticShape out(basic.begin(), basic.begin() + static_cast<std::ptrdiff_t>(at));
    out.insert(out.end(), adv.begin(), adv.end());
    out.insert(out.end(), basic.begin() + static_cast<std::ptrdiff_t>(at), basic.end());
    return Type::tensor(x.dtype, std::move(out));
}

// ---------------------------------------------------------------- the run-time plan

namespace {

// A resolved explicit entry at run time.
struct Entry {
    IndexKind kind;
    NDArray array;      // Integer: the index values (any integer dtype, any rank)
    SliceBounds slice;  // Slice
};

std::vector<int64_t> nonzeroRows(const NDArray& mask, int dim) {
    std::vector<int64_t> out;
    const int nd = mask.ndim();
    std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
    for (int64_t i = 0; i < mask.size(); ++i) {
        if (mask.get(idx) != 0.0) out.push_back(idx[static_cast<size_t>(dim)]);
        for (int d = nd - 1; d >= 0; --d) {
            if (++idx[static_cast<size_t>(d)] < mask.dim(d)) break;
            idx[static_cast<size_t>(d)] = 0;
        }
    }
    return out;
}

NDArray int64Vector(const std::vector<int64_t>& v) {
    NDArray a = NDArray::empty(DType::Int64, {static_cast<int64_t>(v.size())});
    if (!v.empty()) std::memcpy(a.rawData(), v.data(), v.size() * sizeof(int64_t));
    return a;
}

} // namespace

Plan::Plan(const NDArray& x, std::span<const NDArray> indices, std::span<const IndexKind> kinds, const std::string& opName) {
    if (indices.size() != kinds.size()) throw ExecError(opName + ": index values and kinds differ in number");
    std::vector<Entry> entries;
    int consumed = 0;
    for (size_t i = 0; i < indices.size(); ++i) {
        const NDArray& v = indices[i];
        switch (kinds[i]) {
        case IndexKind::Integer: {
            if (!v.valid() || !isInteger(v.dtype()))
                throw ExecError(opName + ": index " + std::to_string(i) + " must hold integers");
            entries.push_back({IndexKind::Integer, v, {}});
            ++consumed;
            break;
        }
        case IndexKind::Mask: {
            if (!v.valid() || v.dtype() != DType::Bool || v.ndim() == 0)
                throw ExecError(opName + ": index " + std::to_string(i) + " must be a boolean mask");
            for (int d = 0; d < v.ndim(); ++d) {
                const int ax = consumed + d;
                if (ax >= x.ndim()) break;  // reported as too many indices below
                if (v.dim(d) != x.dim(ax))
                    throw ExecError(opName + ": boolean index did not match indexed array along dimension " +
                                    std::to_string(ax) + "; dimension is " + std::to_string(x.dim(ax)) +
                                    " but corresponding boolean dimension is " + std::to_string(v.dim(d)));
            }
            for (int d = 0; d < v.ndim(); ++d) entries.push_back({IndexKind::Integer, int64Vector(nonzeroRows(v, d)), {}});
            consumed += v.ndim();
            break;
        }
        case IndexKind::Slice: {
            auto b = readSliceValue(v);
            if (!b) throw ExecError(opName + ": index " + std::to_string(i) + " is not a slice value");
            if (b->step && *b->step == 0) throw ExecError(opName + ": slice step cannot be zero");
            entries.push_back({IndexKind::Slice, NDArray(), *b});
            ++consumed;
            break;
        }
        case IndexKind::NewAxis: entries.push_back({IndexKind::NewAxis, NDArray(), {}}); break;
        }
    }
    if (consumed > x.ndim())
        throw ExecError(opName + ": too many indices for array: array is " + std::to_string(x.ndim()) +
                        "-dimensional, but " + std::to_string(consumed) + " were indexed");

    // Basic dims become strided levels; the advanced ones one table level.
    std::vector<Level> basic;
    Shape basicShape;
    std::vector<std::pair<const NDArray*, int>> adv;  // index array, axis of x
    std::vector<size_t> advPositions;
    size_t basicBeforeAdv = 0;
    m_base = x.offset();
    int axis = 0;
    for (size_t e = 0; e < entries.size(); ++e) {
        Entry& en = entries[e];
        if (en.kind == IndexKind::Integer) {
            if (adv.empty()) basicBeforeAdv = basic.size();
            adv.emplace_back(&en.array, axis++);
            advPositions.push_back(e);
        } else if (en.kind == IndexKind::NewAxis) {
            basic.push_back({1, 0, false});
            basicShape.push_back(1);
        } else {
            const ResolvedSlice r = resolveSlice(en.slice.start, en.slice.stop, en.slice.step, x.dim(axis));
            if (r.length > 0) m_base += r.start * x.strides()[static_cast<size_t>(axis)];
            basic.push_back({r.length, r.step * x.strides()[static_cast<size_t>(axis)], false});
            basicShape.push_back(r.length);
            ++axis;
        }
    }
    for (; axis < x.ndim(); ++axis) {
        basic.push_back({x.dim(axis), x.strides()[static_cast<size_t>(axis)], false});
        basicShape.push_back(x.dim(axis));
    }
    if (adv.empty()) {
        m_levels = std::move(basic);
        m_shape = std::move(basicShape);
        return;
    }

    // Broadcast the index arrays (NumPy's rules, at run time).
    Shape b;
    for (const auto& [a, ax] : adv) {
        const Shape& s = a->shape();
        if (s.size() > b.size()) b.insert(b.begin(), s.size() - b.size(), 1);
        for (size_t d = 0; d < s.size(); ++d) {
            int64_t& t = b[b.size() - s.size() + d];
            if (s[d] == t || s[d] == 1) continue;
            if (t != 1) {
                std::string shapes;
                for (const auto& [a2, ax2] : adv) shapes += (shapes.empty() ? "" : " ") + shapeToString(a2->shape());
                throw ExecError(opName + ": shape mismatch: indexing arrays could not be broadcast together with shapes " + shapes);
            }
            t = s[d];
        }
    }
    int64_t count = 1;
    for (int64_t d : b) count *= d;
    m_table.assign(static_cast<size_t>(count), 0);
    for (const auto& [a, ax] : adv) {
        const NDArray view = arrayop::broadcastView(*a, b, opName + ": index of shape " + shapeToString(a->shape()));
        const int64_t n = x.dim(ax), stride = x.strides()[static_cast<size_t>(ax)];
        size_t k = 0;
        dispatchDType(view.dtype(), [&](auto tag) {
            using T = decltype(tag);
            if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
                const T* src = static_cast<const T*>(view.storage()->data());
                arrayop::forEachOffsetPair(view.shape(), view.strides(), view.offset(), view.strides(), view.offset(),
                                           [&](int64_t o, int64_t) {
                                               const int64_t i = static_cast<int64_t>(src[o]);
                                               if (i < -n || i >= n)
                                                   throw ExecError(opName + ": index " + std::to_string(i) +
                                                                   " is out of bounds for axis " + std::to_string(ax) +
                                                                   " with size " + std::to_string(n));
                                               m_table[k++] += (i < 0 ? i + n : i) * stride;
                                           });
            }
        });
    }
    bool consecutive = true;
    for (size_t k = 1; k < advPositions.size(); ++k) consecutive = consecutive && advPositions[k] == advPositions[k - 1] + 1;
    const size_t at = consecutive ? basicBeforeAdv : 0;
    m_levels.assign(basic.begin(), basic.begin() + static_cast<std::ptrdiff_t>(at));
    m_levels.push_back({count, 0, true});
    m_levels.insert(m_levels.end(), basic.begin() + static_cast<std::ptrdiff_t>(at), basic.end());
    m_shape.assign(basicShape.begin(), basicShape.begin() + static_cast<std::ptrdiff_t>(at));
    m_shape.insert(m_shape.end(), b.begin(), b.end());
    m_shape.insert(m_shape.end(), basicShape.begin() + static_cast<std::ptrdiff_t>(at), basicShape.end());
}

int64_t Plan::size() const {
    int64_t n = 1;
    for (int64_t d : m_shape) n *= d;
    return n;
}

NDArray gather(const NDArray& x, const Plan& plan) {
    NDArray out = NDArray::empty(x.dtype(), plan.shape());
    dispatchDType(x.dtype(), [&](auto tag) {
        using T = decltype(tag);
        const T* src = static_cast<const T*>(x.storage()->data());
        T* dst = out.data<T>();
        plan.forEach([&](int64_t o) { *dst++ = src[o]; });
    });
    return out;
}

void scatter(const NDArray& target, const Plan& plan, const NDArray& y, ScatterMode mode, const std::string& where) {
    const Shape& region = plan.shape();
    // NumPy drops leading length-1 dims of a value with more dims than the region.
    NDArray v = y;
    while (v.ndim() > static_cast<int>(region.size())) {
        if (v.dim(0) != 1)
            throw ExecError(where + ": a value of shape " + shapeToString(y.shape()) + " does not fit the indexed region " +
                            shapeToString(region));
        Shape s(v.shape().begin() + 1, v.shape().end());
        Strides st(v.strides().begin() + 1, v.strides().end());
        v = v.view(std::move(s), std::move(st), v.offset());
    }
    const NDArray b = arrayop::broadcastView(v, region, where + ": value of shape " + shapeToString(y.shape()) + " into region");
    // The value in region order: a C-contiguous array, or one element repeated.
    const bool single = b.size() > 0 && y.size() == 1;
    const NDArray flat = single || b.isContiguous() ? b : b.copy();
    dispatchDType(target.dtype(), [&](auto tag) {
        using T = decltype(tag);
        T* dst = static_cast<T*>(target.storage()->data());
        const T* src = single ? y.data<T>() : flat.data<T>();
        auto add = [](T a, T c) -> T {
            if constexpr (std::is_same_v<T, bool>) return a || c;
            // Wrapping add, as NumPy (signed overflow is undefined in C++).
            else if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(c));
            else return a + c;
        };
        int64_t k = 0;
        auto next = [&]() -> T { return single ? src[0] : src[k++]; };
        switch (mode) {
        case ScatterMode::Set: plan.forEach([&](int64_t o) { dst[o] = next(); }); break;
        case ScatterMode::Add: plan.forEach([&](int64_t o) { dst[o] = add(dst[o], next()); }); break;
        case ScatterMode::AddOnce: {
            // x[idx] += y is x[idx] = x[idx] + y: every sum reads x before any write.
            std::vector<T> sums;
            sums.reserve(static_cast<size_t>(plan.size()));
            plan.forEach([&](int64_t o) { sums.push_back(add(dst[o], next())); });
            size_t j = 0;
            plan.forEach([&](int64_t o) { dst[o] = sums[j++]; });
            break;
        }
        }
    });
}

} // namespace tl::advindex
