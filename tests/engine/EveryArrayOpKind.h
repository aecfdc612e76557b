#pragma once
// One node of each array constructor and selection op kind (ops/ARange.h ... Pad.h,
// RavelMultiIndex.h, UnravelIndex.h), added to the every-op-kind graph of tst_json.
#include "DPrintGoldenGraphs.h"

#include "ops/ARange.h"
#include "ops/Assert.h"
#include "ops/Bartlett.h"
#include "ops/Choose.h"
#include "ops/Convolve1d.h"
#include "ops/Diagonal.h"
#include "ops/EyeTri.h"
#include "ops/FillDiagonal.h"
#include "ops/Nonzero.h"
#include "ops/Pad.h"
#include "ops/PassThrough.h"
#include "ops/PermuteRowElements.h"
#include "ops/RavelMultiIndex.h"
#include "ops/RealFFT.h"
#include "ops/Repeat.h"
#include "ops/Searchsorted.h"
#include "ops/Sort.h"
#include "ops/Split.h"
#include "ops/Unique.h"
#include "ops/UnravelIndex.h"

#include <vector>

namespace tl::golden {

/// Adds the nodes to `o`, reading the (3, 4) matrix x and the length-4 vector v; the
/// values to keep as graph outputs are appended to `outs`.
inline void addArrayOpNodes(G& o, Variable* x, Variable* v, std::vector<Variable*>& outs) {
    auto i64 = [&](double d) { return o.c(d, DType::Int64); };
    auto ivec = [&](std::vector<double> vals) {
        return o.g.addConstant(NDArray::fromVector(DType::Int64, {static_cast<int64_t>(vals.size())}, vals));
    };
    outs.push_back(o.ap(makeARange(DType::Int64), {i64(0), i64(5), i64(1)}));                 // ARange
    outs.push_back(o.ap(makeEye(DType::Float64), {i64(3), i64(3), i64(0)}));                  // Eye
    outs.push_back(o.ap(makeTri(DType::Float64), {i64(3), i64(4), i64(-1)}));                 // Tri
    Variable* d = o.ap(makeExtractDiag(1, 0, 1, true), {x});                                  // ExtractDiag
    outs.push_back(o.ap(makeAllocDiag(0, 1, -1), {d}));                                       // AllocDiag
    outs.push_back(o.ap(makeFillDiagonal(), {x, o.c(2.5, DType::Float64)}));                  // FillDiagonal
    outs.push_back(o.ap(makeFillDiagonalOffset(), {x, o.c(2.5, DType::Float64), i64(1)}));    // FillDiagonalOffset
    Node* sp = o.node(makeSplit(2), {v, i64(0), ivec({1, 3})});                               // Split
    outs.push_back(sp->output(0));
    outs.push_back(sp->output(1));
    outs.push_back(o.ap(makeRepeat(0), {x, ivec({1, 0, 2})}));                                // Repeat
    Variable* sorted = o.ap(makeSort("quicksort"), {v, i64(-1)});                             // SortOp
    outs.push_back(o.ap(makeArgSort("stable"), {x, i64(0)}));                                 // ArgSortOp
    outs.push_back(o.ap(makeSearchsorted("right"), {sorted, x}));                             // SearchsortedOp
    outs.push_back(o.ap(makeNonzero(), {x}));                                                 // Nonzero
    Node* un = o.node(makeUnique({true, true, true, std::nullopt}), {v});                     // Unique
    outs.push_back(un->output(3));
    outs.push_back(o.ap(makeChoose("wrap"), {ivec({0, 1, 0, 1}), x}));                        // Choose
    outs.push_back(o.ap(makePermuteRowElements(true), {x, o.ap(expandDims0(), {ivec({3, 2, 1, 0})})}));  // PermuteRowElements
    outs.push_back(o.ap(makeBartlett(), {i64(5)}));                                           // Bartlett
    outs.push_back(o.ap(makeConvolve1d(), {v, d, o.sc(1, DType::Bool)}));                     // Convolve1d
    outs.push_back(o.ap(makePad("reflect", "even"), {x, i64(1)}));                            // Pad
    Node* ur = o.node(makeUnravelIndex("F"), {ivec({0, 5, 11}), ivec({3, 4})});               // UnravelIndex
    outs.push_back(o.ap(makeRavelMultiIndex({"clip", "wrap"}), {ur->output(0), ur->output(1), ivec({3, 4})}));  // RavelMultiIndex
    outs.push_back(o.ap(makeCheckAndRaise("ParameterValueError", "sigma > 0"), {x, o.sc(1, DType::Bool)}));  // CheckAndRaise
    outs.push_back(o.ap(makeViewOp("ZeroGrad"), {x}));                                        // ViewOp
    outs.push_back(o.ap(makePrint("x", {"shape"}), {x}));                                     // Print
    outs.push_back(o.ap(makeCpuContiguous(), {x}));                                           // CpuContiguous
    Variable* spectrum = o.ap(makeRFFT(), {x, ivec({4})});                                    // RFFTOp
    outs.push_back(o.ap(makeIRFFT(), {spectrum, ivec({4})}));                                 // IRFFTOp
}

} // namespace tl::golden
