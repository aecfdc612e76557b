// constant_folding: a node whose inputs are all constants is computed now, with the
// op's own kernel, and replaced by constants (PyTensor's topo_constant_folding).
//   Add(2, 3)                   -> 5
//   ExpandDims{axis=0}(-5.0)    -> [-5.]   (the constant of the right rank)
// Not folded, as PyTensor's do_constant_folding decides:
// - AllocEmpty (never: its value is garbage by definition);
// - Alloc with no clients, a graph output client, or a client through which it is
//   lifted or that works inplace on it: Elemwise, DimShuffle, Alloc, Join, a Blockwise
//   with batch dims, and input 0 of IncSubtensor/SetSubtensor, Gemv/CGemv and Ger/CGer
//   (PyTensor 2.34's Alloc rule: a folded Alloc would be a large constant copied on
//   every call, where the Alloc is computed once in place); nor any Alloc a client
//   destroys (CGer{destructive}(Alloc(0.0, 4, 3), ...)): a constant cannot be overwritten;
// - Assert unless every condition is a constant true (folding must not drop a failure).
// Not folded, tensorlens's own reasons: Scan (a whole loop at rewrite time), Opaque
// (no kernel), DeepCopyOp (it exists to produce a fresh array), and any node that
// destroys an input (its kernel would overwrite the constant's data) or whose value a
// client destroys (the graph would destroy a constant).
// A kernel that raises (index out of range, shape mismatch) leaves the node alone, so
// the error still happens when the graph runs.
#include "analysis/DestroyChecker.h"
#include "exec/ExecContext.h"
#include "exec/Executor.h"
#include "ops/Assert.h"
#include "ops/Blockwise.h"
#include "rewrite/Rewrites.h"

#include <exception>

namespace tl {

namespace {

struct FoldMatch : RewriteMatch {
    std::vector<NDArray> values;  // one per output (invalid for outputs without clients)
    std::vector<Type> types;
};

bool allocFoldable(const Node& node, std::string& why) {
    const Variable* out = node.output(0);
    if (out->clients().empty()) {
        why = "Alloc without clients";
        return false;
    }
    for (const Client& c : out->clients()) {
        if (c.isGraphOutput()) {
            why = "Alloc is a graph output (a constant output would be copied on every call)";
            return false;
        }
        switch (c.node->op().kind()) {
        case OpKind::Elemwise:
        case OpKind::DimShuffle:
        case OpKind::Alloc:
        case OpKind::Join:
            why = "Alloc feeds " + c.node->label() + ", through which it is lifted";
            return false;
        case OpKind::Blockwise: {
            // Blockwise lifts an Alloc through its batch dims, as Elemwise does.
            std::vector<const Type*> types;
            for (const Variable* v : c.node->inputs()) types.push_back(&v->type());
            if (static_cast<const BlockwiseOp&>(c.node->op()).batchNdim(types) > 0) {
                why = "Alloc feeds " + c.node->label() + ", which has batch dims it is lifted through";
                return false;
            }
            break;
        }
        case OpKind::IncSubtensor:
        case OpKind::Gemv:
        case OpKind::CGemv:
        case OpKind::Ger:
        case OpKind::CGer:
            // PyTensor's list of ops that work inplace on their input 0 (the advanced
            // set/inc_subtensor ops too): folding would copy the constant on every call.
            if (c.index == 0) {
                why = "Alloc is the buffer " + c.node->label() + " may overwrite in place";
                return false;
            }
            break;
        default: break;
        }
        // Whatever the op, a client that destroys the Alloc's value needs a buffer of
        // its own: a constant cannot be overwritten.
        for (const auto& [o, ins] : c.node->op().destroyMap())
            for (int i : ins)
                if (i == c.index) {
                    why = "Alloc is the buffer " + c.node->label() + " overwrites in place";
                    return false;
                }
    }
    return true;
}

class ConstantFolding final : public NodeRewrite {
public:
    std::string_view name() const override { return "constant_folding"; }
    std::vector<std::string> tags() const override { return {"fast_run", "fast_compile", "canonicalize", "specialize"}; }
    std::vector<OpKind> rootKinds() const override {
        std::vector<OpKind> kinds;
        for (int k = 0; k < kNumOpKinds; ++k) {
            const auto kind = static_cast<OpKind>(k);
            if (kind == OpKind::AllocEmpty || kind == OpKind::Scan || kind == OpKind::Opaque ||
                kind == OpKind::DeepCopy || kind == OpKind::Print)  // Print runs for its output
                continue;
            kinds.push_back(kind);
        }
        return kinds;
    }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        for (int i = 0; i < node.numInputs(); ++i)
            if (!node.input(i)->isConstant()) return MatchResult::fail(options, [&] { return std::string("input " + std::to_string(i) + " is not a constant"); });
        if (!node.op().destroyMap().empty()) return MatchResult::fail("the node destroys an input");
        // A value some client overwrites in place (directly or through a view) must stay
        // a computed buffer: a destroyed constant makes the graph invalid. Graphs compiled
        // by PyTensor hold such destroyers already (Gemv{inplace}, CGer{destructive}).
        for (const Variable* out : node.outputs())
            for (const Variable* a : viewTree(*out))
                for (const Client& c : a->clients())
                    if (c.node)
                        for (const auto& [o, ins] : c.node->op().destroyMap())
                            for (int i : ins)
                                if (i == c.index)
                                    return MatchResult::fail(options, [&] {
                                        return "its value is overwritten in place by " + c.node->label();
                                    });
        std::string why;
        if (node.op().kind() == OpKind::Alloc && !allocFoldable(node, why)) return MatchResult::fail(options, [&] { return std::string(why); });
        if (isAssertKind(node.op().kind()))
            for (int i = 1; i < node.numInputs(); ++i)
                if (node.input(i)->constantValue().size() != 1 || node.input(i)->constantValue().item() == 0.0)
                    return MatchResult::fail(options, [&] { return std::string("condition " + std::to_string(i) + " is not a constant true"); });

