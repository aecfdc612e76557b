#include "rewrite/ScanSaveMemUtil.h"

#include "ops/Alloc.h"
#include "ops/Elemwise.h"
#include "ops/Shape.h"
#include "ops/Subtensor.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/ScanRebuild.h"

#include <unordered_map>
#include <unordered_set>

namespace tl {

std::vector<bool> requiredStates(const ScanOp& op, const std::vector<bool>& used) {
    const ScanInfo& I = op.info();
    const Graph& g = *op.inner();
    const int T = I.nTracedStates();
    std::vector<bool> kept = used;
    // Inner outputs reachable (forward) from each traced state's taps.
    std::unordered_map<const Variable*, std::vector<int>> outputIndex;
    for (int j = 0; j < static_cast<int>(g.outputs().size()); ++j) outputIndex[g.output(j)].push_back(j);
    auto touchedOutputs = [&](int s) {
        std::vector<int> outs;
        std::vector<const Variable*> stack;
        std::unordered_set<const Variable*> seen;
        const int nTaps = static_cast<int>(I.stateTaps(s).size());
        for (int k = 0; k < nTaps; ++k) stack.push_back(g.inputs()[I.innerInTap(s, k)]);
        while (!stack.empty()) {
            const Variable* v = stack.back();
            stack.pop_back();
            if (!seen.insert(v).second) continue;
            if (auto it = outputIndex.find(v); it != outputIndex.end()) outs.insert(outs.end(), it->second.begin(), it->second.end());
            for (const Client& c : v->clients())
                if (c.node)
                    for (const Variable* o : c.node->outputs()) stack.push_back(o);
        }
        return outs;
    };
    auto itemOfOutput = [&](int j) -> int {
        if (j < I.innerOutNitSot()) {
            for (int s = 0; s < T; ++s)
                if (I.innerOutState(s) == j || (s < I.nMitMot() && j >= I.innerOutState(s) &&
                                                j < I.innerOutState(s) + static_cast<int>(I.mitMotOutTaps[s].size())))
                    return s;
        }
        if (j < I.innerOutUntraced()) return T + (j - I.innerOutNitSot());
        return -1;  // untraced update or condition: always kept
    };
    std::vector<std::vector<int>> touched(T);
    for (int s = 0; s < T; ++s)
        if (!kept[s]) touched[s] = touchedOutputs(s);
    for (bool grew = true; grew;) {
        grew = false;
        for (int s = 0; s < T; ++s) {
            if (kept[s]) continue;
            for (int j : touched[s]) {
                const int item = itemOfOutput(j);
                if (item != s && (item < 0 || kept[item])) {
                    kept[s] = true;
                    grew = true;
                    break;
                }
            }
        }
    }
    return std::vector<bool>(kept.begin(), kept.begin() + T);
}

Variable* resizeBuffer(Rewriter& rewriter, Variable* buffer, int64_t initRows, Variable* length) {
    auto d = defaultBuffer(buffer);
    if (d && d->stop == initRows) {
        std::vector<Variable*> ins(d->base->inputs().begin(), d->base->inputs().end());
        ins[d->dimOffset] = length;
        OpPtr baseOp = d->base->opPtr();
        if (d->dimOffset == 1) {
            // Alloc(value, len, ...): the value must not fill axis 0 with rows of its own.
            const Type& vt = ins[0]->type();
            const int nd = buffer->type().ndim();
            if (vt.ndim() == nd && vt.shape[0] != 1) {
                ins.erase(ins.begin());
                baseOp = makeAllocEmpty(buffer->type().dtype);
            }
        }
        Variable* base = rewriter.create(baseOp, ins)->output(0);
        std::vector<Variable*> setIns(d->set->inputs().begin(), d->set->inputs().end());
        setIns[0] = base;
        return rewriter.create(d->set->opPtr(), setIns)->output(0);
    }
    IndexEntry stop{IndexEntry::Kind::Slice, false, true, false};
    return rewriter.create(makeSubtensor({stop}), {buffer, length})->output(0);
}

Variable* bufferLengthConstant(Rewriter& rewriter, Variable* buffer, int64_t rows) {
    auto d = defaultBuffer(buffer);
    const Type t = d ? d->length()->type() : Type::scalar(DType::Int64);
    return rewriter.constant(NDArray::scalar(t.dtype, static_cast<double>(rows)), t);
}

namespace {

// An integer constant, also behind ExpandDims of a 0-d one.
std::optional<int64_t> intConstant(const Variable* v) {
    if (auto c = constantInt(v)) return c;
    const Variable* c = v ? rw::constantBehind(*v) : nullptr;
    return c ? constantInt(c) : std::nullopt;
}

// Through casts between 0-d tensors and scalars, and Shape_i of an array whose length
// along that axis is an input of its producer (Alloc, AllocEmpty, SetSubtensor's target).
const Variable* peel(const Variable* v) {
    for (int guard = 0; guard < 32 && v && v->owner(); ++guard) {
        const Node& n = *v->owner();
        const OpKind k = n.op().kind();
        if (k == OpKind::TensorFromScalar || k == OpKind::ScalarFromTensor) {
            v = n.input(0);
            continue;
        }
        if (k != OpKind::ShapeI) break;
        const int axis = static_cast<const ShapeIOp&>(n.op()).axis();
        const Variable* x = n.input(0);
        const Variable* dim = nullptr;
        for (int g2 = 0; g2 < 32 && x->owner() && !dim; ++g2) {
            const Node& p = *x->owner();
            if (p.op().kind() == OpKind::AllocEmpty && axis < p.numInputs()) dim = p.input(axis);
            else if (p.op().kind() == OpKind::Alloc && axis + 1 < p.numInputs()) dim = p.input(axis + 1);
            else if (p.op().kind() == OpKind::IncSubtensor || p.op().kind() == OpKind::SpecifyShape) x = p.input(0);
            else break;
        }
        if (!dim) break;
        v = dim;
    }
    return v;
}

// The same value: one variable, equal integer constants, or equal ops over inputs that
// are (pairwise, a bounded number of levels) the same value.
bool sameValue(const Variable* a, const Variable* b) {
    std::vector<std::pair<const Variable*, const Variable*>> stack{{peel(a), peel(b)}};
    for (int budget = 64; !stack.empty(); --budget) {
        if (budget == 0) return false;
        auto [x, y] = stack.back();
        stack.pop_back();
        if (x == y) continue;
        const auto cx = intConstant(x), cy = intConstant(y);
        if (cx || cy) {
            if (cx && cy && *cx == *cy) continue;
            return false;
        }
        const Node* nx = x->owner();
        const Node* ny = y->owner();
        if (!nx || !ny || nx->numInputs() != ny->numInputs() || !nx->op().equals(ny->op())) return false;
        if (x->outputIndex() != y->outputIndex()) return false;
        for (int i = 0; i < nx->numInputs(); ++i) stack.push_back({peel(nx->input(i)), peel(ny->input(i))});
    }
    return true;
}

} // namespace

bool isStepsPlus(const Variable* v, const Variable* nSteps, int64_t k) {
    if (!v || !nSteps) return false;
    v = peel(v);
    if (k == 0) return sameValue(v, nSteps);
    const Node* n = v->owner();
    if (!n || n->numInputs() != 2 || rw::plainElemwiseCode(*n) != ScalarOpCode::Add) return false;
    for (int i = 0; i < 2; ++i)
        if (intConstant(peel(n->input(i))) == k && sameValue(n->input(1 - i), nSteps)) return true;
    return false;
}

std::optional<int64_t> minimumBound(const Variable* nSteps) {
    const Node* n = nSteps ? peel(nSteps)->owner() : nullptr;
    if (!n || n->numInputs() != 2 || rw::plainElemwiseCode(*n) != ScalarOpCode::Minimum) return std::nullopt;
    for (int i = 0; i < 2; ++i)
        if (auto c = intConstant(peel(n->input(i)))) return c;
    return std::nullopt;
}

void passOutputsOn(Rewriter& rewriter, const std::vector<Variable*>& oldOuts, const std::vector<Variable*>& newOuts,
                   const std::vector<int>& outputMap, const std::vector<bool>& viaReads) {
    std::vector<char> used(oldOuts.size());
    for (size_t o = 0; o < oldOuts.size(); ++o) used[o] = !oldOuts[o]->clients().empty();
    for (size_t o = 0; o < oldOuts.size(); ++o)
        if (used[o] && !viaReads[o] && outputMap[o] >= 0) rewriter.replace(oldOuts[o], newOuts[outputMap[o]]);
}

} // namespace tl
