#pragma once
// One node of every product, BLAS and linear-algebra op kind, for the suites that
// need every op kind in one graph (tst_json's round trip and golden file).
#include "DPrintGoldenGraphs.h"
#include "ops/BlasOps.h"
#include "ops/Blockwise.h"
#include "ops/Linalg.h"

#include <vector>

namespace tl::golden {

/// Adds the nodes to `o` and returns the variables to make graph outputs.
inline std::vector<Variable*> linalgOpKinds(G& o) {
    Variable* a = o.in("la", mat(3, 3));
    Variable* b = o.in("lb", vec(3));
    Variable* bs = o.in("lbs", Type::tensor(DType::Float64, {2, 3, 3}));
    Variable* alpha = o.c(0.5, DType::Float64);
    std::vector<Variable*> out;
    out.push_back(o.ap(makeMatmul(), {bs, bs}));                                      // Blockwise
    out.push_back(o.ap(makeDot22(), {a, a}));                                         // Dot22
    out.push_back(o.ap(makeDot22Scalar(), {a, a, alpha}));                            // Dot22Scalar
    out.push_back(o.ap(makeGemm(false), {a, alpha, a, a, alpha}));                    // Gemm
    out.push_back(o.ap(makeGemv(false, false), {b, alpha, a, b, alpha}));             // Gemv
    out.push_back(o.ap(makeGemv(false, true), {b, alpha, a, b, alpha}));              // CGemv
    out.push_back(o.ap(makeGer(false, false), {a, alpha, b, b}));                     // Ger
    out.push_back(o.ap(makeGer(false, true), {a, alpha, b, b}));                      // CGer
    out.push_back(o.ap(makeBatchedDot(), {bs, bs}));                                  // BatchedDot
    out.push_back(o.ap(makeMatrixInverse(), {a}));                                    // MatrixInverse
    out.push_back(o.ap(makeDet(), {a}));                                              // Det
    out.push_back(o.ap(makeSLogDet(), {a}));                                          // SLogDet
    out.push_back(o.ap(makeSolve("gen", false, true, 1), {a, b}));                    // Solve
    out.push_back(o.ap(makeSolveTriangular(false, true, true, 1), {a, b}));           // SolveTriangular
    out.push_back(o.ap(makeCholesky(), {a}));                                         // Cholesky
    out.push_back(o.ap(makeCholeskySolve(true, true, 1), {a, b}));                    // CholeskySolve
    out.push_back(o.ap(makeLU(), {a}));                                               // LU
    out.push_back(o.ap(makeLUFactor(), {a}));                                         // LUFactor
    out.push_back(o.ap(makePivotToPermutations(), {o.ap(makeLUFactor(), {a})->owner()->output(1)}));  // PivotToPermutations
    out.push_back(o.ap(makeQR(), {a}));                                               // QR
    out.push_back(o.ap(makeEigh(), {a}));                                             // Eigh
    out.push_back(o.ap(makeEigvalsh(), {a, a}));                                      // Eigvalsh
    out.push_back(o.ap(makeSVD(), {a}));                                              // SVD
    out.push_back(o.ap(makeMatrixPinv(), {a}));                                       // MatrixPinv
    out.push_back(o.ap(makeLstsq(), {a, b, o.c(-1.0, DType::Float64)}));              // Lstsq
    out.push_back(o.ap(makeExpm(), {a}));                                             // Expm
    out.push_back(o.ap(makeExpmGrad(), {a, a}));                                      // ExpmGrad
    out.push_back(o.ap(makeBilinearSolveDiscreteLyapunov(), {a, a}));                 // BilinearSolveDiscreteLyapunov
    out.push_back(o.ap(makeSolveContinuousLyapunov(), {a, a}));                       // SolveContinuousLyapunov
    out.push_back(o.ap(makeBlockDiagonal(2), {a, a}));                                // BlockDiagonal
    out.push_back(o.ap(makeKroneckerProduct(), {a, a}));                              // KroneckerProduct
    out.push_back(o.ap(makeEighGrad(), {a, b, a, b, a}));                             // EighGrad
    out.push_back(o.ap(makeEigvalshGrad(), {a, a, b}));                               // EigvalshGrad
    out.push_back(o.ap(makeSolveDiscreteARE(), {a, a, a, a}));                        // SolveDiscreteARE
    out.push_back(o.ap(makeTensorInv(1), {bs}));                                      // TensorInv
    out.push_back(o.ap(makeTensorSolve(std::vector<int>{0}), {bs, b}));               // TensorSolve
    return out;
}

} // namespace tl::golden
