// local_track_shape_i: Shape_i{i}(y) -> the variable that fixes y's dim i, read off
// y's producer as PyTensor's ShapeFeature reads it (op.infer_shape) and its
// local_track_shape_i installs it:
//   Shape_i{0}(Alloc(v, n, 7))         -> n            (also AllocEmpty's dims)
//   Shape_i{0}(SpecifyShape(x, n, 7))  -> n               (x's dim where it says None)
//   Shape_i{0}(kron(a: (3, 3), b: (2, 2)))  -> 6          (static factors)
//   Shape_i{1}(Transpose(x))           -> Shape_i{0}(x)   (DimShuffle maps the axis)
//   Shape_i{0}(Unbroadcast{0}(x))      -> Shape_i{0}(x)   (also DeepCopyOp)
//   Shape_i{0}(x[1:])                  -> maximum(Shape_i{0}(x) - 1, 0)
//   Shape_i{0}(x[::-1])                -> Shape_i{0}(x)
//   Shape_i{0}(Scan's sit_sot trace)   -> Shape_i{0}(its outer buffer)
//   Shape_i{0}(Scan's nit_sot output)  -> its rows input
//   Shape_i{0}(exp(x) * 2)             -> Shape_i{0}(x)   (an Elemwise dim with one
//                                                         source, rw::dimSources)
//   Shape_i{1}(cumsum(x, axis=0))      -> Shape_i{1}(x)
//   Shape_i{0}(cumsum(x: (5, 3)))      -> 15              (flattened: x's size, when
//                                                         static; PyTensor's prod of
//                                                         x's dims folds to it)
//   Shape_i{1}(Dot22(a, b))            -> Shape_i{1}(b)   (and every op whose output
//   Shape_i{0}(Eigh(x).0)              -> Shape_i{0}(x)    dim is one input dim, a
//                                                         Blockwise by its signature:
//                                                         rw::outputDimSource)
//   Shape_i{0}(Split{3}.1(x, 0, sizes)) -> sizes[1]       (another axis: x's)
//   Shape_i{0}(Join(0, a, b))          -> Shape_i{0}(a) + Shape_i{0}(b)
//                                                         (another axis: a's, as
//                                                         PyTensor's infer_shape)
// The dim becomes a 0-d int64 tensor (a constant, a Cast{int64} of the input, or the
// few int64 scalar ops of a slice's length, which constant folding then reduces).
// Not tracked through an Elemwise dim that several operands may fix (any of them may
// be 1 at run time and broadcast), nor Assert
// (the Shape_i could then outlive the only reader of the assertion), nor the rows of
// a while loop's outputs (the steps that ran, known only after the loop).
#include "ops/CumOp.h"
#include "ops/DimShuffle.h"
#include "ops/Shape.h"
#include "ops/Subtensor.h"
#include "rewrite/DimSources.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/OutputDimSources.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

struct TrackMatch : RewriteMatch {
    Variable* dim = nullptr;        // the dim input to use, or
    Variable* shapeOf = nullptr;    // the variable whose Shape_i{axis} to take, or
    std::optional<int64_t> size;    // a static length
    int axis = 0;
    // With shapeOf: the dim is that length sliced by [start:stop] (step 1), parts absent
    // or constants, as the Subtensor producing y slices it.
    bool sliced = false;
    std::optional<int64_t> start, stop;
    // Or entry `entry` of the vector `entryOf` (a Split's sizes), or the sum of
    // Shape_i{axis} of each of `sumOf` (a Join's inputs).
    Variable* entryOf = nullptr;
    int64_t entry = 0;
    std::vector<Variable*> sumOf;
};

// A constant axis input (Split's, Join's) as a non-negative axis of an ndim-d tensor.
std::optional<int> constantAxis(const Variable& axis, int ndim) {
    const auto a = rw::constantIntOf(axis);
    if (!a || *a < -ndim || *a >= ndim) return std::nullopt;
    return static_cast<int>(*a < 0 ? *a + ndim : *a);
}

