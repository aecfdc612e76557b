#include "builder/AdvancedIndexing.h"

#include "ir/SliceValue.h"
#include "ops/AdvancedIncSubtensor.h"
#include "ops/AdvancedSubtensor.h"
#include "ops/ArrayOpUtil.h"
#include "ops/MakeSlice.h"
#include "ops/TensorScalar.h"

#include <stdexcept>

namespace tl {

namespace {

NDArray int64Scalar(int64_t v) {
    NDArray a = NDArray::empty(DType::Int64, {});
    a.data<int64_t>()[0] = v;
    return a;
}

// as_int_none_variable: None, an int64 ScalarConstant for a Python int, a ScalarType
// variable as it is, a 0-d tensor through ScalarFromTensor.
Var sliceBound(GraphBuilder& b, const std::optional<IntArg>& a, const char* what) {
    if (!a) return noneConst(b);
    if (!a->isVar()) return b.constant(int64Scalar(a->value()), Type::scalar(DType::Int64));
    Var v = b.capture(a->var());
    if (!arrayop::isIntScalarLike(v.type()))
        throw std::invalid_argument(std::string("slice ") + what + " must be an integer scalar, got " + v.type().toString());
    return v.type().isScalarType() ? v : b.apply1(makeScalarFromTensor(), {v});
}

bool isAdvancedTensor(const Var& v) {
    // index_vars_to_types: a 0-d integer tensor is a basic index; anything else is advanced.
    if (v.dtype() == DType::Bool) return true;
    return !(v.type().isScalarType() || v.ndim() == 0);
}

// The slice a variable holds when it is known without running: a constant, or a
// MakeSlice of constants.
std::optional<NDArray> staticSlice(const Variable* v) {
    if (v->isConstant()) return v->constantValue();
    const Node* n = v->owner();
    if (!n || n->op().kind() != OpKind::MakeSlice) return std::nullopt;
    SliceBounds b;
    std::optional<int64_t>* parts[3] = {&b.start, &b.stop, &b.step};
    for (int k = 0; k < 3; ++k) {
        const Variable* in = n->input(k);
        if (!in->isConstant()) return std::nullopt;
        if (in->type().isNoneType()) continue;
        auto i = arrayop::constantInt(&in->constantValue());
        if (!i) return std::nullopt;
        *parts[k] = *i;
    }
    return sliceValue(b);
}

} // namespace

Type advancedSubtensorStaticType(const std::vector<Var>& inputs) {
    std::vector<const Type*> types;
    std::vector<std::optional<NDArray>> held(inputs.size());
    std::vector<const NDArray*> constants;
    for (size_t i = 0; i < inputs.size(); ++i) {
        types.push_back(&inputs[i].type());
        held[i] = staticSlice(inputs[i].get());
        constants.push_back(held[i] ? &*held[i] : nullptr);
    }
    return makeAdvancedSubtensor()->inferTypesWithConstants(types, constants).at(0);
}

Var getItem(Var x, const std::vector<AnyIdx>& idxIn) {
    GraphBuilder& b = x.builder();
    // Count the indexed dims; expand an Ellipsis into full slices.
    int counted = 0, ellipses = 0;
    bool advanced = false;
    for (const AnyIdx& e : idxIn) {
        switch (e.kind()) {
        case AnyIdx::Kind::NewAxis: break;
        case AnyIdx::Kind::Ellipsis: ++ellipses; break;
        case AnyIdx::Kind::Tensor:
            if (!e.var().valid()) throw std::invalid_argument("getItem: an empty index");
            counted += e.var().dtype() == DType::Bool ? std::max(1, e.var().ndim()) : 1;
            advanced = advanced || isAdvancedTensor(e.var());
            break;
        default: ++counted;
        }
    }
    if (counted > x.ndim())
        throw std::invalid_argument("too many indices for tensor: tensor is " + std::to_string(x.ndim()) +
                                    "-dimensional, but " + std::to_string(counted) + " were indexed");
    if (ellipses > 1) throw std::invalid_argument("an index can only have a single Ellipsis (`...`)");
    std::vector<AnyIdx> idx;
    for (const AnyIdx& e : idxIn) {
        if (e.kind() != AnyIdx::Kind::Ellipsis) {
            idx.push_back(e);
            continue;
        }
        for (int k = 0; k < x.ndim() - counted; ++k) idx.push_back(Slice{});
    }

    if (!advanced) {
        // Basic indexing: np.newaxis through DimShuffle, then Subtensor on the rest.
        bool hasNewAxis = false;
        for (const AnyIdx& e : idx) hasNewAxis = hasNewAxis || e.kind() == AnyIdx::Kind::NewAxis;
        std::vector<Idx> basic;
        if (hasNewAxis) {
            std::vector<int> order;
            int counter = 0;
            for (const AnyIdx& e : idx) {
                if (e.kind() == AnyIdx::Kind::NewAxis) {
                    order.push_back(-1);
                    basic.push_back(Slice{});
                } else {
                    order.push_back(counter++);
                }
            }
            for (int d = counter; d < x.ndim(); ++d) order.push_back(d);
            x = dimshuffle(x, order);
        }
        size_t k = 0;
        std::vector<Idx> entries;
        for (const AnyIdx& e : idx) {
            if (e.kind() == AnyIdx::Kind::NewAxis) {
                entries.push_back(basic[k++]);
                continue;
            }
            if (e.kind() == AnyIdx::Kind::Int) entries.push_back(Idx(e.value()));
            else if (e.kind() == AnyIdx::Kind::Slice) entries.push_back(Idx(e.slice()));
            else entries.push_back(Idx(e.var()));
        }
        return subtensor(x, entries);
    }

    // Advanced indexing: one AdvancedSubtensor over index variables.
    std::vector<Var> ins{x};
    for (const AnyIdx& e : idx) {
        switch (e.kind()) {
        case AnyIdx::Kind::NewAxis: ins.push_back(noneConst(b)); break;
        case AnyIdx::Kind::Int:
            // as_index_variable: as_tensor_variable of an int64 ScalarConstant.
            ins.push_back(b.apply1(makeTensorFromScalar(), {b.constant(int64Scalar(e.value()), Type::scalar(DType::Int64))}));
            break;
        case AnyIdx::Kind::Slice: {
            const Slice& s = e.slice();
            ins.push_back(b.apply1(makeMakeSlice(), {sliceBound(b, s.start, "start"), sliceBound(b, s.stop, "stop"),
                                                     sliceBound(b, s.step, "step")}));
            break;
        }
        case AnyIdx::Kind::Tensor: {
            Var v = b.capture(e.var());
            if (v.type().isScalarType()) v = b.apply1(makeTensorFromScalar(), {v});
            if (!isInteger(v.dtype()) && v.dtype() != DType::Bool)
                throw std::invalid_argument("index must be integers or a boolean mask, got " + v.type().toString());
            if (v.dtype() == DType::Bool && v.ndim() == 0)
                throw std::invalid_argument("Boolean scalar indexing not implemented");
            ins.push_back(v);
            break;
        }
        case AnyIdx::Kind::Ellipsis: break;
        }
    }
    const Type declared = advancedSubtensorStaticType(ins);
    return b.apply(makeAdvancedSubtensor(), std::move(ins), {declared}).at(0);
}

Var advancedIncSubtensor(Var sub, Var y, bool set, bool ignoreDuplicates) {
    const Node* n = sub.get()->owner();
    const OpKind kind = n ? n->op().kind() : OpKind::Opaque;
    if (kind != OpKind::AdvancedSubtensor && kind != OpKind::AdvancedSubtensor1)
        throw std::invalid_argument("advancedIncSubtensor: the first argument must be the result of advanced indexing");
    GraphBuilder& b = sub.builder();
    y = b.capture(y);
    if (y.ndim() > sub.ndim())
        throw std::invalid_argument("Trying to increment a " + std::to_string(sub.ndim()) + "-dimensional subtensor with a " +
                                    std::to_string(y.ndim()) + "-dimensional value.");
    std::vector<Var> ins{b.wrap(n->input(0)), y};
    for (int i = 1; i < n->numInputs(); ++i) ins.push_back(b.wrap(n->input(i)));
    if (kind == OpKind::AdvancedSubtensor1 && !ignoreDuplicates)
        return b.apply1(makeAdvancedIncSubtensor1(false, set), std::move(ins));
    return b.apply1(makeAdvancedIncSubtensor(false, set, ignoreDuplicates), std::move(ins));
}

// PyTensor's one NoneConst: reused within a graph, as MakeSlice's inputs share it.
Var noneConst(GraphBuilder& b) {
    for (Variable* c : b.graph().constants())
        if (c->type().isNoneType() && c->name() == "NoneConst") return b.wrap(c);
    Var v = b.constant(noneValue(), Type::none());
    b.assembler().setVariableName(v.get(), "NoneConst");
    return v;
}

} // namespace tl
