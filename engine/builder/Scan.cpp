// scan(): the graph PyTensor's pytensor.scan (scan/basic.py) builds, step by step.
#include "builder/Scan.h"

#include "builder/Math.h"
#include "ops/ScanOp.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <stdexcept>

namespace tl {

namespace {

Type rowType(const Var& v, const std::string& what) {
    if (v.type().isScalarType() || v.ndim() < 1)
        throw std::invalid_argument("scan: " + what + " must have at least one dimension, got " + v.type().toString());
    return Type::tensor(v.dtype(), StaticShape(v.type().shape.begin() + 1, v.type().shape.end()));
}

// A 0-d int64 tensor constant: the form PyTensor's shape arithmetic takes after folding.
Var int64Constant(GraphBuilder& b, int64_t v) { return b.constant(static_cast<double>(v), DType::Int64); }

// scan/utils.py expand_empty: t's rows followed by `n` uninitialised rows,
// SetSubtensor{:stop}(AllocEmpty(n + rows, *dims), t, rows).
Var expandEmpty(GraphBuilder& b, Var t, const Var& nSteps, std::optional<int64_t> fixedSteps) {
    const int64_t rows = t.type().shape[0];
    std::vector<IntArg> dims;
    if (fixedSteps && rows != kUnknownDim) dims.push_back(IntArg(int64Constant(b, *fixedSteps + rows)));
    else dims.push_back(IntArg(add(nSteps, rows != kUnknownDim ? int64Constant(b, rows) : shapeI(t, 0))));
    for (int d = 1; d < t.ndim(); ++d) {
        const int64_t s = t.type().shape[d];
        dims.push_back(s != kUnknownDim ? IntArg(int64Constant(b, s)) : IntArg(shapeI(t, d)));
    }
    Var empty = allocEmpty(b, t.dtype(), dims);
    const IntArg stop = rows != kUnknownDim ? IntArg(rows) : IntArg(shapeI(t, 0));
    return setSubtensor(empty, t, {Idx(Slice{std::nullopt, stop, std::nullopt})});
}

bool isIntScalarVar(const Var& v) { return (v.type().isScalarType() || v.ndim() == 0) && isInteger(v.dtype()); }

struct Entry {
    int user = 0;             // position in outputs_info
    std::vector<int> taps;  // as the user gave them, which is also ScanInfo's order (PyTensor's)
    int64_t initRows = 0;
    Var init;
};

} // namespace

ScanResult scan(GraphBuilder& b, const StepFn& step, const ScanArgs& args) {
    // ---- outputs_info: which entries are mit_sot, sit_sot, nit_sot.
    std::vector<Entry> mitSot, sitSot;
    std::vector<int> nitSot;
    std::vector<int> kind(args.outputsInfo.size(), 0);  // 0 nit_sot, 1 mit_sot, 2 sit_sot
    for (size_t i = 0; i < args.outputsInfo.size(); ++i) {
        const OutputInfo& o = args.outputsInfo[i];
        if (!o.initial.valid()) {
            nitSot.push_back(static_cast<int>(i));
            continue;
        }
        if (o.taps.empty()) throw std::invalid_argument("scan: outputs_info[" + std::to_string(i) + "] has no taps");
        std::set<int> seen;
        for (int t : o.taps) {
            if (t >= 0)
                throw std::invalid_argument("scan: outputs_info[" + std::to_string(i) + "]: all the tap values must be smaller than 0, got " +
                                            std::to_string(t));
            if (!seen.insert(t).second)
                throw std::invalid_argument("scan: outputs_info[" + std::to_string(i) + "]: all the taps must be different");
        }
        Entry e{static_cast<int>(i), o.taps, 0, b.capture(o.initial)};
        e.initRows = -*std::min_element(o.taps.begin(), o.taps.end());
        if (o.taps == std::vector<int>{-1}) {
            kind[i] = 2;
            sitSot.push_back(std::move(e));
        } else {
            kind[i] = 1;
            rowType(e.init, "the initial value of mit_sot outputs_info[" + std::to_string(i) + "]");
            mitSot.push_back(std::move(e));
        }
    }

    // ---- n_steps: given, or the shortest sequence (seq[0:].shape[0]).
    std::vector<Var> seqs;
    for (const Var& s : args.sequences) {
        Var v = b.capture(s);
        rowType(v, "a sequence");
        seqs.push_back(v);
    }
    Var nSteps;
    std::optional<int64_t> fixed;
    if (args.nSteps) {
        if (args.nSteps->isVar()) {
            nSteps = b.capture(args.nSteps->var());
            if (!isIntScalarVar(nSteps))
                throw std::invalid_argument("scan: n_steps must be an int. dtype provided is " + nSteps.type().toString());
            if (nSteps.type().isScalarType()) nSteps = tensorFromScalar(nSteps);
            if (nSteps->isConstant()) fixed = nSteps->constantValue().itemInt();
        } else {
            fixed = args.nSteps->value();
            nSteps = intConstant(b, *fixed);
        }
    } else {
        if (seqs.empty())
            throw std::invalid_argument("scan: no information about the number of steps provided; give n_steps or a sequence");
        std::optional<int64_t> known;
        Var dynamic;
        for (const Var& s : seqs) {
            const int64_t len = s.type().shape[0];
            if (len != kUnknownDim) known = known ? std::min(*known, len) : len;
            else dynamic = dynamic.valid() ? minimum(dynamic, shapeI(s, 0)) : shapeI(s, 0);
        }
        if (known && !dynamic.valid()) nSteps = int64Constant(b, *known);
        else if (known) nSteps = minimum(dynamic, int64Constant(b, *known));
        else nSteps = dynamic;
    }
    // Shape arithmetic folds to constants when n_steps is one (as PyTensor's rewrites fold it).
    const std::optional<int64_t> known =
        nSteps->isConstant() ? std::optional<int64_t>(nSteps->constantValue().itemInt()) : std::nullopt;
    std::vector<Var> nonSeqs;
    for (const Var& v : args.nonSequences) nonSeqs.push_back(b.capture(v));
    std::vector<Var> untracedInit;
    for (const UntracedState& u : args.untraced) {
        if (!u.initial.valid()) throw std::invalid_argument("scan: an untraced state has no initial value");
        untracedInit.push_back(b.capture(u.initial));
    }

    auto userOrder = [&](std::vector<Var> ms, std::vector<Var> ss, std::vector<Var> ns) {
        std::vector<Var> out(args.outputsInfo.size());
        size_t a = 0, c = 0, d = 0;
        for (size_t i = 0; i < kind.size(); ++i) out[i] = kind[i] == 1 ? ms[a++] : kind[i] == 2 ? ss[c++] : ns[d++];
        return out;
    };

    // ---- n_steps of 1 (or -1, a legacy case PyTensor keeps): the step applied once, no loop.
    if (args.nSteps && fixed && (*fixed == 1 || *fixed == -1)) {
        std::vector<Var> a;
        for (const Var& s : seqs) a.push_back(index(s, 0));
        std::vector<std::vector<Var>> tapArgs(args.outputsInfo.size());
        for (const Entry& e : mitSot)
            for (int t : e.taps) tapArgs[e.user].push_back(index(e.init, t + e.initRows));
        for (const Entry& e : sitSot) tapArgs[e.user].push_back(e.init);
        for (auto& t : tapArgs) a.insert(a.end(), t.begin(), t.end());
        a.insert(a.end(), nonSeqs.begin(), nonSeqs.end());
        a.insert(a.end(), untracedInit.begin(), untracedInit.end());
        StepResult r = step(b, a);
        if (r.outputs.size() != args.outputsInfo.size() && !args.outputsInfo.empty())
            throw std::invalid_argument("scan: the step returned " + std::to_string(r.outputs.size()) + " outputs for " +
                                        std::to_string(args.outputsInfo.size()) + " outputs_info entries");
        if (r.updates.size() != args.untraced.size())
            throw std::invalid_argument("scan: the step returned " + std::to_string(r.updates.size()) + " updates for " +
                                        std::to_string(args.untraced.size()) + " untraced states");
        ScanResult res;
        for (const Var& o : r.outputs) res.outputs.push_back(o.type().isScalarType() ? o : expandDims(b.capture(o), 0));
        for (const Var& u : r.updates) res.updates.push_back(b.capture(u));
        return res;
    }

    // ---- the inner graph: placeholders in ScanInfo order, then the step.
    GraphBuilder inner(&b);
    std::vector<Var> seqPh;
    for (const Var& s : seqs) seqPh.push_back(inner.placeholder(rowType(s, "a sequence")));
    std::vector<std::vector<Var>> tapArgs(args.outputsInfo.size());
    for (const Entry& e : mitSot) {
        const Type t = rowType(e.init, "a mit_sot initial value");
        // One inner input per tap in the order given, as PyTensor's scan() makes them.
        for (size_t k = 0; k < e.taps.size(); ++k) tapArgs[e.user].push_back(inner.placeholder(t));
    }
    for (const Entry& e : sitSot) tapArgs[e.user].push_back(inner.placeholder(e.init.type()));
    std::vector<Var> untracedPh;
    for (const Var& u : untracedInit) untracedPh.push_back(inner.placeholder(u.type()));
    std::vector<Var> nonSeqPh;
    for (const Var& v : nonSeqs) nonSeqPh.push_back(inner.capture(v));

    std::vector<Var> a = seqPh;
    for (auto& t : tapArgs) a.insert(a.end(), t.begin(), t.end());
    a.insert(a.end(), nonSeqPh.begin(), nonSeqPh.end());
    a.insert(a.end(), untracedPh.begin(), untracedPh.end());
    StepResult r = step(inner, a);

    if (args.outputsInfo.empty()) {
        // outputs_info omitted: every step output is a nit_sot (PyTensor's map).
        kind.assign(r.outputs.size(), 0);
        nitSot.resize(r.outputs.size());
        std::iota(nitSot.begin(), nitSot.end(), 0);
    } else if (r.outputs.size() != args.outputsInfo.size()) {
        throw std::invalid_argument("scan: the step returned " + std::to_string(r.outputs.size()) + " outputs for " +
                                    std::to_string(args.outputsInfo.size()) +
                                    " outputs_info entries (give OutputInfo::none() for outputs that are not fed back)");
    }
    if (r.updates.size() != args.untraced.size())
        throw std::invalid_argument("scan: the step returned " + std::to_string(r.updates.size()) + " updates for " +
                                    std::to_string(args.untraced.size()) + " untraced states");
    for (const Var& o : r.outputs)
        if (!o.valid()) throw std::invalid_argument("scan: the step returned an empty output");

    std::vector<Var> innerOuts;
    for (const Entry& e : mitSot) innerOuts.push_back(r.outputs[e.user]);
    for (const Entry& e : sitSot) innerOuts.push_back(r.outputs[e.user]);
    for (int i : nitSot) innerOuts.push_back(r.outputs[i]);
    for (const Var& u : r.updates) innerOuts.push_back(u);
    if (r.until.valid()) innerOuts.push_back(r.until);
    // An output taken straight from the enclosing graph becomes a captured non_sequence too.
    for (Var& o : innerOuts) o = inner.capture(o);
    const auto captures = inner.captures();  // explicit non_sequences first, then what the step used
    ScanInfo info;
    info.nSeqs = static_cast<int>(seqs.size());
    for (const Entry& e : mitSot) info.mitSotTaps.push_back(e.taps);
    info.nSitSot = static_cast<int>(sitSot.size());
    info.nNitSot = static_cast<int>(nitSot.size());
    info.nUntraced = static_cast<int>(untracedInit.size());
    info.nNonSeqs = static_cast<int>(captures.size());
    info.asWhile = r.until.valid();
    std::shared_ptr<const Graph> graph = inner.finish(innerOuts);
    if (static_cast<int>(graph->inputs().size()) != info.numInnerInputs())
        throw std::invalid_argument("scan: the step created inputs of its own; use the args it is given");
    auto op = makeScan(info, graph, args.name);

    // ---- the outer node.
    std::vector<Var> outer{nSteps};
    for (const Var& s : seqs) {
        Var v = slice(s, IntArg(0), std::nullopt);
        outer.push_back(slice(v, std::nullopt, known ? IntArg(*known) : IntArg(nSteps)));
    }
    for (const Entry& e : mitSot)
        outer.push_back(expandEmpty(b, slice(e.init, std::nullopt, IntArg(e.initRows)), nSteps, known));
    for (const Entry& e : sitSot) outer.push_back(expandEmpty(b, expandDims(e.init, 0), nSteps, known));
    outer.insert(outer.end(), untracedInit.begin(), untracedInit.end());
    for (size_t k = 0; k < nitSot.size(); ++k) outer.push_back(nSteps);
    for (const auto& c : captures) outer.push_back(c.first);
    std::vector<Var> outs = b.apply(op, outer);

    ScanResult res;
    res.node = outs.empty() ? nullptr : outs[0]->owner();
    res.rawOutputs = outs;
    std::vector<Var> ms, ss, ns;
    size_t o = 0;
    for (const Entry& e : mitSot) ms.push_back(slice(outs[o++], IntArg(e.initRows), std::nullopt));
    for (size_t k = 0; k < sitSot.size(); ++k) ss.push_back(slice(outs[o++], IntArg(1), std::nullopt));
    for (size_t k = 0; k < nitSot.size(); ++k) ns.push_back(outs[o++]);
    for (size_t k = 0; k < untracedInit.size(); ++k) res.updates.push_back(outs[o++]);
    res.outputs = userOrder(ms, ss, ns);
    return res;
}

} // namespace tl