        std::vector<NDArray> ins;
        for (const Variable* v : node.inputs()) ins.push_back(v->constantValue());
        std::vector<NDArray> outs(static_cast<size_t>(node.numOutputs()));
        {
            // Folded values outlive any run: keep them out of whatever tracker is current.
            MemoryTrackerScope untracked(nullptr);
            ExecContext ctx;
            try {
                performOp(ctx, node.op(), ins, outs);
            } catch (const std::exception& e) {
                return MatchResult::fail(options, [&] { return std::string(std::string("the kernel raised: ") + e.what()); });
            }
            auto m = std::make_unique<FoldMatch>();
            for (int k = 0; k < node.numOutputs(); ++k) {
                const Variable* out = node.output(k);
                if (!outs[k].valid()) return MatchResult::fail(options, [&] { return std::string("the kernel left output " + std::to_string(k) + " empty"); });
                if (outs[k].dtype() != out->type().dtype)
                    return MatchResult::fail(options, [&] { return std::string("the kernel returned " + std::string(dtypeName(outs[k].dtype())) +
                                             " for a " + out->type().toString()); });
                Type t = out->type();
                if (t.isTensorType()) {
                    // PyTensor's make_constant narrows the type to the value's shape.
                    if (outs[k].ndim() != t.ndim())
                        return MatchResult::fail(options, [&] { return std::string("the kernel returned a " + std::to_string(outs[k].ndim()) +
                                                 "-d value for a " + t.toString()); });
                    t = Type::tensor(t.dtype, outs[k].shape());
                    if (!out->type().accepts(t))
                        return MatchResult::fail(options, [&] { return std::string("the value's shape does not fit " + out->type().toString()); });
                }
                m->types.push_back(t);
                // A view of an input constant (Subtensor, DimShuffle) gets storage of its own.
                m->values.push_back(out->clients().empty() ? NDArray() : outs[k].copy());
            }
            return MatchResult::ok(std::move(m));
        }
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const FoldMatch&>(match);
        // Ids first: replacing the last used output prunes the node.
        std::vector<std::pair<VarId, int>> outs;
        for (int k = 0; k < node.numOutputs(); ++k)
            if (m.values[k].valid()) outs.emplace_back(node.output(k)->id(), k);
        const Graph& g = rewriter.graph();
        for (auto [id, k] : outs) {
            Variable* old = g.findVariable(id);
            if (!old) continue;
            Variable* c = rewriter.constant(m.values[k], m.types[k]);
            rewriter.replace(old, c);
        }
    }
};

} // namespace

const NodeRewrite& constantFolding() {
    static const ConstantFolding r;
    return r;
}

} // namespace tl
