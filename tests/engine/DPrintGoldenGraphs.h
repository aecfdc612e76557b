#pragma once
// The graphs behind real PyTensor dprint listings (tests/golden/dprint/*.txt): the
// compiled FAST_RUN / no-prealloc graphs of tests/oracle/*/ and the two listings
// of the seed issue, rebuilt op by op with the same sharing of variables (a
// constant printed twice with one [id] is one Variable here too).
#include "ir/GraphAssembler.h"
#include "ir/Graph.h"
#include "ops/Alloc.h"
#include "ops/DeepCopy.h"
#include "ops/DimShuffle.h"
#include "ops/Elemwise.h"
#include "ops/IncSubtensor.h"
#include "ops/Reduce.h"
#include "ops/ScalarOp.h"
#include "ops/ScanOp.h"
#include "ops/SpecifyShape.h"
#include "ops/Subtensor.h"
#include "ops/Unbroadcast.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tl::golden {

constexpr int64_t U = kUnknownDim;

inline Type vec(int64_t n, DType d = DType::Float64) { return Type::tensor(d, {n}); }
inline Type mat(int64_t r, int64_t c, DType d = DType::Float64) { return Type::tensor(d, {r, c}); }

/// Terse construction of one graph.
struct G {
    GraphAssembler g;
    Variable* in(const std::string& name, Type t) { return g.addInput(std::move(t), name); }
    Variable* placeholder(Type t) { return g.addInput(std::move(t)); }
    /// A 0-d TensorConstant (printed <Scalar(int8, shape=())>).
    Variable* c(double v, DType d) { return g.addConstant(NDArray::scalar(d, v)); }
    /// A ScalarConstant (printed <int64>).
    Variable* sc(double v, DType d = DType::Int64) { return g.addConstant(NDArray::scalar(d, v), Type::scalar(d)); }
    Node* node(OpPtr op, std::vector<Variable*> ins) { return g.addNode(std::move(op), std::move(ins)); }
    Variable* ap(OpPtr op, std::vector<Variable*> ins) { return node(std::move(op), std::move(ins))->output(0); }
    std::unique_ptr<Graph> finish(std::vector<Variable*> outs) {
        g.setOutputs(std::move(outs));
        return g.finish();
    }
};

/// A scalar graph for a Composite body: inputs i0.., constants, scalar ops.
struct S {
    GraphAssembler ga;
    std::vector<Variable*> i;
    explicit S(int nin) {
        for (int k = 0; k < nin; ++k) i.push_back(ga.addInput(Type::scalar(DType::Float64)));
    }
    Variable* c(double v) { return ga.addConstant(NDArray::scalar(DType::Float64, v), Type::scalar(DType::Float64)); }
    Variable* op(ScalarOpCode code, std::vector<Variable*> ins) {
        return ga.addNode(makeScalarOp(code), std::move(ins))->output(0);
    }
    OpPtr composite(std::vector<Variable*> outs) {
        ga.setOutputs(std::move(outs));
        return makeCompositeElemwise(*ga.finish());
    }
};

inline IndexEntry idx() { return IndexEntry{IndexEntry::Kind::Index}; }
inline IndexEntry slice(bool start, bool stop, bool step = false) {
    return IndexEntry{IndexEntry::Kind::Slice, start, stop, step};
}
inline OpPtr subI() { return makeSubtensor({idx()}); }
inline OpPtr subStart() { return makeSubtensor({slice(true, false)}); }
inline OpPtr subStop() { return makeSubtensor({slice(false, true)}); }
inline OpPtr setStop(bool inplace) { return makeIncSubtensor({slice(false, true)}, true, inplace); }
inline OpPtr expandDims0(int ndim = 1) {
    std::vector<int> order{-1};
    for (int k = 0; k < ndim; ++k) order.push_back(k);
    return makeDimShuffle(ndim, order);
}
inline OpPtr allocEmpty() { return makeAllocEmpty(DType::Float64); }

