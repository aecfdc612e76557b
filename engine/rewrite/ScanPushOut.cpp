#include "rewrite/ScanPushOut.h"

#include "ops/DimShuffle.h"
#include "ops/Elemwise.h"
#include "ir/GraphCopy.h"
#include "rewrite/ScanRebuild.h"

#include <stdexcept>

namespace tl {

namespace {
bool isMovableOp(const Op& op) {
    // Ops that allocate fresh per-call state or cannot run outside are kept in the loop.
    switch (op.kind()) {
    case OpKind::Scan:
    case OpKind::Opaque:
    case OpKind::AllocEmpty:
    case OpKind::DeepCopy:
    case OpKind::Assert:
    case OpKind::CheckAndRaise:
    case OpKind::Print: return false;
    default: return op.destroyMap().empty();
    }
}
} // namespace

std::unordered_map<const Variable*, StepDependence> classifyStep(const ScanOp& scan, bool allowPerRow) {
    const ScanInfo& info = scan.info();
    const Graph& g = *scan.inner();
    std::unordered_map<const Variable*, StepDependence> cls;
    for (int i = 0; i < info.numInnerInputs(); ++i) {
        StepDependence d = StepDependence::Loop;
        if (i < info.nSeqs) d = allowPerRow ? StepDependence::PerRow : StepDependence::Loop;
        else if (i >= info.innerInNonSeqs()) d = StepDependence::Invariant;
        cls[g.inputs()[i]] = d;
    }
    for (const Variable* c : g.constants()) cls[c] = StepDependence::Invariant;
    for (const Node* n : g.toposort()) {
        StepDependence d = StepDependence::Invariant;
        for (const Variable* in : n->inputs()) d = std::max(d, cls.at(in));
        if (!isMovableOp(n->op())) d = StepDependence::Loop;
        // Per-row values may only pass through ops that act on each row alone.
        if (d == StepDependence::PerRow && n->op().kind() != OpKind::Elemwise && n->op().kind() != OpKind::DimShuffle)
            d = StepDependence::Loop;
        for (const Variable* o : n->outputs()) cls[o] = d;
    }
    return cls;
}

OuterCopier::OuterCopier(Rewriter& rw, const Node& scanNode,
                         const std::unordered_map<const Variable*, StepDependence>& classes)
    : m_rw(rw), m_scan(scanNode), m_op(static_cast<const ScanOp&>(scanNode.op())), m_classes(classes) {}

Variable* OuterCopier::liftedToRows(const Variable* v) {
    Variable* o = outer(v);
    std::vector<int> order{-1};
    for (int k = 0; k < o->type().ndim(); ++k) order.push_back(k);
    // A ScalarType constant cannot be lifted; loop bodies hold 0-d tensors for those.
    return m_rw.create(makeDimShuffle(o->type().ndim(), order), {o})->output(0);
}

Variable* OuterCopier::outer(const Variable* root) {
    const ScanInfo& info = m_op.info();
    const Graph& g = *m_op.inner();
    // Iterative post-order over the loop body: no recursion on its depth.
    std::vector<std::pair<const Variable*, bool>> stack{{root, false}};
    while (!stack.empty()) {
        auto [v, expanded] = stack.back();
        stack.pop_back();
        if (m_outer.count(v)) continue;
        const StepDependence d = m_classes.at(v);
        if (d == StepDependence::Loop) throw std::logic_error("outer copy of a loop-dependent step value");
        if (v->isConstant()) {
            m_outer[v] = m_rw.constant(v->constantValue(), v->type());
            continue;
        }
        if (!v->owner()) {
            // A step input: a sequence row or a non_sequence.
            int i = 0;
            while (g.inputs()[i] != v) ++i;
            if (i < info.nSeqs) m_outer[v] = m_sequenceRows ? m_sequenceRows(i) : m_scan.input(info.outerInSeqs() + i);
            else m_outer[v] = m_scan.input(info.outerInNonSeqs() + (i - info.innerInNonSeqs()));
            continue;
        }
        const Node* n = v->owner();
        if (!expanded) {
            stack.push_back({v, true});
            for (const Variable* in : n->inputs())
                if (!m_outer.count(in)) stack.push_back({in, false});
            continue;
        }
        std::vector<Variable*> ins;
        OpPtr op = n->opPtr();
        if (d == StepDependence::PerRow) {
            for (const Variable* in : n->inputs())
                ins.push_back(m_classes.at(in) == StepDependence::PerRow ? outer(in) : liftedToRows(in));
            if (n->op().kind() == OpKind::DimShuffle) {
                // Keep the row axis first: shift every kept axis by one.
                const auto& ds = static_cast<const DimShuffleOp&>(n->op());
                std::vector<int> order{0};
                for (int a : ds.newOrder()) order.push_back(a < 0 ? -1 : a + 1);
                op = makeDimShuffle(ds.inputNdim() + 1, order);
            }
        } else {
            for (const Variable* in : n->inputs()) ins.push_back(outer(in));
        }
        Node* copy = m_rw.create(op, std::move(ins));
        m_rw.cloned(copy->id(), m_scan.id());
        for (int k = 0; k < n->numOutputs(); ++k) m_outer[n->output(k)] = copy->output(k);
    }
    return m_outer.at(root);
}

Node* rebuildWithNewInputs(Rewriter& rw, Node& scanNode,
                           const std::vector<std::pair<const Variable*, Variable*>>& newSeqs,
                           const std::vector<std::pair<const Variable*, Variable*>>& newNonSeqs) {
    const auto& op = static_cast<const ScanOp&>(scanNode.op());
    const ScanInfo& info = op.info();
    const Graph& old = *op.inner();
    ScanInfo ni = info;
    ni.nSeqs += static_cast<int>(newSeqs.size());
    ni.nNonSeqs += static_cast<int>(newNonSeqs.size());

    GraphAssembler a;
    std::unordered_map<const Variable*, Variable*> map;
    auto place = [&](int from, int to) {
        for (int i = from; i < to; ++i) map[old.inputs()[i]] = a.addInput(old.inputs()[i]->type());
    };
    place(0, info.nSeqs);
    for (auto& [stepVar, outerVar] : newSeqs) map[stepVar] = a.addInput(stepVar->type());
    place(info.nSeqs, info.numInnerInputs());
    for (auto& [stepVar, outerVar] : newNonSeqs) map[stepVar] = a.addInput(stepVar->type());
    // Pushed-out values are already mapped to their new inputs, so their nodes are not copied.
    copyGraphInto(a, old, map, CopyIds::Fresh);
    std::vector<Variable*> outs;
    for (const Variable* o : old.outputs()) outs.push_back(map.at(o));
    a.setOutputs(std::move(outs));
    std::shared_ptr<Graph> g = a.finish();
    // Nodes no step output needs any more (the pushed-out ones' inputs) are dropped.
    {
        Rewriter inner(*g);
        inner.pruneDead();
    }

    std::vector<Variable*> ins(scanNode.inputs().begin(), scanNode.inputs().begin() + info.outerInMitMot());
    for (auto& [stepVar, outerVar] : newSeqs) ins.push_back(outerVar);
    ins.insert(ins.end(), scanNode.inputs().begin() + info.outerInMitMot(), scanNode.inputs().end());
    for (auto& [stepVar, outerVar] : newNonSeqs) ins.push_back(outerVar);
    Node* fresh = rw.create(makeScan(ni, g, op.scanName(), op.inplaceStates(), op.reuseProvenSafe()), std::move(ins));
    rw.cloned(fresh->id(), scanNode.id());
    replaceOutputsWith(rw, scanNode, *fresh);
    return fresh;
}

} // namespace tl
