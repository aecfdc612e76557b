#include "rewrite/InferredLength.h"

#include "ops/DimShuffle.h"
#include "ops/Subtensor.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/OutputDimSources.h"
#include "rewrite/StaticShapeValue.h"

namespace tl::rw {

namespace {

// Each query reads at most this many (variable, axis) pairs: an Elemwise asks all its
// operands, so a depth limit alone would not bound the walk.
constexpr int kBudget = 64;

class LengthWalk {
public:
    std::optional<int64_t> at(const Variable& v, int axis) {
        if (axis < 0 || axis >= v.type().ndim()) return std::nullopt;
        if (const int64_t d = v.type().shape[static_cast<size_t>(axis)]; d != kUnknownDim) return d;
        if (--m_budget < 0) return std::nullopt;
        const Node* p = v.owner();
        if (!p) return std::nullopt;
        switch (p->kind()) {
        case OpKind::Alloc: return staticIntValue(*p->input(1 + axis));
        case OpKind::AllocEmpty: return staticIntValue(*p->input(axis));
        case OpKind::SpecifyShape:
            return p->input(1 + axis)->type().isNoneType() ? at(*p->input(0), axis) : staticIntValue(*p->input(1 + axis));
        case OpKind::DimShuffle: {
            const int from = static_cast<const DimShuffleOp&>(p->op()).newOrder().at(static_cast<size_t>(axis));
            return from < 0 ? std::optional<int64_t>(1) : at(*p->input(0), from);
        }
        case OpKind::Subtensor: return subtensor(*p, axis);
        case OpKind::Elemwise: return elemwise(*p, v.type().ndim(), axis);
        default: {
            if (const Variable* value = outputDimValue(*p, v.outputIndex(), axis)) return staticIntValue(*value);
            const auto source = outputDimSource(*p, v.outputIndex(), axis);
            return source ? at(*p->input(source->input), source->axis) : std::nullopt;
        }
        }
    }

private:
    // Output axis `axis` of a Subtensor: the input axis it keeps, sliced by constant
    // parts as Python slices it, or an axis past the index entries, whole.
    std::optional<int64_t> subtensor(const Node& node, int axis) {
        const std::vector<SubtensorPart> parts = subtensorParts(node);
        int kept = 0;
        for (size_t j = 0; j < parts.size(); ++j) {
            const SubtensorPart& p = parts[j];
            if (p.entry.kind == IndexEntry::Kind::Index || kept++ != axis) continue;
            std::optional<int64_t> bounds[3];
            const Variable* vars[3] = {p.start, p.stop, p.step};
            for (int k = 0; k < 3; ++k) {
                if (!vars[k]) continue;
                bounds[k] = constantIntOf(*vars[k]);
                if (!bounds[k]) return std::nullopt;
            }
            if (bounds[2] && *bounds[2] == 0) return std::nullopt;  // an error at run time
            const auto n = at(*node.input(0), static_cast<int>(j));
            if (!n) return std::nullopt;
            return resolveSlice(bounds[0], bounds[1], bounds[2], *n).length;
        }
        return at(*node.input(0), static_cast<int>(parts.size()) + (axis - kept));
    }

    // The broadcast of the operands' lengths: one that is not 1 is the result's (any
    // other is 1 or the same, or the run fails); all of them 1, 1.
    std::optional<int64_t> elemwise(const Node& node, int ndim, int axis) {
        bool unknown = false;
        for (const Variable* in : node.inputs()) {
            const int offset = ndim - in->type().ndim();
            if (axis < offset) continue;  // a missing leading dim broadcasts as 1
            const auto n = at(*in, axis - offset);
            if (!n) unknown = true;
            else if (*n != 1) return n;
        }
        return unknown ? std::nullopt : std::optional<int64_t>(1);
    }

    int m_budget = kBudget;
};

} // namespace

std::optional<int64_t> inferredLength(const Variable& v, int axis) { return LengthWalk().at(v, axis); }

} // namespace tl::rw