// Composite bodies that recur.
inline OpPtr compExpMinus5() {  // Composite{(-5.0 + exp(i0))}
    S s(1);
    Variable* e = s.op(ScalarOpCode::Exp, {s.i[0]});
    return s.composite({s.op(ScalarOpCode::Add, {s.c(-5.0), e})});
}
inline OpPtr compAffine(double a, double b) {  // Composite{(a + (b * i0))}
    S s(1);
    Variable* m = s.op(ScalarOpCode::Mul, {s.c(b), s.i[0]});
    return s.composite({s.op(ScalarOpCode::Add, {s.c(a), m})});
}
inline OpPtr compQuad() {  // Composite{(-1.0 + (0.25 * i0 * i0))}
    S s(1);
    Variable* m = s.op(ScalarOpCode::Mul, {s.c(0.25), s.i[0], s.i[0]});
    return s.composite({s.op(ScalarOpCode::Add, {s.c(-1.0), m})});
}
inline OpPtr compExpAndTangent() {  // Composite{...}: (-5.0 + exp(i0)), exp(i0) * i1
    S s(2);
    Variable* e = s.op(ScalarOpCode::Exp, {s.i[0]});
    return s.composite({s.op(ScalarOpCode::Add, {s.c(-5.0), e}), s.op(ScalarOpCode::Mul, {e, s.i[1]})});
}

inline std::shared_ptr<const Graph> share(std::unique_ptr<Graph> g) { return std::shared_ptr<const Graph>(std::move(g)); }

inline ScanInfo sitSots(int n) {
    ScanInfo info;
    info.nSitSot = n;
    return info;
}
inline std::vector<int> allStates(int n) {
    std::vector<int> v;
    for (int k = 0; k < n; ++k) v.push_back(k);
    return v;
}

// A sit_sot loop whose states each apply their own Composite to their own input.
inline std::shared_ptr<const Graph> parallelBody(const std::vector<OpPtr>& comps, const std::vector<Type>& types) {
    G b;
    std::vector<Variable*> outs;
    std::vector<Variable*> ins;
    for (const Type& t : types) ins.push_back(b.placeholder(t));
    for (size_t k = 0; k < comps.size(); ++k) outs.push_back(b.ap(comps[k], {ins[k]}));
    return share(b.finish(outs));
}

// ----------------------------------------------------------------------------- cases

/// seed_rop: the primal loop fused with its forward derivative (fast_run / no_prealloc).
inline std::unique_ptr<Graph> seedRop(bool prealloc) {
    G o;
    Variable* x = o.in("x_init", vec(7));
    Variable* xt = o.in("x_init_tangent", vec(7));
    Variable* c10 = o.c(10, DType::Int8);
    Variable* c7 = o.c(7, DType::Int64);
    Variable* one = o.sc(1);
    Variable* e = o.ap(allocEmpty(), {o.c(2, DType::Int64), c7});
    Variable* h = o.ap(expandDims0(), {x});
    Variable* d = o.ap(setStop(true), {e, h, one});
    Variable* m = o.ap(makeAlloc(), {o.c(0.0, DType::Float64), o.c(11, DType::Int64), c7});
    Variable* l = o.ap(setStop(true), {m, o.ap(expandDims0(), {xt}), one});
    Variable* k = o.ap(subStop(), {l, prealloc ? o.sc(2) : one});
    Variable* t = o.ap(allocEmpty(), {o.c(prealloc ? 2 : 1, DType::Int64), c7});
    Variable* s = o.ap(setStop(true), {t, h, one});
    G b;
    Variable* x0 = b.placeholder(vec(7));
    Variable* x1 = b.placeholder(vec(7));
    Variable* x2 = b.placeholder(vec(7));
    Node* both = b.node(compExpAndTangent(), {x0, x1});
    Variable* prim = b.ap(compExpMinus5(), {x2});
    auto body = share(b.finish({both->output(0), both->output(1), prim}));
    Node* scan = o.node(makeScan(sitSots(3), body, "rop_of_scan_fn&scan_fn", allStates(3)), {c10, d, k, s});
    Variable* last = prealloc ? one : o.sc(0);
    Variable* a = o.ap(subI(), {scan->output(2), last});
    Variable* v = o.ap(subI(), {scan->output(1), prealloc ? o.sc(1) : last});
    return o.finish({a, v});
}

