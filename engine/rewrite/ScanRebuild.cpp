#include "rewrite/ScanRebuild.h"

#include "analysis/GraphEquality.h"
#include "analysis/ValueNumbering.h"
#include "ir/GraphCopy.h"
#include "ir/GraphWalk.h"
#include "ops/IncSubtensor.h"

#include <stdexcept>
#include <unordered_set>

namespace tl {

namespace {

size_t mixHash(size_t h, size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

} // namespace

std::optional<int64_t> constantInt(const Variable* v) {
    if (!v || !v->isConstant()) return std::nullopt;
    const NDArray& a = v->constantValue();
    if (a.size() != 1 || !(isInteger(a.dtype()) || a.dtype() == DType::Bool)) return std::nullopt;
    return a.itemInt();
}

std::optional<DefaultBuffer> defaultBuffer(Variable* buffer) {
    Node* set = buffer ? buffer->owner() : nullptr;
    if (!set || set->op().kind() != OpKind::IncSubtensor) return std::nullopt;
    const auto& inc = static_cast<const IncSubtensorOp&>(set->op());
    const auto& e = inc.entries();
    if (!inc.setInsteadOfInc() || e.size() != 1 || e[0].kind != IndexEntry::Kind::Slice || e[0].hasStart ||
        !e[0].hasStop || e[0].hasStep || set->numInputs() != 3)
        return std::nullopt;
    const auto stop = constantInt(set->input(2));
    Node* base = set->input(0)->owner();
    if (!stop || *stop < 0 || !base) return std::nullopt;
    DefaultBuffer d;
    if (base->op().kind() == OpKind::AllocEmpty) d.dimOffset = 0;
    else if (base->op().kind() == OpKind::Alloc) d.dimOffset = 1;
    else return std::nullopt;
    if (base->numInputs() <= d.dimOffset) return std::nullopt;
    d.set = set;
    d.base = base;
    d.init = set->input(1);
    d.stop = *stop;
    return d;
}

std::string scanStateName(const ScanInfo& info, int s) {
    return std::string(scanCategoryName(info.stateCategory(s))) + "-" + std::to_string(info.indexInCategory(s));
}

std::string scanNitSotName(int k) { return "nit_sot-" + std::to_string(k); }

std::string shapeText(const Variable& v) { return Type::shapeString(v.type().shape); }

std::shared_ptr<const Graph> rebuildInnerGraph(const Graph& inner, const std::vector<bool>& keepInput,
                                               const std::vector<bool>& keepOutput,
                                               const std::unordered_map<int, int>& inputAlias,
                                               const std::unordered_map<int, int>& outputAlias, bool dedup) {
    GraphAssembler g;
    g.reserveIds(inner.nextNodeId(), inner.nextVarId());
    std::unordered_map<const Variable*, Variable*> map;
    const auto& ins = inner.inputs();
    for (size_t i = 0; i < ins.size(); ++i)
        if (keepInput[i]) map[ins[i]] = g.addInput(ins[i]->type(), ins[i]->name(), ins[i]->id());
    for (auto [from, to] : inputAlias) {
        if (!keepInput[to]) throw std::logic_error("rebuildInnerGraph: inner input " + std::to_string(from) +
                                                   " is read through inner input " + std::to_string(to) + ", which is removed");
        map[ins[from]] = map.at(ins[to]);
    }

    // The values the kept outputs need.
    std::vector<const Variable*> sources;
    for (size_t j = 0; j < inner.outputs().size(); ++j) {
        if (!keepOutput[j]) continue;
        auto it = outputAlias.find(static_cast<int>(j));
        sources.push_back(inner.output(it == outputAlias.end() ? static_cast<int>(j) : it->second));
    }
    std::vector<Variable*> constants;
    auto lookup = [&](const Variable* v) -> Variable* {
        if (auto it = map.find(v); it != map.end()) return it->second;
        if (v->isConstant()) {
            Variable* c = nullptr;
            if (dedup)
                for (Variable* k : constants)
                    if (constantsEqual(*k, *v)) c = k;
            if (!c) {
                c = copyConstant(g, *v, CopyIds::Keep);
                constants.push_back(c);
            }
            return map[v] = c;
        }
        throw std::logic_error("rebuildInnerGraph: inner variable " + std::to_string(v->id()) +
                               " reads an input of a removed state");
    };

    // Copy in topological order; with dedup, a node equal to one already copied (same op,
    // same new inputs) is not copied again: the step computes each value once.
    std::unordered_map<size_t, std::vector<Node*>> seen;
    for (Node* n : nodesFeedingInOrder(inner, sources)) {
        std::vector<Variable*> newIns;
        for (Variable* in : n->inputs()) newIns.push_back(lookup(in));
        if (dedup && ValueNumbering::mergeable(*n)) {
            size_t h = n->op().cachedHash();
            for (Variable* v : newIns) h = mixHash(h, std::hash<const void*>{}(v));
            Node* same = nullptr;
            for (Node* m : seen[h])
                if (m->inputs() == newIns && m->numOutputs() == n->numOutputs() && m->op().equals(n->op())) same = m;
            if (same) {
                for (int k = 0; k < n->numOutputs(); ++k) map[n->output(k)] = same->output(k);
                continue;
            }
        }
        Node* c = copyNode(g, *n, newIns, CopyIds::Keep);
        for (int k = 0; k < n->numOutputs(); ++k) map[n->output(k)] = c->output(k);
        if (dedup && ValueNumbering::mergeable(*n)) {
            size_t h = n->op().cachedHash();
            for (Variable* v : newIns) h = mixHash(h, std::hash<const void*>{}(v));
            seen[h].push_back(c);
        }
    }
    std::vector<Variable*> outs;
    for (const Variable* v : sources) outs.push_back(lookup(v));
    g.setOutputs(std::move(outs));
    return g.finish();
}

ScanRebuildResult rebuildScan(Rewriter& rewriter, const Node& scan, const ScanRebuildPlan& plan) {
    const auto& op = static_cast<const ScanOp&>(scan.op());
    const ScanInfo& I = op.info();
    const int T = I.nTracedStates();
    std::vector<bool> keepS = plan.keepState.empty() ? std::vector<bool>(T, true) : plan.keepState;
    std::vector<bool> keepN = plan.keepNitSot.empty() ? std::vector<bool>(I.nNitSot, true) : plan.keepNitSot;

    std::vector<bool> keepIn(I.numInnerInputs(), true), keepOut(I.numInnerOutputs(), true);
    ScanInfo info = I;
    info.mitMotInTaps.clear();
    info.mitMotOutTaps.clear();
    info.mitSotTaps.clear();
    info.nSitSot = 0;
    info.nNitSot = 0;
    ScanRebuildResult res;
    res.stateMap.assign(T, -1);
    int kept = 0;
    for (int s = 0; s < T; ++s) {
        const auto taps = I.stateTaps(s);
        if (!keepS[s]) {
            for (size_t k = 0; k < taps.size(); ++k) keepIn[I.innerInTap(s, static_cast<int>(k))] = false;
            const int nOut = s < I.nMitMot() ? static_cast<int>(I.mitMotOutTaps[s].size()) : 1;
            for (int k = 0; k < nOut; ++k) keepOut[I.innerOutState(s) + k] = false;
            continue;
        }
        res.stateMap[s] = kept++;
        switch (I.stateCategory(s)) {
        case ScanCategory::MitMot:
            info.mitMotInTaps.push_back(I.mitMotInTaps[s]);
            info.mitMotOutTaps.push_back(I.mitMotOutTaps[s]);
            break;
        case ScanCategory::MitSot: info.mitSotTaps.push_back(taps); break;
        default: ++info.nSitSot; break;
        }
    }
    std::vector<int> nitMap(I.nNitSot, -1);
    for (int k = 0; k < I.nNitSot; ++k) {
        if (keepN[k]) nitMap[k] = info.nNitSot++;
        else keepOut[I.innerOutNitSot() + k] = false;
    }
    for (auto [from, to] : plan.innerInputAlias) keepIn[from] = false;

    auto inner = rebuildInnerGraph(plan.step ? *plan.step : *op.inner(), keepIn, keepOut, plan.innerInputAlias, plan.innerOutputAlias,
                                   plan.dedupInner);

    std::vector<Variable*> outer;
    for (int idx = 0; idx < I.numOuterInputs(); ++idx) {
        if (idx >= I.outerInMitMot() && idx < I.outerInUntraced() && !keepS[idx - I.outerInMitMot()]) continue;
        if (idx >= I.outerInNitSot() && idx < I.outerInNonSeqs() && !keepN[idx - I.outerInNitSot()]) continue;
        auto it = plan.outerInput.find(idx);
        outer.push_back(it != plan.outerInput.end() ? it->second : scan.input(idx));
    }
    std::vector<int> inplace;
    for (int s : op.inplaceStates())
        if (res.stateMap[s] >= 0) inplace.push_back(res.stateMap[s]);
    const std::vector<bool>& oldReuse = plan.reuseProvenSafe ? *plan.reuseProvenSafe : op.reuseProvenSafe();
    std::vector<bool> reuse(kept, false);
    for (int s = 0; s < T; ++s)
        if (res.stateMap[s] >= 0 && s < static_cast<int>(oldReuse.size())) reuse[res.stateMap[s]] = oldReuse[s];

    auto newOp = makeScan(info, inner, op.scanName(), inplace, reuse);
    res.node = rewriter.create(newOp, outer);
    rewriter.cloned(res.node->id(), scan.id());

    res.outputMap.assign(I.numOuterOutputs(), -1);
    for (int s = 0; s < T; ++s) res.outputMap[s] = res.stateMap[s];
    for (int k = 0; k < I.nNitSot; ++k)
        if (nitMap[k] >= 0) res.outputMap[I.outerOutNitSot() + k] = info.outerOutNitSot() + nitMap[k];
    for (int u = 0; u < I.nUntraced; ++u) res.outputMap[I.outerOutUntraced() + u] = info.outerOutUntraced() + u;
    return res;
}

void replaceOutputsWith(Rewriter& rw, const Node& old, Node& fresh) {
    std::vector<VarId> ids;
    for (const Variable* o : old.outputs()) ids.push_back(o->id());
    for (size_t k = 0; k < ids.size(); ++k)
        if (Variable* o = rw.graph().findVariable(ids[k]); o && !o->clients().empty())
            rw.replace(o, fresh.output(static_cast<int>(k)));
}

} // namespace tl
