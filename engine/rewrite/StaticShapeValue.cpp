#include "rewrite/StaticShapeValue.h"

#include "ops/Reshape.h"
#include "ops/Shape.h"
#include "ops/Subtensor.h"
#include "rewrite/LocalRewriteUtil.h"

#include <cstdint>

namespace tl::rw {

namespace {

// Shape graphs are short; a bound keeps a pathological chain from recursing deeply.
constexpr int kMaxDepth = 32;

std::optional<int64_t> staticDim(const Variable& x, std::optional<int64_t> axis) {
    const Type& t = x.type();
    if (!axis || !t.isTensorType() || *axis < 0 || *axis >= t.ndim() || t.shape[*axis] == kUnknownDim) return std::nullopt;
    return t.shape[*axis];
}

std::optional<int64_t> valueAt(const Variable& v, int depth);

// Elemwise integer arithmetic on static values, as Python ints would compute it.
std::optional<int64_t> elemwiseValue(const Node& n, ScalarOpCode code, int depth) {
    std::vector<int64_t> args;
    for (const Variable* in : n.inputs()) {
        auto a = valueAt(*in, depth + 1);
        if (!a) return std::nullopt;
        args.push_back(*a);
    }
    // Checked: an imported graph may hold any constants, and a size that overflows is
    // no size (nullopt), never undefined behaviour.
    int64_t r = 0;
    switch (code) {
    case ScalarOpCode::Identity: return args.size() == 1 ? std::optional(args[0]) : std::nullopt;
    case ScalarOpCode::Cast: {  // to an integer dtype that holds the value
        const DType to = n.output(0)->type().dtype;
        return isInteger(to) && scalarArray(to, args[0]).itemInt() == args[0] ? std::optional(args[0]) : std::nullopt;
    }
    case ScalarOpCode::Neg: return __builtin_sub_overflow(int64_t{0}, args[0], &r) ? std::nullopt : std::optional(r);
    case ScalarOpCode::Add:
        for (int64_t a : args)
            if (__builtin_add_overflow(r, a, &r)) return std::nullopt;
        return r;
    case ScalarOpCode::Mul:
        r = 1;
        for (int64_t a : args)
            if (__builtin_mul_overflow(r, a, &r)) return std::nullopt;
        return r;
    case ScalarOpCode::Sub: return __builtin_sub_overflow(args[0], args[1], &r) ? std::nullopt : std::optional(r);
    case ScalarOpCode::IntDiv: {
        if (args[1] == 0 || (args[0] == INT64_MIN && args[1] == -1)) return std::nullopt;
        const int64_t q = args[0] / args[1];
        return (args[0] % args[1] != 0 && ((args[0] < 0) != (args[1] < 0))) ? q - 1 : q;  // floor, as Python's //
    }
    default: return std::nullopt;
    }
}

std::optional<int64_t> valueAt(const Variable& v, int depth) {
    if (auto c = constantIntOf(v)) return c;
    const Node* n = v.owner();
    if (!n || depth > kMaxDepth || (v.type().isTensorType() && v.type().ndim() != 0)) return std::nullopt;
    switch (n->kind()) {
    case OpKind::ShapeI: return staticDim(*n->input(0), static_cast<const ShapeIOp&>(n->op()).axis());
    case OpKind::ScalarFromTensor:
    case OpKind::TensorFromScalar: return valueAt(*n->input(0), depth + 1);
    case OpKind::Subtensor: {
        const auto& entries = static_cast<const SubtensorOp&>(n->op()).entries();
        const Node* vec = n->input(0)->owner();
        if (entries.size() != 1 || entries[0].kind != IndexEntry::Kind::Index || !vec) return std::nullopt;
        const std::optional<int64_t> k = valueAt(*n->input(1), depth + 1);
        if (!k) return std::nullopt;
        if (vec->kind() == OpKind::Shape) return staticDim(*vec->input(0), k);
        if (vec->kind() == OpKind::MakeVector && *k >= 0 && *k < vec->numInputs()) return valueAt(*vec->input(static_cast<int>(*k)), depth + 1);
        return std::nullopt;
    }
    default:
        if (auto code = plainElemwiseCode(*n)) return elemwiseValue(*n, *code, depth);
        return std::nullopt;
    }
}

} // namespace

std::optional<int64_t> staticIntValue(const Variable& v) { return valueAt(v, 0); }

std::optional<Type> reshapeStaticType(const Variable& x, const Variable& shape, int ndim) {
    std::vector<std::optional<int64_t>> entries(static_cast<size_t>(ndim));
    const Node* owner = shape.owner();
    const NDArray values = shape.isConstant() ? shape.constantValue().astype(DType::Int64) : NDArray();
    for (int d = 0; d < ndim; ++d) {
        if (shape.isConstant()) {
            if (static_cast<int>(values.size()) == ndim) entries[d] = values.data<int64_t>()[d];
        } else if (owner && owner->kind() == OpKind::MakeVector && owner->numInputs() == ndim) {
            entries[d] = staticIntValue(*owner->input(d));
        } else if (owner && owner->kind() == OpKind::Shape) {
            entries[d] = staticDim(*owner->input(0), d);
        }
        if (entries[d] && *entries[d] < 0) entries[d] = std::nullopt;  // make_node keeps only sizes >= 0
    }
    try {
        return Type::tensor(x.type().dtype, reshapeStaticShape(x.type(), entries, "Reshape"));
    } catch (const OpTypeError&) {
        return std::nullopt;  // sizes that cannot fit x
    }
}

Variable* reshapeWithStaticShape(Rewriter& rw, Variable* x, Variable* shape, int ndim) {
    OpPtr op = makeReshape(ndim);
    const std::optional<Type> t = reshapeStaticType(*x, *shape, ndim);
    if (!t) return rw.create(std::move(op), {x, shape})->output(0);  // the op's own rule decides (the run will fail)
    const std::vector<Type> declared{*t};
    return rw.create(std::move(op), {x, shape}, &declared)->output(0);
}

} // namespace tl::rw