/// seed_dup and dup_affine / dup_diff_update: two identical traces, the second
/// initial buffer a DeepCopyOp of the first.
inline std::unique_ptr<Graph> dupPair(const char* input, int64_t width, double nSteps, OpPtr c0, OpPtr c1) {
    G o;
    Variable* x = o.in(input, vec(width));
    Variable* one = o.sc(1);
    Variable* e = o.ap(allocEmpty(), {o.c(nSteps + 1, DType::Int64), o.c(static_cast<double>(width), DType::Int64)});
    Variable* d = o.ap(setStop(true), {e, o.ap(expandDims0(), {x}), one});
    Variable* k = o.ap(makeDeepCopy(), {d});
    auto body = parallelBody({std::move(c0), std::move(c1)}, {vec(width), vec(width)});
    Node* scan = o.node(makeScan(sitSots(2), body, "scan_fn", allStates(2)), {o.c(nSteps, DType::Int8), d, k});
    return o.finish({o.ap(subStart(), {scan->output(0), one}), o.ap(subStart(), {scan->output(1), one})});
}

/// dup_last_only: both traces shrunk to their last rows; one AllocEmpty and ExpandDims shared.
inline std::unique_ptr<Graph> dupLastOnly(bool prealloc) {
    G o;
    Variable* x = o.in("a0", vec(4));
    Variable* one = o.sc(1);
    Variable* e = o.ap(allocEmpty(), {o.c(prealloc ? 2 : 1, DType::Int64), o.c(4, DType::Int64)});
    Variable* h = o.ap(expandDims0(), {x});
    Variable* d = o.ap(setStop(false), {e, h, one});
    Variable* k = o.ap(setStop(true), {e, h, one});
    auto body = parallelBody({compAffine(1.0, 2.0), compAffine(1.0, 2.0)}, {vec(4), vec(4)});
    Node* scan = o.node(makeScan(sitSots(2), body, "scan_fn", allStates(2)), {o.c(6, DType::Int8), d, k});
    Variable* last = prealloc ? one : o.sc(0);
    return o.finish({o.ap(subI(), {scan->output(0), last}), o.ap(subI(), {scan->output(1), prealloc ? o.sc(1) : last})});
}

/// A Fibonacci-like mit_sot loop x[t] = x[t-1] + x[t-2] over a `rows` buffer.
inline Node* fibScan(G& o, Variable* x0, int64_t rows, double nSteps, Variable* two) {
    Variable* e = o.ap(allocEmpty(), {o.c(static_cast<double>(rows), DType::Int64)});
    Variable* d = o.ap(setStop(true), {e, x0, two});
    G b;
    Variable* tm2 = b.placeholder(Type::tensor(DType::Float64, {}));
    Variable* tm1 = b.placeholder(Type::tensor(DType::Float64, {}));
    auto body = share(b.finish({b.ap(makeElemwise(ScalarOpCode::Add), {tm1, tm2})}));
    ScanInfo info;
    info.mitSotTaps = {{-2, -1}};
    return o.node(makeScan(info, body, "scan_fn", {0}), {o.c(nSteps, DType::Int8), d});
}

inline std::unique_ptr<Graph> dupMitsotFib() {
    G o;
    Variable* x0 = o.in("x0", vec(2));
    Variable* two = o.sc(2);
    Node* scan = fibScan(o, x0, 10, 8, two);
    Variable* b = o.ap(subStart(), {scan->output(0), two});
    return o.finish({o.ap(makeDeepCopy(), {b}), b});
}

inline std::unique_ptr<Graph> savememMitsotFibLast(bool prealloc) {
    G o;
    Variable* x0 = o.in("x0", vec(2));
    Variable* two = o.sc(2);
    Node* scan = fibScan(o, x0, prealloc ? 3 : 2, 10, two);
    return o.finish({o.ap(subI(), {scan->output(0), prealloc ? two : o.sc(1)})});
}

/// One sit_sot loop: SetSubtensor{:stop}(AllocEmpty(rows, width), ExpandDims(x0), 1).
struct SitSot {
    Node* scan;
    Variable* one;
};
inline SitSot sitSotLoop(G& o, const char* input, int64_t width, int64_t rows, double nSteps, DType nStepsType,
                         OpPtr comp, Variable* one = nullptr) {
    Variable* x = o.in(input, vec(width));
    if (!one) one = o.sc(1);
    Variable* e = o.ap(allocEmpty(),
                       {o.c(static_cast<double>(rows), DType::Int64), o.c(static_cast<double>(width), DType::Int64)});
    Variable* d = o.ap(setStop(true), {e, o.ap(expandDims0(), {x}), one});
    auto body = parallelBody({std::move(comp)}, {vec(width)});
    Node* scan = o.node(makeScan(sitSots(1), body, "scan_fn", {0}), {o.c(nSteps, nStepsType), d});
    return {scan, one};
}

