#include "builder/Indexing.h"

#include "builder/AdvancedIndexing.h"
#include "builder/Math.h"

#include "ops/Alloc.h"
#include "ops/ArrayOpUtil.h"
#include "ops/Assert.h"
#include "ops/DeepCopy.h"
#include "ops/DimShuffle.h"
#include "ops/Dot.h"
#include "ops/IncSubtensor.h"
#include "ops/Join.h"
#include "ops/MakeVector.h"
#include "ops/Reduce.h"
#include "ops/Reshape.h"
#include "ops/Shape.h"
#include "ops/SpecifyShape.h"
#include "ops/Subtensor.h"
#include "ops/TensorScalar.h"
#include "ops/Unbroadcast.h"

#include <algorithm>
#include <stdexcept>

namespace tl {

namespace {

NDArray int64Scalar(int64_t v) {
    NDArray a = NDArray::empty(DType::Int64, {});
    a.data<int64_t>()[0] = v;
    return a;
}

/// An index input as Subtensor takes it: an int64 ScalarType constant for a Python int,
/// a ScalarType variable as is, a 0-d tensor through ScalarFromTensor (PyTensor's as_nontensor_scalar).
Var indexInput(GraphBuilder& b, const IntArg& a, const char* what) {
    if (!a.isVar()) return b.constant(int64Scalar(a.value()), Type::scalar(DType::Int64));
    const Var& v = a.var();
    if (!arrayop::isIntScalarLike(v.type()))
        throw std::invalid_argument(std::string(what) + " must be an integer scalar, got " + v.type().toString());
    return v.type().isScalarType() ? v : scalarFromTensor(v);
}

/// A dim / axis input as a 0-d int tensor: a Python int becomes the smallest-dtype constant.
Var dimInput(GraphBuilder& b, const IntArg& a, const char* what) {
    if (!a.isVar()) return intConstant(b, a.value());
    const Var& v = a.var();
    if (!arrayop::isIntScalarLike(v.type()))
        throw std::invalid_argument(std::string(what) + " must be an integer scalar, got " + v.type().toString());
    return v.type().isScalarType() ? tensorFromScalar(v) : v;
}

int normalizeAxis(int axis, int ndim, const char* what) {
    if (axis < -ndim || axis >= ndim)
        throw std::invalid_argument(std::string(what) + ": axis " + std::to_string(axis) + " is out of bounds for " +
                                    std::to_string(ndim) + " dimensions");
    return axis < 0 ? axis + ndim : axis;
}

Var incOrSet(Var x, Var y, const std::vector<Idx>& idx, bool set, bool inplace) {
    GraphBuilder& b = x.builder();
    std::vector<IndexEntry> entries;
    std::vector<Var> ins{x, y};
    for (const Idx& e : idx) {
        if (!e.isSlice()) {
            entries.push_back({IndexEntry::Kind::Index});
            ins.push_back(indexInput(b, e.index(), "index"));
            continue;
        }
        const Slice& s = e.slice();
        entries.push_back({IndexEntry::Kind::Slice, s.start.has_value(), s.stop.has_value(), s.step.has_value()});
        if (s.start) ins.push_back(indexInput(b, *s.start, "slice start"));
        if (s.stop) ins.push_back(indexInput(b, *s.stop, "slice stop"));
        if (s.step) ins.push_back(indexInput(b, *s.step, "slice step"));
    }
    return b.apply1(makeIncSubtensor(std::move(entries), set, inplace), std::move(ins));
}

Var incOrSetOfSubtensor(Var sub, Var y, bool set) {
    Node* n = sub.get()->owner();
    if (n && (n->op().kind() == OpKind::AdvancedSubtensor || n->op().kind() == OpKind::AdvancedSubtensor1))
        return advancedIncSubtensor(sub, y, set);
    const auto* op = n ? dynamic_cast<const SubtensorOp*>(&n->op()) : nullptr;
    if (!op)
        throw std::invalid_argument(std::string(set ? "setSubtensor" : "incSubtensor") +
                                    ": the first argument must be the result of a Subtensor (x[...])");
    GraphBuilder& b = sub.builder();
    std::vector<Var> ins{b.wrap(n->input(0)), y};
    for (int i = 1; i < n->numInputs(); ++i) ins.push_back(b.wrap(n->input(i)));
    return b.apply1(makeIncSubtensor(op->entries(), set, false), std::move(ins));
}

Var reduce(ReduceKind kind, Var x, std::optional<std::vector<int>> axes) {
    if (axes)
        for (int& a : *axes) a = normalizeAxis(a, std::max(1, x.ndim()), "reduction");
    return x.builder().apply1(makeReduce(kind, std::move(axes)), {x});
}

} // namespace

Var intConstant(GraphBuilder& b, int64_t v) {
    NDArray a = NDArray::empty(arrayop::smallestIntDType(v), {});
    dispatchDType(a.dtype(), [&](auto t) { a.data<decltype(t)>()[0] = static_cast<decltype(t)>(v); });
    return b.constant(std::move(a));
}

Var subtensor(Var x, const std::vector<Idx>& idx) {
    const bool allFull = std::all_of(idx.begin(), idx.end(), [](const Idx& e) {
        return e.isSlice() && !e.slice().start && !e.slice().stop && !e.slice().step;
    });
    if (allFull) return x;
    GraphBuilder& b = x.builder();
    std::vector<IndexEntry> entries;
    std::vector<Var> ins{x};
    for (const Idx& e : idx) {
        if (!e.isSlice()) {
            entries.push_back({IndexEntry::Kind::Index});
            ins.push_back(indexInput(b, e.index(), "index"));
            continue;
        }
        const Slice& s = e.slice();
        entries.push_back({IndexEntry::Kind::Slice, s.start.has_value(), s.stop.has_value(), s.step.has_value()});
        if (s.start) ins.push_back(indexInput(b, *s.start, "slice start"));
        if (s.stop) ins.push_back(indexInput(b, *s.stop, "slice stop"));
        if (s.step) ins.push_back(indexInput(b, *s.step, "slice step"));
    }
    return b.apply1(makeSubtensor(std::move(entries)), std::move(ins));
}

Var index(Var x, IntArg i) { return subtensor(std::move(x), {Idx(std::move(i))}); }

Var slice(Var x, std::optional<IntArg> start, std::optional<IntArg> stop, std::optional<IntArg> step) {
    return subtensor(std::move(x), {Idx(Slice{std::move(start), std::move(stop), std::move(step)})});
}

Var setSubtensor(Var x, Var y, const std::vector<Idx>& idx, bool inplace) { return incOrSet(x, y, idx, true, inplace); }
Var incSubtensor(Var x, Var y, const std::vector<Idx>& idx, bool inplace) { return incOrSet(x, y, idx, false, inplace); }
Var setSubtensor(Var sub, Var y) { return incOrSetOfSubtensor(sub, y, true); }
Var incSubtensor(Var sub, Var y) { return incOrSetOfSubtensor(sub, y, false); }

Var dimshuffle(Var x, std::vector<int> order) {
    return x.builder().apply1(makeDimShuffle(x.ndim(), std::move(order)), {x});
}

Var expandDims(Var x, int axis) { return expandDims(std::move(x), std::vector<int>{axis}); }

Var expandDims(Var x, std::vector<int> axes) {
    const int outNdim = x.ndim() + static_cast<int>(axes.size());
    for (int& a : axes) a = normalizeAxis(a, outNdim, "expandDims");
    std::vector<int> order;
    for (int d = 0, next = 0; d < outNdim; ++d)
        order.push_back(std::find(axes.begin(), axes.end(), d) != axes.end() ? -1 : next++);
    if (std::count(order.begin(), order.end(), -1) != static_cast<long>(axes.size()))
        throw std::invalid_argument("expandDims: repeated axis");
    return dimshuffle(std::move(x), std::move(order));
}

Var squeeze(Var x, std::vector<int> axes) {
    if (axes.empty()) {
        for (int d = 0; d < x.ndim(); ++d)
            if (x.type().shape[d] == 1) axes.push_back(d);
        if (axes.empty()) return x;
    }
    for (int& a : axes) {
        a = normalizeAxis(a, x.ndim(), "squeeze");
        const int64_t s = x.type().shape[a];
        if (s != 1 && s != kUnknownDim)
            throw std::invalid_argument("squeeze: axis " + std::to_string(a) + " of " + x.type().toString() +
                                        " has length " + std::to_string(s));
    }
    std::vector<int> order;
    for (int d = 0; d < x.ndim(); ++d)
        if (std::find(axes.begin(), axes.end(), d) == axes.end()) order.push_back(d);
    return dimshuffle(std::move(x), std::move(order));
}

Var dropDims(Var x, int axis) { return squeeze(std::move(x), {axis}); }

Var transpose(Var x, std::optional<std::vector<int>> axes) {
    std::vector<int> order;
    if (axes) {
        order = *axes;
        for (int& a : order) a = normalizeAxis(a, x.ndim(), "transpose");
    } else {
        for (int d = x.ndim() - 1; d >= 0; --d) order.push_back(d);
    }
    bool identity = static_cast<int>(order.size()) == x.ndim();
    for (size_t i = 0; identity && i < order.size(); ++i) identity = order[i] == static_cast<int>(i);
    if (identity) return x;
    return dimshuffle(std::move(x), std::move(order));
}

Var unbroadcast(Var x, std::vector<int> axes) {
    std::vector<int> keep;
    for (int a : axes) {
        a = normalizeAxis(a, x.ndim(), "unbroadcast");
        if (x.type().shape[a] == 1 && std::find(keep.begin(), keep.end(), a) == keep.end()) keep.push_back(a);
    }
    if (keep.empty()) return x;
    return x.builder().apply1(makeUnbroadcast(std::move(keep)), {x});
}

Var specifyShape(Var x, const std::vector<std::optional<IntArg>>& shape) {
    GraphBuilder& b = x.builder();
    // As PyTensor's specify_shape: nothing to add when the static shape already says it.
    if (static_cast<int>(shape.size()) == x.ndim()) {
        bool same = true;
        for (size_t i = 0; i < shape.size() && same; ++i)
            same = !shape[i] || (!shape[i]->isVar() && x.type().shape[i] == shape[i]->value());
        if (same) return x;
    }
    std::vector<Var> ins{x};
    for (const std::optional<IntArg>& d : shape) ins.push_back(d ? dimInput(b, *d, "specifyShape dim") : noneConst(b));
    return b.apply1(makeSpecifyShape(), std::move(ins));
}

Var shape(Var x) { return x.builder().apply1(makeShape(), {x}); }

Var shapeI(Var x, int i) { return x.builder().apply1(makeShapeI(normalizeAxis(i, x.ndim(), "shapeI")), {x}); }

Var reshape(Var x, const std::vector<IntArg>& newShape) {
    GraphBuilder& b = x.builder();
    const int nd = static_cast<int>(newShape.size());
    Var shp;
    if (std::none_of(newShape.begin(), newShape.end(), [](const IntArg& a) { return a.isVar(); })) {
        NDArray c = NDArray::empty(DType::Int64, {nd});
        for (int i = 0; i < nd; ++i) c.data<int64_t>()[i] = newShape[i].value();
        shp = b.constant(std::move(c));
    } else {
        std::vector<Var> parts;
        std::vector<std::optional<int64_t>> known;
        for (const IntArg& d : newShape) {
            parts.push_back(d.isVar() ? dimInput(b, d, "reshape dim") : b.constant(int64Scalar(d.value())));
            known.push_back(d.isVar() ? std::nullopt : std::optional<int64_t>(d.value()));
        }
        shp = makeVector(b, parts, DType::Int64);
        // PyTensor reads the static dims from the Python list; the op sees only a
        // MakeVector, so the builder declares the output type it computed.
        OpPtr op = makeReshape(nd);
        const std::vector<Type> declared{Type::tensor(x.dtype(), reshapeStaticShape(x.type(), known, op->name()))};
        Var xin = b.capture(x);
        return b.wrap(b.assembler().addNode(op, {xin.get(), shp.get()}, std::nullopt, &declared)->output(0));
    }
    return b.apply1(makeReshape(nd), {x, shp});
}

Var join(IntArg axis, const std::vector<Var>& tensors) {
    if (tensors.empty()) throw std::invalid_argument("join: cannot join an empty list of tensors");
    if (tensors.size() == 1) return tensors[0];
    GraphBuilder& b = tensors[0].builder();
    if (!axis.isVar()) axis = IntArg(static_cast<int64_t>(normalizeAxis(static_cast<int>(axis.value()), tensors[0].ndim(), "join")));
    std::vector<Var> ins{dimInput(b, axis, "join axis")};
    ins.insert(ins.end(), tensors.begin(), tensors.end());
    return b.apply1(makeJoin(), std::move(ins));
}

Var dot(Var a, Var b) { return a.builder().apply1(makeDot(), {a, b}); }
Var sum(Var x, std::optional<std::vector<int>> axes) { return reduce(ReduceKind::Sum, std::move(x), std::move(axes)); }
Var max(Var x, std::optional<std::vector<int>> axes) { return reduce(ReduceKind::Max, std::move(x), std::move(axes)); }
Var prod(Var x, std::optional<std::vector<int>> axes) { return reduce(ReduceKind::Prod, std::move(x), std::move(axes)); }

Var min(Var x, std::optional<std::vector<int>> axes) {
    if (x.dtype() == DType::Bool) throw std::invalid_argument("min: bool tensors have no min (as in PyTensor); cast first");
    if (isInteger(x.dtype()) && !isSigned(x.dtype())) return invert(max(invert(x), std::move(axes)));
    return neg(max(neg(x), std::move(axes)));
}

Var mean(Var x, std::optional<std::vector<int>> axes) {
    std::vector<int> reduced;
    if (axes)
        for (int a : *axes) reduced.push_back(normalizeAxis(a, std::max(1, x.ndim()), "mean"));
    else
        for (int a = 0; a < x.ndim(); ++a) reduced.push_back(a);
    Var s = sum(x, std::move(axes));
    const DType countType = s.dtype() == DType::Float32 ? DType::Float32 : DType::Float64;
    for (int a : reduced)
        if (a < x.ndim()) s = trueDiv(s, cast(shapeI(x, a), countType));
    return s;
}

Var alloc(Var value, const std::vector<IntArg>& dims) {
    GraphBuilder& b = value.builder();
    std::vector<Var> ins{value};
    for (const IntArg& d : dims) ins.push_back(dimInput(b, d, "alloc dim"));
    return b.apply1(makeAlloc(), std::move(ins));
}

Var allocEmpty(GraphBuilder& b, DType dtype, const std::vector<IntArg>& dims) {
    std::vector<Var> ins;
    for (const IntArg& d : dims) ins.push_back(dimInput(b, d, "allocEmpty dim"));
    return b.apply1(makeAllocEmpty(dtype), std::move(ins));
}

Var zerosLike(Var x) {
    GraphBuilder& b = x.builder();
    if (x.type().isScalarType()) return b.scalarConstant(0, x.dtype());
    std::vector<IntArg> dims;
    for (int d = 0; d < x.ndim(); ++d) {
        const int64_t s = x.type().shape[d];
        dims.push_back(s == kUnknownDim ? IntArg(shapeI(x, d)) : IntArg(s));
    }
    if (dims.empty()) return b.constant(0, x.dtype());
    return alloc(b.constant(0, x.dtype()), dims);
}

Var deepCopy(Var x) { return x.builder().apply1(makeDeepCopy(), {x}); }

Var assertOp(Var x, const std::vector<Var>& conds, std::string msg) {
    std::vector<Var> ins{x};
    ins.insert(ins.end(), conds.begin(), conds.end());
    return x.builder().apply1(makeAssert(std::move(msg)), std::move(ins));
}

Var scalarFromTensor(Var x) { return x.builder().apply1(makeScalarFromTensor(), {x}); }
Var tensorFromScalar(Var x) { return x.builder().apply1(makeTensorFromScalar(), {x}); }

Var makeVector(GraphBuilder& b, const std::vector<Var>& values, DType dtype) {
    return b.apply1(makeMakeVector(dtype), values);
}

} // namespace tl