// The input axis and slice behind output axis `axis` of Subtensor `node`: integer
// indices drop their axis, slices keep theirs, axes past the entries are whole.
const char* trackSubtensorOutput(const Node& node, int axis, TrackMatch& m) {
    const auto& entries = static_cast<const SubtensorOp&>(node.op()).entries();
    int in = 1, kept = 0;
    for (size_t j = 0; j < entries.size(); ++j) {
        const IndexEntry& e = entries[j];
        if (e.kind == IndexEntry::Kind::Index) {
            ++in;
            continue;
        }
        auto part = [&](bool has, std::optional<int64_t>& into) {
            if (!has) return true;
            into = rw::constantIntOf(*node.input(in++));
            return into.has_value();
        };
        std::optional<int64_t> start, stop, step;
        // `&`, not `&&`: every present part's input is passed, constant or not.
        const bool constant = part(e.hasStart, start) & part(e.hasStop, stop) & part(e.hasStep, step);
        if (kept++ != axis) continue;
        if (!constant) return "a slice part is not a constant";
        if (step && *step == -1 && !start && !stop) step.reset();  // x[::-1]: every entry, reversed
        if (step && *step != 1) return "a slice with a step";
        if (start && stop && (*start < 0) != (*stop < 0)) return "a slice from one end to the other";
        m.shapeOf = node.input(0);
        m.axis = static_cast<int>(j);
        m.sliced = true;
        m.start = start;
        m.stop = stop;
        return nullptr;
    }
    m.shapeOf = node.input(0);
    m.axis = static_cast<int>(entries.size()) + (axis - kept);
    return nullptr;
}

// The length of [start:stop] of a dim of length n (both parts non-negative, or both
// negative, or absent), as Python clamps it: n-s for [s:], min(n, -s) for [-s:],
// min(n, e) - s for [s:e], max(n + e, 0) for [:-e], and so on, each at least 0.
Variable* slicedLength(Rewriter& rewriter, Variable* n, std::optional<int64_t> start, std::optional<int64_t> stop) {
    auto constant = [&](int64_t v) { return rewriter.constant(rw::scalarArray(DType::Int64, v)); };
    auto op = [&](ScalarOpCode c, Variable* a, Variable* b) { return rw::makeElemwiseOf(rewriter, c, {a, b}, DType::Int64); };
    Variable* zero = constant(0);
    if ((start && *start < 0) || (stop && *stop < 0)) {
        // Both count from the end: [-s:-e] has min(n, s) - min(n, e) rows.
        Variable* from = start ? op(ScalarOpCode::Minimum, n, constant(-*start)) : n;
        Variable* to = stop ? op(ScalarOpCode::Minimum, n, constant(-*stop)) : zero;
        return op(ScalarOpCode::Maximum, op(ScalarOpCode::Sub, from, to), zero);
    }
    Variable* end = stop ? op(ScalarOpCode::Minimum, n, constant(*stop)) : n;
    if (!start || *start == 0) return end;
    return op(ScalarOpCode::Maximum, op(ScalarOpCode::Sub, end, constant(*start)), zero);
}