inline std::unique_ptr<Graph> savememSitsotFull() {
    G o;
    SitSot l = sitSotLoop(o, "x0", 3, 11, 10, DType::Int8, compAffine(1.0, 0.5));
    return o.finish({o.ap(subStart(), {l.scan->output(0), l.one})});
}

inline std::unique_ptr<Graph> savememSitsotLast(bool prealloc) {
    G o;
    SitSot l = sitSotLoop(o, "x0", 3, prealloc ? 2 : 1, 10, DType::Int8, compAffine(1.0, 0.5));
    return o.finish({o.ap(subI(), {l.scan->output(0), o.sc(prealloc ? 1 : 0)})});
}

inline std::unique_ptr<Graph> savememSitsotLast2() {
    G o;
    SitSot l = sitSotLoop(o, "x0", 3, 2, 10, DType::Int8, compAffine(1.0, 0.5));
    return o.finish({l.scan->output(0)});
}

inline std::unique_ptr<Graph> savememSitsotFirst5() {
    G o;
    SitSot l = sitSotLoop(o, "x0", 3, 6, 5, DType::Int64, compAffine(1.0, 0.5));
    Variable* sl = o.ap(makeSubtensor({slice(true, true)}),
                        {l.scan->output(0), o.sc(1, DType::Int8), o.sc(6, DType::Int8)});
    return o.finish({sl});
}

inline std::unique_ptr<Graph> mergeDiffNSteps() {
    G o;
    Variable* one = o.sc(1);
    // Nodes are created in the order PyTensor's toposort lists them (b0's loop first).
    SitSot b = sitSotLoop(o, "b0", 2, 5, 4, DType::Int8, compQuad(), one);
    SitSot a = sitSotLoop(o, "a0", 3, 7, 6, DType::Int8, compAffine(1.0, 0.5), one);
    return o.finish({o.ap(subStart(), {a.scan->output(0), one}), o.ap(subStart(), {b.scan->output(0), one})});
}

inline std::unique_ptr<Graph> mergeSameNSteps() {
    G o;
    Variable* a0 = o.in("a0", vec(3));
    Variable* b0 = o.in("b0", vec(2));
    Variable* one = o.sc(1);
    Variable* c7 = o.c(7, DType::Int64);
    Variable* k = o.ap(setStop(true), {o.ap(allocEmpty(), {c7, o.c(3, DType::Int64)}), o.ap(expandDims0(), {a0}), one});
    Variable* d = o.ap(setStop(true), {o.ap(allocEmpty(), {c7, o.c(2, DType::Int64)}), o.ap(expandDims0(), {b0}), one});
    auto body = parallelBody({compQuad(), compAffine(1.0, 0.5)}, {vec(2), vec(3)});
    Node* scan = o.node(makeScan(sitSots(2), body, "scan_fn&scan_fn", allStates(2)), {o.c(6, DType::Int8), d, k});
    return o.finish({o.ap(subStart(), {scan->output(1), one}), o.ap(subStart(), {scan->output(0), one})});
}

inline std::unique_ptr<Graph> miscMapElemwise() {
    G o;
    Variable* xs = o.in("xs", mat(5, 3));
    Variable* w = o.in("w", vec(3));
    S s(2);
    OpPtr comp = s.composite({s.op(ScalarOpCode::Add, {s.c(1.0), s.op(ScalarOpCode::Mul, {s.i[0], s.i[1]})})});
    return o.finish({o.ap(comp, {xs, o.ap(expandDims0(), {w})})});
}

inline std::unique_ptr<Graph> miscMapNonseq() {
    G o;
    Variable* xs = o.in("xs", mat(5, 3));
    Variable* w = o.in("w", vec(3));
    Variable* five = o.c(5, DType::Int64);
    Variable* m = o.ap(makeElemwise(ScalarOpCode::Mul), {xs, o.ap(expandDims0(), {w})});
    G b;
    Variable* row = b.placeholder(vec(3));
    auto body = share(b.finish({b.ap(makeReduce(ReduceKind::Sum, std::nullopt), {row})}));
    ScanInfo info;
    info.nSeqs = 1;
    info.nNitSot = 1;
    return o.finish({o.ap(makeScan(info, body, "scan_fn"), {five, m, five})});
}

