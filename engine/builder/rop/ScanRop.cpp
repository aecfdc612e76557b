// Scan's forward derivative, as PyTensor's Scan.R_op: a new loop named
// "rop_of_<name>" whose every category holds the primal entries followed by
// their tangents (sequences, mit_mot, mit_sot, sit_sot, nit_sot, non_sequences;
// untraced states only once), because the tangent recurrence needs the primal
// value at each step. Its tangent outputs are the result.
#include "builder/rop/OpRop.h"

#include "builder/Indexing.h"
#include "builder/Rop.h"
#include "ir/Graph.h"
#include "ops/ScanOp.h"

#include <unordered_map>

namespace tl {

namespace {
struct Range {
    int begin, end;
};
} // namespace

std::vector<Variable*> scanRop(GraphBuilder& b, const Node& node, std::span<Variable* const> inputTangents) {
    const auto& scan = static_cast<const ScanOp&>(node.op());
    const ScanInfo& I = scan.info();
    const Graph& g = *scan.inner();
    const int nIn = I.numInnerInputs();

    // 1. The new inner graph: placeholders (primal range, then its tangents), a clone of
    // the step on the primal placeholders, and the step's forward derivative.
    GraphBuilder ib;
    std::vector<Var> primal(nIn), tangent(nIn);
    const Range innerRanges[] = {{0, I.nSeqs},
                                 {I.innerInMitMot(), I.innerInMitSot()},
                                 {I.innerInMitSot(), I.innerInSitSot()},
                                 {I.innerInSitSot(), I.innerInUntraced()},
                                 {I.innerInUntraced(), I.innerInNonSeqs()},
                                 {I.innerInNonSeqs(), nIn}};
    for (int r = 0; r < 6; ++r) {
        for (int i = innerRanges[r].begin; i < innerRanges[r].end; ++i) primal[i] = ib.placeholder(g.inputs()[i]->type());
        if (r == 4) continue;  // untraced states carry no tangent (PyTensor's shared outputs)
        for (int i = innerRanges[r].begin; i < innerRanges[r].end; ++i) tangent[i] = ib.placeholder(g.inputs()[i]->type());
    }
    std::unordered_map<const Variable*, Var> map;
    for (int i = 0; i < nIn; ++i) map[g.inputs()[i]] = primal[i];
    auto lookup = [&](const Variable* v) -> Var {
        auto it = map.find(v);
        if (it != map.end()) return it->second;
        if (v->isConstant()) return map[v] = ib.constant(v->constantValue(), v->type());
        throw std::logic_error("Scan R_op: inner variable " + std::to_string(v->id()) + " has no value");
    };
    for (Node* n : g.toposort()) {
        std::vector<Var> ins;
        for (Variable* in : n->inputs()) ins.push_back(lookup(in));
        std::vector<Var> outs = ib.apply(n->opPtr(), ins);
        for (int k = 0; k < n->numOutputs(); ++k) map[n->output(k)] = outs[k];
    }
    std::vector<Var> primalOut;
    for (Variable* o : g.outputs()) primalOut.push_back(lookup(o));

    // Outputs differentiated: everything but the untraced updates and the condition.
    const int nDiff = I.innerOutUntraced();
    std::vector<Var> wrt, evalPoints;
    for (int i = 0; i < nIn; ++i)
        if (tangent[i].valid()) {
            wrt.push_back(primal[i]);
            evalPoints.push_back(tangent[i]);
        }
    std::vector<Var> diffOuts(primalOut.begin(), primalOut.begin() + nDiff);
    std::vector<Var> tangentOut = forwardTangents(ib, diffOuts, wrt, evalPoints);
    for (int j = 0; j < nDiff; ++j)
        if (!tangentOut[j].valid()) tangentOut[j] = zerosLike(primalOut[j]);  // PyTensor's return_disconnected="zero"

    std::vector<Var> innerOuts;
    const Range outRanges[] = {{0, I.innerOutMitSot()},
                               {I.innerOutMitSot(), I.innerOutSitSot()},
                               {I.innerOutSitSot(), I.innerOutNitSot()},
                               {I.innerOutNitSot(), I.innerOutUntraced()}};
    for (const Range& r : outRanges) {
        for (int j = r.begin; j < r.end; ++j) innerOuts.push_back(primalOut[j]);
        for (int j = r.begin; j < r.end; ++j) innerOuts.push_back(tangentOut[j]);
    }
    for (int j = I.innerOutUntraced(); j < I.numInnerOutputs(); ++j) innerOuts.push_back(primalOut[j]);  // updates, cond

    ScanInfo info;
    info.nSeqs = I.nSeqs * 2;
    info.mitMotInTaps = I.mitMotInTaps;
    info.mitMotInTaps.insert(info.mitMotInTaps.end(), I.mitMotInTaps.begin(), I.mitMotInTaps.end());
    info.mitMotOutTaps = I.mitMotOutTaps;
    info.mitMotOutTaps.insert(info.mitMotOutTaps.end(), I.mitMotOutTaps.begin(), I.mitMotOutTaps.end());
    info.mitSotTaps = I.mitSotTaps;
    info.mitSotTaps.insert(info.mitSotTaps.end(), I.mitSotTaps.begin(), I.mitSotTaps.end());
    info.nSitSot = I.nSitSot * 2;
    info.nNitSot = I.nNitSot * 2;
    info.nUntraced = I.nUntraced;
    info.nNonSeqs = I.nNonSeqs * 2;
    info.asWhile = I.asWhile;
    auto op = makeScan(info, ib.finish(innerOuts), "rop_of_" + scan.scanName());

    // 2. The outer node: each range's inputs, then their tangents (zeros where none).
    std::vector<Var> outer{b.wrap(node.input(0))};
    auto withTangents = [&](int begin, int end) {
        for (int i = begin; i < end; ++i) outer.push_back(b.wrap(node.input(i)));
        for (int i = begin; i < end; ++i)
            outer.push_back(inputTangents[i] ? b.wrap(inputTangents[i]) : zerosLike(b.wrap(node.input(i))));
    };
    withTangents(I.outerInSeqs(), I.outerInMitMot());
    withTangents(I.outerInMitMot(), I.outerInMitSot());
    withTangents(I.outerInMitSot(), I.outerInSitSot());
    withTangents(I.outerInSitSot(), I.outerInUntraced());
    for (int i = I.outerInUntraced(); i < I.outerInNitSot(); ++i) outer.push_back(b.wrap(node.input(i)));
    for (int rep = 0; rep < 2; ++rep)
        for (int i = I.outerInNitSot(); i < I.outerInNonSeqs(); ++i) outer.push_back(b.wrap(node.input(i)));
    withTangents(I.outerInNonSeqs(), I.numOuterInputs());
    std::vector<Var> outs = b.apply(op, outer);

    // 3. The tangent of outer output k of category c is the new node's output
    // (start of c in the doubled layout) + (count of c) + (k's index in c).
    std::vector<Variable*> result;
    const int counts[] = {I.nMitMot(), I.nMitSot(), I.nSitSot, I.nNitSot};
    int start = 0;
    for (int c = 0; c < 4; ++c) {
        for (int k = 0; k < counts[c]; ++k) result.push_back(outs[start + counts[c] + k].get());
        start += 2 * counts[c];
    }
    for (int k = 0; k < I.nUntraced; ++k) result.push_back(nullptr);
    return result;
}

} // namespace tl
