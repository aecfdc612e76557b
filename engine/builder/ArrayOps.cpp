#include "builder/ArrayOps.h"

#include "builder/Math.h"
#include "ops/ARange.h"
#include "ops/Bartlett.h"
#include "ops/Choose.h"
#include "ops/Convolve1d.h"
#include "ops/Diagonal.h"
#include "ops/EyeTri.h"
#include "ops/FillDiagonal.h"
#include "ops/Nonzero.h"
#include "ops/Pad.h"
#include "ops/PermuteRowElements.h"
#include "ops/RavelMultiIndex.h"
#include "ops/Repeat.h"
#include "ops/Searchsorted.h"
#include "ops/Sort.h"
#include "ops/Split.h"
#include "ops/Unique.h"
#include "ops/UnravelIndex.h"

#include <stdexcept>

namespace tl {

namespace {
Var asVar(GraphBuilder& b, const IntArg& a) { return a.isVar() ? b.capture(a.var()) : intConstant(b, a.value()); }

Var int64Constant(GraphBuilder& b, int64_t v) {
    NDArray a = NDArray::empty(DType::Int64, {});
    a.data<int64_t>()[0] = v;
    return b.constant(std::move(a));
}

Var int64Vector(GraphBuilder& b, const std::vector<int64_t>& v, Shape shape) {
    NDArray a = NDArray::empty(DType::Int64, shape);
    std::copy(v.begin(), v.end(), a.data<int64_t>());
    return b.constant(std::move(a));
}

int normalizeAxis(int axis, int ndim, const char* what) {
    if (axis < -ndim || axis >= ndim)
        throw std::invalid_argument(std::string(what) + ": axis " + std::to_string(axis) + " is out of bounds for " +
                                    std::to_string(ndim) + " dimensions");
    return axis < 0 ? axis + ndim : axis;
}

Var flatten(Var x) { return x.ndim() == 1 ? x : reshape(x, {int64_t(-1)}); }
} // namespace

Var arange(Var start, Var stop, Var step, std::optional<DType> dtype) {
    if (!dtype) {
        DType d = promote(promote(start.dtype(), stop.dtype()), step.dtype());
        // PyTensor: "don't try to be stingy and byte-optimize": integers become int64.
        if (isInteger(d) || d == DType::Bool) d = DType::Int64;
        dtype = d;
    }
    GraphBuilder& b = start.builder();
    return b.apply1(makeARange(*dtype), {start, b.capture(stop), b.capture(step)});
}

Var arange(Var stop) {
    GraphBuilder& b = stop.builder();
    return arange(intConstant(b, 0), stop, intConstant(b, 1));
}

Var arange(GraphBuilder& b, int64_t stop) { return arange(intConstant(b, 0), intConstant(b, stop), intConstant(b, 1)); }

Var arange(GraphBuilder& b, int64_t start, int64_t stop, int64_t step) {
    return arange(intConstant(b, start), intConstant(b, stop), intConstant(b, step));
}

Var eye(GraphBuilder& b, IntArg n, std::optional<IntArg> m, IntArg k, DType dtype) {
    Var nv = asVar(b, n);
    Var mv = m ? asVar(b, *m) : nv;
    return b.apply1(makeEye(dtype), {nv, mv, asVar(b, k)});
}

Var tri(GraphBuilder& b, IntArg n, std::optional<IntArg> m, IntArg k, DType dtype) {
    Var nv = asVar(b, n);
    Var mv = m ? asVar(b, *m) : nv;
    return b.apply1(makeTri(dtype), {nv, mv, asVar(b, k)});
}

Var diagonal(Var a, int64_t offset, int axis1, int axis2) {
    axis1 = normalizeAxis(axis1, a.ndim(), "diagonal");
    axis2 = normalizeAxis(axis2, a.ndim(), "diagonal");
    return a.builder().apply1(makeExtractDiag(offset, axis1, axis2, true), {a});
}

Var allocDiag(Var v, int64_t offset, int axis1, int axis2) {
    axis1 = normalizeAxis(axis1, v.ndim() + 1, "alloc_diag");
    axis2 = normalizeAxis(axis2, v.ndim() + 1, "alloc_diag");
    return v.builder().apply1(makeAllocDiag(axis1, axis2, offset), {v});
}

Var diag(Var v, int64_t k) {
    if (v.ndim() == 1) return allocDiag(v, k);
    if (v.ndim() >= 2) return diagonal(v, k);
    throw std::invalid_argument("diag: input must have at least one dimension, got " + v.type().toString());
}

namespace {
// make_node's val = cast(val, upcast(a.dtype, val.dtype)), refused unless that is a's dtype.
Var diagonalValue(Var a, Var val, const char* op) {
    const DType up = promote(a.dtype(), val.dtype());
    if (up != a.dtype())
        throw std::invalid_argument(std::string(op) + ": type of second parameter must be the same as the first's (" +
                                    std::string(dtypeName(a.dtype())) + "), not " + std::string(dtypeName(val.dtype())));
    return cast(val, up);
}
} // namespace

Var fillDiagonal(Var a, Var val) {
    GraphBuilder& b = a.builder();
    return b.apply1(makeFillDiagonal(), {a, diagonalValue(a, b.capture(val), "FillDiagonal")});
}

Var fillDiagonalOffset(Var a, Var val, IntArg offset) {
    GraphBuilder& b = a.builder();
    return b.apply1(makeFillDiagonalOffset(), {a, diagonalValue(a, b.capture(val), "FillDiagonalOffset"), asVar(b, offset)});
}

std::vector<Var> split(Var x, const std::vector<int64_t>& sizes, IntArg axis) {
    GraphBuilder& b = x.builder();
    return split(x, int64Vector(b, sizes, {static_cast<int64_t>(sizes.size())}), static_cast<int>(sizes.size()), axis);
}

std::vector<Var> split(Var x, Var sizes, int numSplits, IntArg axis) {
    GraphBuilder& b = x.builder();
    return b.apply(makeSplit(numSplits), {x, asVar(b, axis), b.capture(sizes)});
}

Var repeat(Var x, Var repeats, std::optional<int> axis) {
    GraphBuilder& b = x.builder();
    repeats = b.capture(repeats);
    if (repeats.ndim() > 1) throw std::invalid_argument("repeat: the dimension of repeats should not exceed 1");
    if (axis) axis = normalizeAxis(*axis, x.ndim(), "repeat");
    if (repeats.ndim() == 1 && repeats.type().shape[0] != 1) return b.apply1(makeRepeat(axis), {x, repeats});
    // One count: alloc(expand_dims(x, axis + 1), *shape[:axis + 1], repeats, *shape[axis + 1:]).reshape(...).
    if (repeats.ndim() == 1) repeats = index(repeats, 0);
    int ax = 0;
    if (axis) ax = *axis;
    else x = flatten(x);
    Var shp = shape(x);
    std::vector<IntArg> allocShape, repeatShape;
    for (int d = 0; d < x.ndim(); ++d) {
        Var dim = index(shp, d);
        allocShape.push_back(dim);
        repeatShape.push_back(d == ax ? mul({dim, repeats}) : dim);
    }
    allocShape.insert(allocShape.begin() + ax + 1, repeats);
    return reshape(alloc(expandDims(x, ax + 1), allocShape), repeatShape);
}

Var repeat(Var x, int64_t repeats, std::optional<int> axis) { return repeat(x, intConstant(x.builder(), repeats), axis); }

namespace {
Var sortLike(OpPtr op, Var x, std::optional<int> axis) {
    GraphBuilder& b = x.builder();
    if (!axis) {
        x = flatten(x);
        axis = 0;
    }
    return b.apply1(std::move(op), {x, int64Constant(b, *axis)});
}
} // namespace

Var sort(Var x, std::optional<int> axis, const std::string& kind) { return sortLike(makeSort(kind), x, axis); }
Var argsort(Var x, std::optional<int> axis, const std::string& kind) { return sortLike(makeArgSort(kind), x, axis); }

Var searchsorted(Var x, Var v, const std::string& side, std::optional<Var> sorter) {
    GraphBuilder& b = x.builder();
    std::vector<Var> ins{x, b.capture(v)};
    if (sorter) ins.push_back(b.capture(*sorter));
    return b.apply1(makeSearchsorted(side), std::move(ins));
}

std::vector<Var> nonzero(Var a) { return a.builder().apply(makeNonzero(), {a}); }

Var flatnonzero(Var a) {
    if (a.ndim() == 0) throw std::invalid_argument("Nonzero only supports non-scalar arrays");
    return nonzero(flatten(a))[0];
}

std::vector<Var> unique(Var x, bool returnIndex, bool returnInverse, bool returnCounts, std::optional<int> axis) {
    UniqueOptions o{returnIndex, returnInverse, returnCounts, std::nullopt};
    if (axis) o.axis = normalizeAxis(*axis, x.ndim(), "unique");
    return x.builder().apply(makeUnique(o), {x});
}

Var choose(Var a, Var choices, const std::string& mode) {
    GraphBuilder& b = a.builder();
    return b.apply1(makeChoose(mode), {a, b.capture(choices)});
}

Var permuteRowElements(Var x, Var y, bool inverse) {
    GraphBuilder& b = x.builder();
    y = b.capture(y);
    auto padLeft = [](Var v, int n) {
        std::vector<int> order(static_cast<size_t>(n), -1);
        for (int d = 0; d < v.ndim(); ++d) order.push_back(d);
        return dimshuffle(v, order);
    };
    if (x.ndim() > y.ndim()) y = padLeft(y, x.ndim() - y.ndim());
    else if (x.ndim() < y.ndim()) x = padLeft(x, y.ndim() - x.ndim());
    return b.apply1(makePermuteRowElements(inverse), {x, y});
}

Var bartlett(GraphBuilder& b, IntArg m) { return b.apply1(makeBartlett(), {asVar(b, m)}); }

Var convolve1d(Var in1, Var in2, const std::string& mode) {
    if (mode != "full" && mode != "valid") throw std::invalid_argument("convolve1d: mode must be 'full' or 'valid', got '" + mode + "'");
    GraphBuilder& b = in1.builder();
    return b.apply1(makeConvolve1d(), {in1, b.capture(in2), b.scalarConstant(mode == "full" ? 1 : 0, DType::Bool)});
}

Var pad(Var x, Var padWidth, const std::string& mode, std::optional<Var> values) {
    GraphBuilder& b = x.builder();
    auto op = makePad(mode, mode == "reflect" || mode == "symmetric" ? "even" : "", values && (mode == "maximum" || mode == "minimum" || mode == "mean"));
    std::vector<Var> ins{x, b.capture(padWidth)};
    if (mode == "constant" || mode == "linear_ramp") ins.push_back(values ? b.capture(*values) : intConstant(b, 0));
    else if (values) ins.push_back(b.capture(*values));
    return b.apply1(op, std::move(ins));
}

Var pad(Var x, const std::vector<int64_t>& padWidth, const std::string& mode, std::optional<Var> values) {
    GraphBuilder& b = x.builder();
    Var w;
    if (padWidth.size() == 1) w = intConstant(b, padWidth[0]);
    else if (padWidth.size() == 2) w = int64Vector(b, padWidth, {2});
    else if (padWidth.size() == 2 * static_cast<size_t>(x.ndim())) w = int64Vector(b, padWidth, {x.ndim(), 2});
    else throw std::invalid_argument("pad: pad_width must hold 1, 2 or 2 * ndim integers, got " + std::to_string(padWidth.size()));
    return pad(x, w, mode, values);
}

Var ravelMultiIndex(const std::vector<Var>& multiIndex, Var dims, const std::vector<std::string>& modes,
                    const std::string& order) {
    if (multiIndex.empty()) throw std::invalid_argument("ravel_multi_index: multi_index must hold at least one index array");
    GraphBuilder& b = multiIndex[0].builder();
    std::vector<Var> ins;
    for (const Var& v : multiIndex) ins.push_back(b.capture(v));
    ins.push_back(b.capture(dims));
    return b.apply1(makeRavelMultiIndex(modes, order), std::move(ins));
}

Var ravelMultiIndex(const std::vector<Var>& multiIndex, const std::vector<int64_t>& dims,
                    const std::vector<std::string>& modes, const std::string& order) {
    if (multiIndex.empty()) throw std::invalid_argument("ravel_multi_index: multi_index must hold at least one index array");
    GraphBuilder& b = multiIndex[0].builder();
    return ravelMultiIndex(multiIndex, int64Vector(b, dims, {static_cast<int64_t>(dims.size())}), modes, order);
}

std::vector<Var> unravelIndex(Var indices, Var dims, const std::string& order) {
    GraphBuilder& b = indices.builder();
    return b.apply(makeUnravelIndex(order), {indices, b.capture(dims)});
}

std::vector<Var> unravelIndex(Var indices, const std::vector<int64_t>& dims, const std::string& order) {
    GraphBuilder& b = indices.builder();
    return unravelIndex(indices, int64Vector(b, dims, {static_cast<int64_t>(dims.size())}), order);
}

} // namespace tl