/// misc_running_sum / pushout_seq: one sequence and one sit_sot.
inline std::unique_ptr<Graph> seqAndSitSot(bool pushedOut) {
    G o;
    Variable* seq = pushedOut ? nullptr : o.in("M", mat(6, 3));
    if (pushedOut) {
        Variable* xs = o.in("xs", mat(6, 3));
        S s(1);
        seq = o.ap(s.composite({s.op(ScalarOpCode::Mul, {s.c(2.0), s.op(ScalarOpCode::Exp, {s.i[0]})})}), {xs});
    }
    Variable* x = o.in(pushedOut ? "h0" : "s0", vec(3));
    Variable* one = o.sc(1);
    Variable* e = o.ap(allocEmpty(), {o.c(7, DType::Int64), o.c(3, DType::Int64)});
    Variable* d = o.ap(setStop(true), {e, o.ap(expandDims0(), {x}), one});
    G b;
    Variable* row = b.placeholder(vec(3));
    Variable* prev = b.placeholder(vec(3));
    Variable* next = nullptr;
    if (pushedOut) {
        S s(2);  // Composite{((0.5 * i1) + i0)}
        next = b.ap(s.composite({s.op(ScalarOpCode::Add, {s.op(ScalarOpCode::Mul, {s.c(0.5), s.i[1]}), s.i[0]})}),
                    {row, prev});
    } else {
        next = b.ap(makeElemwise(ScalarOpCode::Add), {prev, row});
    }
    ScanInfo info;
    info.nSeqs = 1;
    info.nSitSot = 1;
    Node* scan = o.node(makeScan(info, share(b.finish({next})), "scan_fn", {0}), {o.c(6, DType::Int64), seq, d});
    return o.finish({o.ap(subStart(), {scan->output(0), one})});
}

/// The seed issue's first listing (an older PyTensor: SpecifyShape/Unbroadcast kept,
/// loops fused as scan_fn&rop_of_scan_fn).
inline std::unique_ptr<Graph> seedListing1() {
    G o;
    Variable* x = o.in("x_init", vec(7));
    Variable* xt = o.in("x_init_tangent", vec(7));
    Variable* c7 = o.c(7, DType::Int64);
    Variable* one8 = o.c(1, DType::Int8);
    Variable* seven8 = o.c(7, DType::Int8);
    Variable* n = o.sc(1);
    auto specified = [&](Variable* v) {
        Variable* ub = o.ap(makeUnbroadcast({0}), {o.ap(expandDims0(), {v})});
        return o.ap(makeSpecifyShape(), {ub, one8, seven8});
    };
    Variable* u = specified(xt);
    Variable* r = o.ap(setStop(true), {o.ap(allocEmpty(), {o.c(2, DType::Int64), c7}), u, n});
    Variable* h = specified(x);
    Variable* p = o.ap(allocEmpty(), {o.c(1, DType::Int64), c7});
    Variable* oo = o.ap(setStop(true), {p, h, n});
    Variable* d = o.ap(setStop(true), {o.ap(allocEmpty(), {o.c(2, DType::Int64), c7}), h, n});
    G b;
    Variable* x0 = b.placeholder(vec(7));
    Variable* x1 = b.placeholder(vec(7));
    Variable* x2 = b.placeholder(vec(7));
    S s1(1);  // Composite{(exp(i0) - 5.0)}
    OpPtr prim = s1.composite({s1.op(ScalarOpCode::Sub, {s1.op(ScalarOpCode::Exp, {s1.i[0]}), s1.c(5.0)})});
    S s2(2);  // Composite{...}: exp(i0) - 5.0 and exp(i0) * i1
    Variable* ex = s2.op(ScalarOpCode::Exp, {s2.i[0]});
    OpPtr both = s2.composite({s2.op(ScalarOpCode::Sub, {ex, s2.c(5.0)}), s2.op(ScalarOpCode::Mul, {ex, s2.i[1]})});
    Variable* p0 = b.ap(prim, {x0});
    Node* bn = b.node(both, {x1, x2});
    auto body = share(b.finish({p0, bn->output(0), bn->output(1)}));
    Node* scan = o.node(makeScan(sitSots(3), body, "scan_fn&rop_of_scan_fn", allStates(3)),
                        {o.c(10, DType::Int8), d, oo, r});
    Variable* y = o.sc(1, DType::UInt8);
    return o.finish({o.ap(subI(), {scan->output(0), y}), o.ap(subI(), {scan->output(2), y})});
}

