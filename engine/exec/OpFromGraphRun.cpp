#include "exec/OpFromGraphRun.h"

#include "exec/ExecContext.h"
#include "exec/Executor.h"

#include <unordered_set>

namespace tl {

namespace {

bool fits(const NDArray& a, const Type& t) {
    if (!a.valid() || a.dtype() != t.dtype) return false;
    if (t.isScalarType()) return a.ndim() == 0;
    if (!t.isTensorType()) return true;
    if (a.ndim() != t.ndim()) return false;
    for (int d = 0; d < t.ndim(); ++d)
        if (t.shape[d] != kUnknownDim && t.shape[d] != a.dim(d)) return false;
    return true;
}

// Empties the inner input slots on every exit, so the compiled graph holds nothing of the caller's.
struct ReleaseOnExit {
    CompiledGraph& fn;
    ~ReleaseOnExit() { fn.releaseBorrowed(); }
};

} // namespace

void runOpFromGraph(ExecContext& ctx, const OpFromGraphOp& op, std::span<const NDArray> inputs, std::span<NDArray> outputs) {
    const Graph& g = *op.inner();
    if (inputs.size() != g.inputs().size())
        throw ExecError(op.name() + ": expected " + std::to_string(g.inputs().size()) + " inputs, got " + std::to_string(inputs.size()));
    for (size_t i = 0; i < inputs.size(); ++i)
        if (!fits(inputs[i], g.inputs()[i]->type()))
            throw ExecError(op.name() + ": input " + std::to_string(i) + " must be " + g.inputs()[i]->type().toString() + ", got " +
                            (inputs[i].valid() ? std::string(dtypeName(inputs[i].dtype())) + " array of shape " +
                                                     shapeToString(inputs[i].shape())
                                               : std::string("no value")));
    CompiledGraph& fn = ctx.innerGraph(op.inner());
    ReleaseOnExit release{fn};
    for (size_t i = 0; i < inputs.size(); ++i) fn.inputSlot(static_cast<int>(i)) = inputs[i];
    try {
        fn.execute(ctx);
    } catch (const ExecError& e) {
        throw ExecError(op.name() + ": " + e.what());
    }
    std::unordered_set<const Storage*> owned;
    for (const NDArray& a : inputs) owned.insert(a.storage().get());
    for (const Variable* c : g.constants()) owned.insert(c->constantValue().storage().get());
    for (size_t j = 0; j < outputs.size(); ++j) {
        NDArray v = fn.output(static_cast<int>(j));
        if (!owned.insert(v.storage().get()).second) v = v.copy();
        outputs[j] = std::move(v);
    }
}

} // namespace tl
