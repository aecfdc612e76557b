#include "compare/GraphSummary.h"

#include "ops/Elemwise.h"
#include "ops/ScalarOp.h"
#include "ops/ScanOp.h"
#include "trace/GraphFacts.h"

#include <optional>

namespace tl {

namespace {

// How n_steps is computed, in one short phrase: "10", "n", "Shape_i{0}(xs)".
std::string stepsText(const Variable* n) {
    if (n->isConstant() && n->constantValue().size() == 1) return std::to_string(n->constantValue().itemInt());
    if (!n->name().empty() || !n->owner()) return n->name().empty() ? "?" : n->name();
    const Node& o = *n->owner();
    std::string s = o.op().name() + "(";
    for (int i = 0; i < o.numInputs(); ++i) {
        const Variable* in = o.input(i);
        std::string leaf = !in->name().empty()                                     ? in->name()
                           : in->isConstant() && in->constantValue().size() == 1   ? std::to_string(in->constantValue().itemInt())
                           : in->owner()                                           ? in->owner()->op().name() + "(...)"
                                                                                   : "?";
        s += (i ? ", " : "") + leaf;
    }
    return s + ")";
}

bool isRead(const Variable& out) {
    for (const Client& c : out.clients()) {
        if (c.isGraphOutput()) return true;
        for (const Variable* o : c.node->outputs())
            if (!o->clients().empty()) return true;
    }
    return false;
}

std::string deepCopyUse(const Node& copy) {
    std::string uses;
    for (const Client& c : copy.output(0)->clients()) {
        std::string use;
        if (c.isGraphOutput()) use = "output " + std::to_string(c.index);
        else if (auto info = scanInfoOf(c.node->op()))
            use = "outer_in_" + scanOuterInputLabel(*info, c.index) + " of " + static_cast<const ScanOp&>(c.node->op()).scanName();
        else use = c.node->op().name();
        if (uses.find(use) == std::string::npos) uses += (uses.empty() ? "" : ", ") + use;
    }
    const Variable* in = copy.input(0);
    const std::string what = in->owner() ? in->owner()->op().name() : !in->name().empty() ? in->name() : "a constant";
    return what + " for " + (uses.empty() ? "nothing" : uses);
}

LoopSummary summarizeLoop(const Node& n) {
    const auto& op = static_cast<const ScanOp&>(n.op());
    const ScanInfo& I = op.info();
    LoopSummary l;
    l.node = n.id();
    l.name = op.scanName();
    l.opName = op.name();
    l.nSteps = stepsText(n.input(0));
    l.whileLoop = I.asWhile;
    l.recurrentStates = I.nTracedStates() + I.nUntraced;
    const std::vector<BufferRow> buffers = scanBuffers(n);
    for (size_t b = 0; b < buffers.size(); ++b) {
        const BufferRow& row = buffers[b];
        StateSummary s;
        s.label = row.label;
        s.category = row.label.substr(0, row.label.find('-'));
        s.shape = row.shape;
        s.rows = row.rows;
        s.bytes = row.bytes;
        const int state = static_cast<int>(b);
        if (state < I.nTracedStates()) {
            s.taps = I.stateTaps(state);
            s.outputRead = isRead(*n.output(state));
            s.inplace = op.isInplace(state);
            s.reuseProven = state < static_cast<int>(op.reuseProvenSafe().size()) && op.reuseProvenSafe()[state];
        } else {
            s.outputRead = isRead(*n.output(I.outerOutNitSot() + (state - I.nTracedStates())));
        }
        if (s.bytes < 0 || l.bufferBytes < 0) l.bufferBytes = -1;
        else l.bufferBytes += s.bytes;
        l.states.push_back(std::move(s));
    }
    const StepCost cost = stepCost(*op.inner());
    l.stepNodes = cost.nodes;
    l.scalarOps = cost.scalarOps;
    l.exps = cost.exps;
    return l;
}

} // namespace

StepCost stepCost(const Graph& step) {
    StepCost c;
    // Explicit stack of graphs: Composite bodies and nested loops' steps, no recursion.
    std::vector<std::pair<const Graph*, bool>> todo{{&step, true}};  // (graph, is the step itself)
    while (!todo.empty()) {
        auto [g, top] = todo.back();
        todo.pop_back();
        if (top) c.nodes += static_cast<int>(g->numNodes());
        for (const Node* n : g->nodes()) {
            const OpKind k = n->op().kind();
            if (k == OpKind::Scalar) {
                ++c.scalarOps;
                if (static_cast<const ScalarOp&>(n->op()).code() == ScalarOpCode::Exp) ++c.exps;
            } else if (k == OpKind::Elemwise) {
                const auto& e = static_cast<const Elemwise&>(n->op());
                if (e.isComposite() || e.isScalarLoop()) todo.push_back({e.innerGraph().get(), false});
                else {
                    ++c.scalarOps;
                    if (e.scalarOp() == ScalarOpCode::Exp) ++c.exps;
                }
            } else if (k == OpKind::Scan) {
                todo.push_back({static_cast<const ScanOp&>(n->op()).inner().get(), false});
            }
        }
    }
    return c;
}

GraphSummary summarizeGraph(const Graph& g) {
    GraphSummary s;
    s.nodes = static_cast<int>(g.numNodes());
    for (const Node* n : g.toposort()) {
        if (n->op().kind() == OpKind::DeepCopy) {
            ++s.deepCopies;
            s.deepCopyOf.push_back(deepCopyUse(*n));
        }
        if (n->op().kind() != OpKind::Scan || !dynamic_cast<const ScanOp*>(&n->op())) continue;
        ++s.loops;
        s.loopSummaries.push_back(summarizeLoop(*n));
        const int64_t b = s.loopSummaries.back().bufferBytes;
        s.bufferBytes = (b < 0 || s.bufferBytes < 0) ? -1 : s.bufferBytes + b;
    }
    return s;
}

} // namespace tl
