#include "rewrite/LocalRewriteUtil.h"

#include <limits>

#include "ir/SliceValue.h"
#include "ops/Alloc.h"
#include "ops/Blockwise.h"
#include "ops/DimShuffle.h"
#include "ops/MakeVector.h"
#include "ops/Elemwise.h"
#include "ops/Shape.h"
#include "ops/TensorScalar.h"
#include "rewrite/StaticShapeValue.h"

#include <cstring>
#include <utility>

namespace tl::rw {

const Variable* constantBehind(const Variable& v) {
    const Variable* cur = &v;
    // Iterative: a chain of DimShuffles can be long.
    while (!cur->isConstant()) {
        const Node* owner = cur->owner();
        if (!owner || owner->op().kind() != OpKind::DimShuffle) return nullptr;
        cur = owner->input(0);
    }
    return cur;
}

namespace {
// Whether every element of the contiguous `flat` equals its first: bytes compared
// (exact for every dtype), then for floats values (0.0 and -0.0 are equal).
bool allEqualToFirst(const NDArray& flat) {
    const size_t width = dtypeSize(flat.dtype());
    const char* base = static_cast<const char*>(flat.rawData());
    for (int64_t i = 1; i < flat.size(); ++i)
        if (std::memcmp(base, base + i * width, width) != 0) {
            if (!isFloat(flat.dtype()) || flat.flatGet(i) != flat.flatGet(0)) return false;
        }
    return true;
}
} // namespace

std::optional<NDArray> uniqueValue(const Variable& v) {
    const Variable* c = constantBehind(v);
    if (!c) return std::nullopt;
    const NDArray& a = c->constantValue();
    if (a.size() == 0) return std::nullopt;
    if (a.size() == 1) return a.ndim() == 0 ? a : a.view({}, {}, a.offset());
    const NDArray flat = a.isContiguous() ? a : a.copy();
    if (!allEqualToFirst(flat)) return std::nullopt;
    NDArray first = NDArray::empty(a.dtype(), {});
    std::memcpy(first.rawData(), flat.rawData(), dtypeSize(a.dtype()));
    return first;
}

bool isConstantEqualTo(const Variable& v, double value) {
    // The question every local rewrite asks of its inputs: no array is made for it.
    const Variable* c = constantBehind(v);
    if (!c || c->constantValue().size() == 0) return false;
    const NDArray& a = c->constantValue();
    const NDArray flat = a.isContiguous() ? a : a.copy();
    return allEqualToFirst(flat) && flat.flatGet(0) == value;
}

std::optional<int64_t> constantIntOf(const Variable& v) {
    if (!v.isConstant()) return std::nullopt;
    const NDArray& a = v.constantValue();
    if (a.size() != 1 || !(isInteger(a.dtype()) || a.dtype() == DType::Bool)) return std::nullopt;
    return a.itemInt();
}

NDArray scalarArray(DType dtype, int64_t value) {
    NDArray a = NDArray::empty(dtype, {});
    dispatchDType(dtype, [&](auto t) {
        using T = decltype(t);
        if constexpr (std::is_same_v<T, bool>) a.data<T>()[0] = value != 0;
        else a.data<T>()[0] = static_cast<T>(value);  // integer conversions wrap (C++20)
    });
    return a;
}

Type expandedType(const Type& t, int ndim) {
    Type out = t;
    if (t.isScalarType() || t.ndim() >= ndim) return out;
    StaticShape s(static_cast<size_t>(ndim - t.ndim()), 1);
    s.insert(s.end(), t.shape.begin(), t.shape.end());
    out.shape = std::move(s);
    return out;
}

Variable* expandLeft(Rewriter& rw, Variable* v, int ndim) {
    const int nd = v->type().ndim();
    if (nd >= ndim) return v;
    // Elemwise.make_node's dimshuffle(['x'] * difference + list(range(nd))).
    std::vector<int> order(static_cast<size_t>(ndim - nd), -1);
    for (int d = 0; d < nd; ++d) order.push_back(d);
    return rw.create(makeDimShuffle(nd, std::move(order)), {v})->output(0);
}

Variable* makeElemwiseOf(Rewriter& rw, ScalarOpCode code, std::vector<Variable*> inputs, DType castTo) {
    int nd = 0;
    for (Variable* v : inputs) nd = std::max(nd, v->type().ndim());
    for (Variable*& v : inputs) v = expandLeft(rw, v, nd);
    return rw.create(makeElemwise(code, castTo), std::move(inputs))->output(0);
}

Variable* dimShuffle(Rewriter& rw, Variable* v, std::vector<int> order) {
    return rw.create(makeDimShuffle(v->type().ndim(), std::move(order)), {v})->output(0);
}

Variable* reshapeTo(Rewriter& rw, Variable* v, std::vector<Variable*> dims) {
    const int n = static_cast<int>(dims.size());
    Variable* shape = rw.create(makeMakeVector(DType::Int64), std::move(dims))->output(0);
    return reshapeWithStaticShape(rw, v, shape, n);
}

Variable* castTo(Rewriter& rw, Variable* v, DType dtype) {
    if (v->type().dtype == dtype) return v;
    if (v->isConstant() && !v->type().isScalarType()) return rw.constant(v->constantValue().astype(dtype));
    return makeElemwiseOf(rw, ScalarOpCode::Cast, {v}, dtype);
}

Variable* asInt64Scalar(Rewriter& rw, Variable* dim) {
    if (auto c = constantIntOf(*dim)) return rw.constant(scalarArray(DType::Int64, *c));
    Variable* t = dim;
    if (t->type().isScalarType()) t = rw.create(makeTensorFromScalar(), {t})->output(0);
    return castTo(rw, t, DType::Int64);
}

std::vector<SubtensorPart> subtensorParts(const Node& subtensor) {
    std::vector<SubtensorPart> parts;
    int pos = 1;
    for (const IndexEntry& e : static_cast<const SubtensorOp&>(subtensor.op()).entries()) {
        SubtensorPart p{e};
        if (e.kind == IndexEntry::Kind::Index) {
            p.index = subtensor.input(pos++);
        } else {
            if (e.hasStart) p.start = subtensor.input(pos++);
            if (e.hasStop) p.stop = subtensor.input(pos++);
            if (e.hasStep) p.step = subtensor.input(pos++);
        }
        parts.push_back(p);
    }
    return parts;
}

Variable* fillLike(Rewriter& rw, const NDArray& value, Variable* like) { return allocLike(rw, rw.constant(value), like); }

Variable* fullLike(Rewriter& rw, DType dtype, int64_t value, Variable* like) {
    if (like->type().ndim() == 0) return rw.constant(scalarArray(dtype, value));
    return fillLike(rw, scalarArray(dtype, value), like);
}

Variable* allocLike(Rewriter& rw, Variable* value, Variable* like) {
    std::vector<Variable*> ins{value};
    for (int d = 0; d < like->type().ndim(); ++d) ins.push_back(dimOf(rw, like, d));
    return rw.create(makeAlloc(), std::move(ins))->output(0);
}

Variable* noneConstant(Rewriter& rw) {
    // The graph's own when it has one (merge would make the copies one anyway).
    for (Variable* c : rw.graph().constants())
        if (c->type().isNoneType()) return c;
    return rw.constant(noneValue(), Type::none());
}

Variable* dimOf(Rewriter& rw, Variable* v, int d) {
    const int64_t n = v->type().shape[static_cast<size_t>(d)];
    if (n != kUnknownDim) return rw.constant(scalarArray(DType::Int64, n));
    return rw.create(makeShapeI(d), {v})->output(0);
}

std::optional<Type> elemwiseTypeOf(ScalarOpCode code, const std::vector<Type>& inputs, DType castTo) {
    int nd = 0;
    for (const Type& t : inputs) {
        if (t.isScalarType()) return std::nullopt;
        nd = std::max(nd, t.ndim());
    }
    std::vector<Type> aligned;
    for (const Type& t : inputs) aligned.push_back(expandedType(t, nd));
    std::vector<const Type*> ptrs;
    for (const Type& t : aligned) ptrs.push_back(&t);
    try {
        return makeElemwise(code, castTo)->inferTypes(ptrs).at(0);
    } catch (const OpTypeError&) {
        return std::nullopt;
    }
}

bool compatibleTypes(const Type& a, const Type& b) { return a.accepts(b) || b.accepts(a); }

bool sameBroadcastPattern(const Type& a, const Type& b) {
    if (a.kind != b.kind || a.ndim() != b.ndim()) return false;
    for (int d = 0; d < a.ndim(); ++d)
        if ((a.shape[d] == 1) != (b.shape[d] == 1)) return false;
    return true;
}

bool isMatmul(const Node& node) {
    return node.kind() == OpKind::Blockwise && node.numInputs() == 2 &&
           static_cast<const BlockwiseOp&>(node.op()).core().kind() == OpKind::Dot;
}

std::optional<ScalarOpCode> plainElemwiseCode(const Node& node) {
    if (node.op().kind() != OpKind::Elemwise) return std::nullopt;
    const auto& e = static_cast<const Elemwise&>(node.op());
    if (e.isComposite() || e.isScalarLoop() || !e.inplacePattern().empty()) return std::nullopt;
    return e.scalarOp();
}

Node* elemwiseOwner(const Variable& v, ScalarOpCode code) {
    Node* n = v.owner();
    return n && plainElemwiseCode(*n) == code ? n : nullptr;
}

std::optional<int> zeroBranchOfSwitch(const Node& node) {
    if (plainElemwiseCode(node) != ScalarOpCode::Switch) return std::nullopt;
    for (int branch = 0; branch < 2; ++branch)
        if (isConstantEqualTo(*node.input(1 + branch), 0.0)) return branch;
    return std::nullopt;
}

Variable* valueOrNaN(Rewriter& rw, Variable* cond, Variable* value, DType dtype) {
    Variable* nan = rw.constant(NDArray::scalar(dtype, std::numeric_limits<double>::quiet_NaN()));
    return castTo(rw, makeElemwiseOf(rw, ScalarOpCode::Switch, {cond, value, nan}), dtype);
}

Variable* switchKeepingZeroBranch(Rewriter& rw, const Node& sw, int zeroBranch, Variable* other) {
    std::vector<Variable*> branches = {sw.input(0), sw.input(1 + zeroBranch), other};
    if (zeroBranch == 1) std::swap(branches[1], branches[2]);
    return makeElemwiseOf(rw, ScalarOpCode::Switch, std::move(branches));
}

std::optional<Type> switchKeepingZeroBranchType(const Node& sw, int zeroBranch, const Type& other) {
    std::vector<Type> branches = {sw.input(0)->type(), sw.input(1 + zeroBranch)->type(), other};
    if (zeroBranch == 1) std::swap(branches[1], branches[2]);
    return elemwiseTypeOf(ScalarOpCode::Switch, branches);
}

std::optional<double> powExponentKeepingShape(const Node& node, const char*& why) {
    auto code = plainElemwiseCode(node);
    if (!code || *code != ScalarOpCode::Pow) {
        why = "not pow";
        return std::nullopt;
    }
    auto y = uniqueValue(*node.input(1));
    if (!y) {
        why = "the exponent is not a constant";
        return std::nullopt;
    }
    const Type& x = node.input(0)->type();
    const Type& out = node.output(0)->type();
    if (x.ndim() != out.ndim() || !out.accepts(Type::tensor(out.dtype, x.shape)) || !sameBroadcastPattern(x, out)) {
        why = "the exponent broadcasts x";
        return std::nullopt;
    }
    return y->item();
}

} // namespace tl::rw