class LocalTrackShapeI final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_track_shape_i"; }
    std::vector<std::string> tags() const override {
        return {"fast_run", "fast_compile", "shape", "canonicalize", "specialize"};
    }
    std::vector<OpKind> rootKinds() const override { return {OpKind::ShapeI}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const int i = static_cast<const ShapeIOp&>(node.op()).axis();
        const Variable* y = node.input(0);
        const Node* p = y->owner();
        if (!p) return MatchResult::fail("the input has no producer");
        auto m = std::make_unique<TrackMatch>();
        switch (p->op().kind()) {
        case OpKind::Alloc: m->dim = p->input(1 + i); break;
        case OpKind::AllocEmpty: m->dim = p->input(i); break;
        case OpKind::SpecifyShape:
            if (p->input(1 + i)->type().isNoneType()) {  // not specified: the input's
                m->shapeOf = p->input(0);
                m->axis = i;
            } else {
                m->dim = p->input(1 + i);
            }
            break;
        case OpKind::KroneckerProduct: {  // the product of the factors' lengths
            if (p->input(0)->type().ndim() != y->type().ndim() || p->input(1)->type().ndim() != y->type().ndim())
                return MatchResult::fail("a factor has fewer axes than the product");
            const int64_t a = p->input(0)->type().shape[static_cast<size_t>(i)];
            const int64_t b = p->input(1)->type().shape[static_cast<size_t>(i)];
            if (a == kUnknownDim || b == kUnknownDim) return MatchResult::fail("a factor's length is not static");
            m->size = a * b;
            break;
        }
        case OpKind::DimShuffle: {
            const int a = static_cast<const DimShuffleOp&>(p->op()).newOrder().at(static_cast<size_t>(i));
            if (a < 0) return MatchResult::fail(options, [&] { return std::string("dim " + std::to_string(i) + " is a new broadcastable axis"); });
            m->shapeOf = p->input(0);
            m->axis = a;
            break;
        }
        case OpKind::Unbroadcast:
        case OpKind::DeepCopy:
            m->shapeOf = p->input(0);
            m->axis = i;
            break;
        case OpKind::CumOp: {
            const Type& x = p->input(0)->type();
            if (static_cast<const CumOpOp&>(p->op()).axis() || x.ndim() == 1) {
                m->shapeOf = p->input(0);  // the input's shape, or a vector flattened to itself
                m->axis = i;
            } else if (x.fullyKnown()) {
                int64_t size = 1;
                for (int64_t d : x.shape)
                    if (__builtin_mul_overflow(size, d, &size)) return MatchResult::fail("the input's size overflows int64");
                m->size = size;
            } else {
                return MatchResult::fail("a flattened input's size is not static (PyTensor tracks the product of its dims)");
            }
            break;
        }
        case OpKind::Split: {  // inputs (x, axis, sizes)
            const auto axis = constantAxis(*p->input(1), y->type().ndim());
            if (!axis) return MatchResult::fail("the split axis is not a constant");
            if (*axis == i) {
                m->entryOf = p->input(2);
                m->entry = y->outputIndex();
            } else {
                m->shapeOf = p->input(0);
                m->axis = i;
            }
            break;
        }
        case OpKind::Join: {  // inputs (axis, x0, x1, ...)
            const auto axis = p->numInputs() > 1 ? constantAxis(*p->input(0), y->type().ndim()) : std::nullopt;
            if (!axis) return MatchResult::fail("the join axis is not a constant");
            m->axis = i;
            if (*axis == i) m->sumOf.assign(p->inputs().begin() + 1, p->inputs().end());
            else m->shapeOf = p->input(1);  // the inputs agree off the axis; the first's
            break;
        }
        case OpKind::Subtensor:
            if (const char* why = trackSubtensorOutput(*p, i, *m)) return MatchResult::fail(why);
            break;
        case OpKind::Elemwise: {
            // The broadcast of the operands' lengths: one source is that length.
            const Variable* ys[] = {y};
            auto sources = rw::dimSources(ys, i);
            if (!sources || sources->size() != 1 || !sources->front().var)
                return MatchResult::fail("more than one operand may fix this dim");
            const rw::DimSource& s = sources->front();
            // The sources are the graph's own variables; the match names them for apply().
            if (s.axis < 0) m->dim = const_cast<Variable*>(s.var);
            else {
                m->shapeOf = const_cast<Variable*>(s.var);
                m->axis = static_cast<int>(s.axis);
            }
            break;
        }
        default: {
            if (const Variable* value = rw::outputDimValue(*p, y->outputIndex(), i)) {
                m->dim = const_cast<Variable*>(value);  // the graph's own; the match names it for apply()
                break;
            }
            const auto source = rw::outputDimSource(*p, y->outputIndex(), i);
            if (!source)
                return MatchResult::fail(options, [&] { return std::string(p->label() + " does not fix this dim by one of its inputs' dims"); });
            m->shapeOf = p->input(source->input);
            m->axis = source->axis;
            break;
        }
        }
        if (m->dim && !m->dim->isConstant() && m->dim->type().isScalarType() && !isInteger(m->dim->type().dtype))
            return MatchResult::fail("the dim is not an integer");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const TrackMatch&>(match);
        auto shapeI = [&](Variable* v) { return rewriter.create(makeShapeI(m.axis), {v})->output(0); };
        Variable* r = nullptr;
        if (m.size) r = rewriter.constant(rw::scalarArray(DType::Int64, *m.size));
        else if (m.dim) r = rw::asInt64Scalar(rewriter, m.dim);
        else if (m.entryOf) {
            Variable* k = rewriter.constant(NDArray::scalar(DType::Int64, static_cast<double>(m.entry)), Type::scalar(DType::Int64));
            r = rw::castTo(rewriter, rewriter.create(makeSubtensor({{IndexEntry::Kind::Index}}), {m.entryOf, k})->output(0), DType::Int64);
        } else if (!m.sumOf.empty()) {
            r = shapeI(m.sumOf.front());  // a + b + c as PyTensor's infer_shape adds them
            for (size_t j = 1; j < m.sumOf.size(); ++j)
                r = rw::makeElemwiseOf(rewriter, ScalarOpCode::Add, {r, shapeI(m.sumOf[j])}, DType::Int64);
        } else r = shapeI(m.shapeOf);
        if (m.sliced) r = slicedLength(rewriter, r, m.start, m.stop);
        rewriter.replace(node.output(0), r);
    }
};

} // namespace

const NodeRewrite& localTrackShapeI() {
    static const LocalTrackShapeI r;
    return r;
}

} // namespace tl