/// The seed issue's second listing (the duplicated trace, op info and shapes).
inline std::unique_ptr<Graph> seedListing2() {
    G o;
    Variable* x = o.in("x_init", vec(7));
    Variable* n = o.sc(1);
    Variable* ub = o.ap(makeUnbroadcast({0}), {o.ap(expandDims0(), {x})});
    Variable* h = o.ap(makeSpecifyShape(), {ub, o.c(1, DType::Int8), o.c(7, DType::Int8)});
    Variable* e = o.ap(allocEmpty(), {o.c(11, DType::Int64), o.c(7, DType::Int64)});
    Variable* d = o.ap(setStop(true), {e, h, n});
    Variable* k = o.ap(makeDeepCopy(), {d});
    auto body = parallelBody({compExpMinus5(), compExpMinus5()}, {vec(7), vec(7)});
    Node* scan = o.node(makeScan(sitSots(2), body, "scan_fn", allStates(2)), {o.c(10, DType::Int8), d, k});
    return o.finish({o.ap(subStart(), {scan->output(0), n}), o.ap(subStart(), {scan->output(1), n})});
}

struct Case {
    std::string name;  // tests/golden/dprint/<name>.txt and .json
    std::function<std::unique_ptr<Graph>()> build;
    bool type = true, shape = false, destroy = true, opInfo = true, topo = true;
};

/// Every golden case: the oracle's FAST_RUN listings (`*.fast_run`), the no-prealloc
/// ones where they differ (`*.no_prealloc`), and the seed's two listings.
inline std::vector<Case> cases() {
    std::vector<Case> c = {
        {"seed_rop.fast_run", [] { return seedRop(true); }},
        {"seed_rop.no_prealloc", [] { return seedRop(false); }},
        {"seed_dup.fast_run", [] { return dupPair("x_init", 7, 10, compExpMinus5(), compExpMinus5()); }},
        {"dup_affine.fast_run", [] { return dupPair("a0", 4, 6, compAffine(1, 2), compAffine(1, 2)); }},
        {"dup_diff_update.fast_run", [] { return dupPair("a0", 4, 6, compAffine(1, 2), compAffine(1, 3)); }},
        {"dup_last_only.fast_run", [] { return dupLastOnly(true); }},
        {"dup_last_only.no_prealloc", [] { return dupLastOnly(false); }},
        {"dup_mitsot_fib.fast_run", dupMitsotFib},
        {"merge_diff_nsteps.fast_run", mergeDiffNSteps},
        {"merge_same_nsteps.fast_run", mergeSameNSteps},
        {"misc_map_elemwise.fast_run", miscMapElemwise},
        {"misc_map_nonseq.fast_run", miscMapNonseq},
        {"misc_running_sum.fast_run", [] { return seqAndSitSot(false); }},
        {"pushout_seq.fast_run", [] { return seqAndSitSot(true); }},
        {"savemem_mitsot_fib_last.fast_run", [] { return savememMitsotFibLast(true); }},
        {"savemem_mitsot_fib_last.no_prealloc", [] { return savememMitsotFibLast(false); }},
        {"savemem_sitsot_first5.fast_run", savememSitsotFirst5},
        {"savemem_sitsot_full.fast_run", savememSitsotFull},
        {"savemem_sitsot_last.fast_run", [] { return savememSitsotLast(true); }},
        {"savemem_sitsot_last.no_prealloc", [] { return savememSitsotLast(false); }},
        {"savemem_sitsot_last2.fast_run", savememSitsotLast2},
    };
    Case l1{"seed_listing1", seedListing1};
    l1.destroy = false;  // see seed_listing1.txt: that PyTensor printed no d= although asked to
    l1.opInfo = false;
    c.push_back(l1);
    Case l2{"seed_listing2", seedListing2};
    l2.type = false;
    l2.shape = true;
    l2.destroy = false;
    c.push_back(l2);
    return c;
}

} // namespace tl::golden
