// local_subtensor_of_batch_dims: index the operands of an elementwise op instead of its
// result, so only the entries that are read get computed:
//   exp(x)[:, 0]        -> exp(x[:, 0])
//   add(x, y)[1:]       -> add(x[1:], y[1:])
//   add(x, y)[2]        -> add(x[0], y[2])      (x: (1, n), broadcast along axis 0)
// An operand that the op broadcasts along an indexed axis keeps that axis whole ([:])
// for a slice and takes its only entry (0) for an index, as PyTensor's (canonicalize and
// specialize, "shape_unsafe": add(x, y)[5] with x of length 1 no longer checks that y
// has a sixth row against x). Only where the Elemwise has no other reader, which would
// then compute it twice, and only for an Elemwise with one output that destroys nothing.
#include "ops/Subtensor.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {

class LocalSubtensorOfBatchDims final : public NodeRewrite {
public:
    std::string_view name() const override { return "local_subtensor_of_batch_dims"; }
    std::vector<std::string> tags() const override { return {"fast_run", "canonicalize", "specialize", "shape_unsafe"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Subtensor}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const Variable& x = *node.input(0);
        const Node* elem = x.owner();
        if (!elem || elem->op().kind() != OpKind::Elemwise) return MatchResult::fail("not a Subtensor of an Elemwise");
        if (elem->numOutputs() != 1) return MatchResult::fail("the Elemwise has several outputs");
        if (!elem->op().destroyMap().empty()) return MatchResult::fail("the Elemwise works in place");
        if (x.clients().size() != 1) return MatchResult::fail("the Elemwise has other readers");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const Node& elem = *node.input(0)->owner();
        const Type& out = elem.output(0)->type();
        const std::vector<rw::SubtensorPart> parts = rw::subtensorParts(node);
        std::vector<Variable*> indexed;
        for (int i = 0; i < elem.numInputs(); ++i) {
            Variable* operand = elem.input(i);
            const Type& t = operand->type();
            std::vector<IndexEntry> entries;
            std::vector<Variable*> ins{operand};
            bool whole = true;
            for (size_t axis = 0; axis < parts.size(); ++axis) {
                const rw::SubtensorPart& p = parts[axis];
                // Broadcast by the op along this axis: one entry stands for all of them.
                const bool broadcast = t.shape[axis] == 1 && out.shape[axis] != 1;
                if (p.entry.kind == IndexEntry::Kind::Index) {
                    entries.push_back(p.entry);
                    ins.push_back(broadcast ? rewriter.constant(rw::scalarArray(DType::Int64, 0)) : p.index);
                    whole = false;
                    continue;
                }
                if (broadcast) {
                    entries.push_back({IndexEntry::Kind::Slice});
                    continue;
                }
                entries.push_back(p.entry);
                for (Variable* part : {p.start, p.stop, p.step})
                    if (part) ins.push_back(part);
                whole = whole && !p.start && !p.stop && !p.step;
            }
            indexed.push_back(whole ? operand : rewriter.create(makeSubtensor(std::move(entries)), std::move(ins))->output(0));
        }
        rewriter.replace(node.output(0), rewriter.create(elem.opPtr(), std::move(indexed))->output(0));
    }
};

} // namespace

const NodeRewrite& localSubtensorOfBatchDims() {
    static const LocalSubtensorOfBatchDims r;
    return r;
}

} // namespace tl
