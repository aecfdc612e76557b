#pragma once
// Factories of every rewrite and pass, one per file under rewrite/
// (docs/conventions.md#one-rewrite-one-file). The pipelines in
// FastRunPipeline.cpp list them in order.
#include "rewrite/RewriteBase.h"

#include <memory>

namespace tl {

// ---- merge, shape, useless, canonicalize, specialize ----
/// merge: CSE of equal constants and equivalent nodes (PyTensor's MergeOptimizer).
/// Phases merge and canonicalize (after its driver, as PyTensor's merge1.2).
std::unique_ptr<GraphPass> makeMergePass();
/// merge for phase final_merge: also never makes two graph outputs one array.
std::unique_ptr<GraphPass> makeFinalMergePass();
/// constant_folding: nodes of constants computed by their kernel (canonicalize, specialize).
const NodeRewrite& constantFolding();
/// Shape phase: Shape / Shape_i of static dims -> constants; Shape -> MakeVector of
/// Shape_i; Shape_i of Alloc/AllocEmpty/SpecifyShape/DimShuffle/... -> the dim.
/// local_shape_ground: Shape(x) of a fully static shape -> a constant vector.
const NodeRewrite& shapeOfStaticShape();
/// local_Shape_i_ground: Shape_i{i}(x) where dim i is static -> that constant.
const NodeRewrite& shapeIOfStaticDim();
const NodeRewrite& localShapeToShapeI();
const NodeRewrite& localTrackShapeI();
/// local_subtensor_make_vector: MakeVector(a, b, c)[k] with a constant k -> the k-th value.
const NodeRewrite& localSubtensorMakeVector();
/// Useless phase (also in canonicalize, as PyTensor registers them).
const NodeRewrite& localUselessSpecifyShape();
/// local_specify_shape_lift: SpecifyShape(Elemwise(x, ...)) -> Elemwise(SpecifyShape(x), ...) (canonicalize, specialize).
const NodeRewrite& localSpecifyShapeLift();
/// local_useless_reshape: Reshape(x, shape) -> x when shape is x's own (1-d to 1-d,
/// Shape(x), x's dims with one -1 or one unknown entry); through SpecifyShape when the
/// reshape's output knew more of the shape (useless, canonicalize, specialize).
const NodeRewrite& localUselessReshape();
/// local_reshape_chain: Reshape(Reshape(x, s1), s2) -> Reshape(x, s2) (canonicalize, specialize).
const NodeRewrite& localReshapeChain();
const NodeRewrite& localUselessUnbroadcast();
const NodeRewrite& localUselessSlice();
const NodeRewrite& localUselessElemwise();
const NodeRewrite& localUselessAlloc();
/// local_useless_switch: switch(c, a, b) -> a or b for a constant c, switch(c, a, a) -> a,
/// and a clamped Shape_i -> the Shape_i (useless, canonicalize, specialize).
const NodeRewrite& localUselessSwitch();
/// local_useless_elemwise_comparison: comparisons of lengths with 0 (never negative),
/// and of an integer x with itself, by their known answer (useless, canonicalize,
/// stabilize, specialize).
const NodeRewrite& localUselessElemwiseComparison();
/// local_reduce_broadcastable: a reduction over axes of static length 1 drops them with a
/// DimShuffle (canonicalize, specialize, uncanonicalize).
const NodeRewrite& localReduceBroadcastable();
/// local_sum_prod_of_mul_or_div: sum(a * X) -> a * sum(X), sum(X / a) -> sum(X) / a, and
/// prod's with a ** n, for factors constant along the reduced axes (specialize).
const NodeRewrite& localSumProdOfMulOrDiv();
/// local_pow_canonicalize: x ** 1 -> x, x ** 0 and 1 ** y -> ones (canonicalize).
const NodeRewrite& localPowCanonicalize();
/// local_subtensor_remove_broadcastable_index: x[0] / x[-1] of an axis of static length 1
/// (the others whole) -> a DimShuffle dropping it (canonicalize, specialize).
const NodeRewrite& localSubtensorRemoveBroadcastableIndex();
/// local_subtensor_of_batch_dims: f(x, y)[idx] -> f(x[idx], y[idx]) for an Elemwise f read
/// only there; an operand f broadcasts keeps that axis whole or takes entry 0
/// (canonicalize, specialize, shape_unsafe).
const NodeRewrite& localSubtensorOfBatchDims();
/// local_mul_to_sqr: x * x -> sqr(x) (specialize).
const NodeRewrite& localMulToSqr();
/// local_add_neg_to_sub: x + (-y) -> x - y, either order (specialize).
const NodeRewrite& localAddNegToSub();
/// local_intdiv_by_one: x // 1 -> x for integer x (canonicalize).
const NodeRewrite& localIntdivByOne();
/// useless_<f>_of_<g>: f(g(x)) -> x for the inverse pairs neg/neg, reciprocal/reciprocal,
/// tanh/arctanh, sinh/arcsinh, deg2rad/rad2deg and cosh(arccosh(x)) (canonicalize, specialize).
const std::vector<const NodeRewrite*>& uselessInversePairs();
/// local_exp_log: log(exp(x)), log1p(expm1(x)) -> x; exp(softplus(x)) -> 1 + exp(x);
/// expm1(softplus(x)) -> exp(x) (canonicalize, specialize).
const NodeRewrite& localExpLog();
/// local_exp_log_nan_switch: exp(log(x)) -> switch(x >= 0, x, nan) and the other pairs
/// whose inverse has a domain (specialize).
const NodeRewrite& localExpLogNanSwitch();
/// local_sqrt_sqr: sqrt(sqr(x)) -> |x|, sqr(sqrt(x)) -> switch(x >= 0, x, nan)
/// (canonicalize, specialize).
const NodeRewrite& localSqrtSqr();
/// local_log_sqrt: log(sqrt(x)) -> 0.5 * log(x) for a float x (specialize).
const NodeRewrite& localLogSqrt();
/// local_alloc_unary: f(Alloc(x, *shape)) -> Alloc(f(x), *shape) for a one-input
/// Elemwise f (specialize).
const NodeRewrite& localAllocUnary();
/// local_sum_prod_all_to_none: Sum/Prod over every axis -> axes=None (canonicalize).
const NodeRewrite& localSumProdAllToNone();
const NodeRewrite& localRemoveUselessAssert();
/// Fills (Second; docs/rewrites/fill.md): local_useless_fill: fill(s, v) -> v where s
/// provably does not stretch v (useless, canonicalize, and the pass after stabilize).
const NodeRewrite& localUselessFill();
/// local_fill_sink: f(fill(a, b), c) -> fill(a, f(b, c)), the fill dropped where f's
/// other operands already give the shape (canonicalize).
const NodeRewrite& localFillSink();
/// local_fill_to_alloc: fill(s, v) -> Alloc(v, shape of s) where v provably broadcasts
/// into s (stabilize, specialize, and the pass after stabilize).
const NodeRewrite& localFillToAlloc();
/// local_elemwise_alloc: f(Alloc(x, dims), y) -> f(x, y) where y provably gives the
/// Alloc's shape (the pass after local_fill_to_alloc).
const NodeRewrite& localElemwiseAlloc();
/// local_view_op: ViewOp(x) (ZeroGrad, GradScale, ...) -> x.
const NodeRewrite& localViewOp();
/// Stabilize phase (local_expm1 also in canonicalize and specialize, local_log1p in specialize).
/// local_expm1: exp(a) - 1 -> expm1(a).
const NodeRewrite& localExpm1();
/// local_log1p: log(1 + x) -> log1p(x), log(1 - x) -> log1p(-x).
const NodeRewrite& localLog1p();
/// logsigm_to_softplus: log(sigmoid(x)) -> -softplus(-x).
const NodeRewrite& logSigmToSoftplus();
/// log1msigm_to_softplus: log(1 - sigmoid(x)), log1p(-sigmoid(x)) -> -softplus(x).
const NodeRewrite& log1mSigmToSoftplus();
/// local_1msigmoid: 1 - sigmoid(x) -> sigmoid(-x).
const NodeRewrite& local1mSigmoid();
/// local_log1p_plusminus_exp: log1p(exp(x)) -> softplus(x), log1p(-exp(x)) -> log1mexp(x).
const NodeRewrite& localLog1pPlusminusExp();
/// local_logsoftmax: log(softmax(x)) -> log_softmax(x).
const NodeRewrite& localLogsoftmax();
/// local_log_sum_exp: log(sum(exp(x))) -> max(x) + log(sum(exp(x - max(x)))).
const NodeRewrite& localLogSumExp();
const NodeRewrite& localLogAddExp();
const NodeRewrite& logdiffexpToLog1mexpdiff();
/// local_log_erfc: log(erfc(x)) -> its asymptote where erfc(x) underflows.
const NodeRewrite& localLogErfc();
/// local_grad_log_erfc_neg: [y *] exp(-x^2) / erfc(x) -> [y *] switch(x < t, it, its asymptote).
const NodeRewrite& localGradLogErfcNeg();
/// Canonicalize phase.
const NodeRewrite& localDimshuffleLift();
const NodeRewrite& localAddCanonizer();
const NodeRewrite& localMulCanonizer();
/// local_subtensor_merge: x[a:b][c:d] -> x[a+c:min(b, a+d)], x[a:][i] -> x[a+i] (constant bounds >= 0).
const NodeRewrite& localSubtensorMerge();
const NodeRewrite& localUpcastElemwiseConstantInputs();
/// local_neg_to_mul: neg(x) -> mul(-1, x), so the product canonizer sees through it.
const NodeRewrite& localNegToMul();
/// mul(A, switch(c, 0, y)) -> switch(c, 0, mul(A, y)), also in specialize; the same for a quotient's numerator.
/// local_IncSubtensor_serialize: add(x, inc(b, c, i)) -> inc(add(x, b), c, i) (canonicalize,
/// and its own pass just before it).
const NodeRewrite& localIncSubtensorSerialize();
/// local_0_dot_x: Dot(zeros, y) -> Alloc(0, x rows, y cols) (canonicalize, stabilize; shape_unsafe).
const NodeRewrite& local0DotX();
/// local_merge_switch_same_cond: op(switch(c, a, b), switch(c, x, y)) -> switch(c, op(a, x), op(b, y)) (canonicalize).
const NodeRewrite& localMergeSwitchSameCond();
const NodeRewrite& localMulSwitchSink();
const NodeRewrite& localDivSwitchSink();
/// Specialize phase.
const NodeRewrite& localPowSpecialize();
const NodeRewrite& localPowToNestedSquaring();
const NodeRewrite& localMulSpecialize();
const NodeRewrite& localAddRemoveZeros();
/// Uncanonicalize phase: neg(Max(neg(x))) -> Min(x).
const NodeRewrite& localMaxToMin();
/// The equilibrium drivers of phases shape, useless, canonicalize and specialize with
/// the rewrites above (lists in EarlyPhaseDrivers.cpp); canonicalize also runs in
/// Pipeline::innerGraph().
std::unique_ptr<GraphPass> makeShapeDriver();
std::unique_ptr<GraphPass> makeUselessDriver();
std::unique_ptr<GraphPass> makeCanonicalizeDriver();
/// PyTensor's pre_local_IncSubtensor_serialize (position 0.99): the first pass of canonicalize.
std::unique_ptr<GraphPass> makeIncSubtensorSerializeDriver();
std::unique_ptr<GraphPass> makeStabilizeDriver();
/// local_fill_to_alloc (with local_useless_fill) and local_elemwise_alloc, each its own
/// pass after stabilize.
std::unique_ptr<GraphPass> makeFillToAllocDriver();
std::unique_ptr<GraphPass> makeElemwiseAllocDriver();
std::unique_ptr<GraphPass> makeSpecializeDriver();
std::unique_ptr<GraphPass> makeUncanonicalizeDriver();

// ---- fusion, inner graphs, inplace, output protection ----
/// elemwise_fusion: PyTensor's FusionOptimizer: connected Elemwise nodes of one broadcast
/// pattern (and readers of one shared full-size input) -> one multi-output Composite.
/// Phase fusion; also in Pipeline::innerGraph().
std::unique_ptr<GraphPass> makeElemwiseFusion();
/// local_careduce_fusion: a Sum or Prod of an Elemwise -> one CAReduce{Composite}
/// (phase fusion, after elemwise_fusion; also in Pipeline::innerGraph()).
const NodeRewrite& localCareduceFusion();
/// Which part of Pipeline::innerGraph() scan_inner_rewrites runs: Early = merge,
/// canonicalize, stabilize, fill_to_alloc and blas (phase canonicalize, so scan
/// rewrites compare merged steps), Late = all of it, specialize and fusion included
/// (phase fusion, after elemwise_fusion).
enum class InnerRewriteStage { Early, Late };
/// scan_inner_rewrites: rewrites every Scan's loop body with Pipeline::innerGraph().
std::unique_ptr<GraphPass> makeScanInnerRewrites(InnerRewriteStage stage);
/// inplace_setsubtensor: PyTensor's local_inplace_setsubtensor (phase inplace).
std::unique_ptr<GraphPass> makeInplaceSetSubtensor();
/// inplace_elemwise: PyTensor's InplaceElemwiseOptimizer (phase inplace).
std::unique_ptr<GraphPass> makeInplaceElemwise();
/// output_protection: PyTensor's insert_deepcopy (phase output_protection).
std::unique_ptr<GraphPass> makeOutputProtection();

// ---- products, BLAS and linear algebra ----
/// blockwise_inplace: PyTensor's InplaceBlockwiseOptimizer (phase inplace, first).
std::unique_ptr<GraphPass> makeBlockwiseInplace();
/// local_useless_unbatched_blockwise: a Blockwise without batch dims -> its core op
/// (phase inplace, after blockwise_inplace and inplace_elemwise, as PyTensor's position 60).
const NodeRewrite& localUselessUnbatchedBlockwise();
/// local_eager_useless_unbatched_blockwise: the same for Blockwise of Dot, Alloc, ARange,
/// Subtensor, AdvancedSubtensor, AdvancedIncSubtensor and Reshape, in canonicalize,
/// stabilize and specialize (so a Matmul of matrices reaches the blas phase as a Dot).
const NodeRewrite& localEagerUselessUnbatchedBlockwise();
/// Phase blas (PyTensor's BlasOpt, position 1.7; docs/rewrites/blas.md): Dot of float
/// matrices -> Dot22; a sum with a Dot22 term -> Gemm; Gemm or Dot22 with a static
/// length-1 dim -> Gemv or Ger; a scalar times a Dot22 -> Dot22Scalar; Gemv / Ger ->
/// CGemv / CGer. The phase's passes in order, as the outer and inner pipelines run them:
std::vector<std::unique_ptr<GraphPass>> makeBlasPasses();
const NodeRewrite& localDotToDot22();
/// gemm_optimizer: s*z + t*Dot22(x, y) (+ other terms) -> Gemm(z, t, x, y, s) (+ them).
std::unique_ptr<GraphPass> makeGemmOptimizer();
const NodeRewrite& localGemmToGemv();
const NodeRewrite& localGemmToGer();
const NodeRewrite& localDot22ToGerOrGemv();
const NodeRewrite& localDot22ToDot22Scalar();
const NodeRewrite& useCGemv();
const NodeRewrite& useCGer();
/// local_batched_matmul_to_core_matmul: batch dims of a Matmul that only one input has
/// move into that input's rows or columns, one matrix product for the batch
/// (canonicalize: a single axis into a row x or a column y; the _with_reshape variant,
/// specialize: any, joined to m or n by a Reshape).
const NodeRewrite& localBatchedMatmulToCoreMatmul();
const NodeRewrite& localBatchedMatmulToCoreMatmulWithReshape();
/// local_dot_to_mul: a Dot or Matmul whose summed dim has static length 1 -> mul (not
/// the Dot of a column by a row, left for Ger); canonicalize and specialize.
const NodeRewrite& localDotToMul();
/// specialize_matmul_to_batched_dot: a Matmul whose batch dims do not broadcast -> BatchedDot (specialize).
const NodeRewrite& specializeMatmulToBatchedDot();
/// blas_opt_inplace: Gemm / Gemv / CGemv / Ger / CGer write into their first input (phase inplace).
std::unique_ptr<GraphPass> makeInplaceBlas();
// ---- advanced indexing and control flow (docs/rewrites/advanced_indexing.md) ----
/// inline_ofg_expansion: an OpFromGraph with inline=True -> its inner graph (phase ofg_inline, first).
const NodeRewrite& inlineOfgExpansion();
/// inline_optimized_einsum: an Einsum whose contraction path is settled -> its inner graph (specialize).
/// The linear-algebra rewrites (docs/rewrites/linalg.md).
const NodeRewrite& invAsSolve();
const NodeRewrite& transinvToInvtrans();
const NodeRewrite& slogdetSpecialization();
const NodeRewrite& svdUvMerge();
const NodeRewrite& rewriteInvInv();
const NodeRewrite& rewriteInvEyeToEye();
const NodeRewrite& rewriteRemoveUselessCholesky();
const NodeRewrite& scalarSolveToDivision();
const NodeRewrite& localDetChol();
const NodeRewrite& rewriteDetDiagToProdDiag();
const NodeRewrite& rewriteInvDiagToDiagReciprocal();
const NodeRewrite& rewriteCholeskyDiagToSqrtDiag();
const NodeRewrite& rewriteDiagBlockdiag();
const NodeRewrite& rewriteDetBlockdiag();
const NodeRewrite& rewriteDiagKronecker();
const NodeRewrite& rewriteDetKronecker();
const NodeRewrite& localLiftThroughLinalg();
const NodeRewrite& genericSolveToSolveTriangular();
const NodeRewrite& batchedVectorBSolveToMatrixBSolve();
const NodeRewrite& reuseDecompositionMultipleSolves();
const NodeRewrite& inlineOptimizedEinsum();
/// local_replace_AdvancedSubtensor: a take along one axis -> AdvancedSubtensor1 (specialize).
const NodeRewrite& localReplaceAdvancedSubtensor();
/// local_AdvancedIncSubtensor_to_AdvancedIncSubtensor1: the same for increments and sets (specialize).
const NodeRewrite& localAdvancedIncSubtensorToAdvancedIncSubtensor1();
/// local_inplace_AdvancedIncSubtensor1 / local_inplace_AdvancedIncSubtensor: the writes into x
/// itself (phase inplace, after scan_make_inplace, as PyTensor's 70.6).
std::unique_ptr<GraphPass> makeLocalInplaceAdvancedIncSubtensor1();
std::unique_ptr<GraphPass> makeLocalInplaceAdvancedIncSubtensor();
/// cond_make_inplace: IfElse returns its then-values as views (phase inplace, last: PyTensor's 95).
std::unique_ptr<GraphPass> makeCondMakeInplace();

// ---- scan structure ----
/// scan_merge: PyTensor's ScanMerge, two loops of equal n_steps without a dependency
/// become one loop "a&b" (phase scan_merge, before scan_merge_states).
std::unique_ptr<GraphPass> makeScanMergePass();
/// scan_make_inplace: loops write into their outer trace buffers where the destroy
/// handler allows it (phase inplace, after the elemwise and set_subtensor inplace passes).
std::unique_ptr<GraphPass> makeScanMakeInplace();
/// scan_split_non_sequence_decomposition_and_solve: a step's solves whose matrix comes
/// from non_sequences only become a factorization and solves with it, which
/// scan_push_out_non_seq then takes out of the loop.
const NodeRewrite& scanSplitNonSequenceDecompositionAndSolve();
/// scan_push_out_non_seq: loop-invariant work on non_sequences runs once before the loop.
const NodeRewrite& scanPushOutNonSeq();
/// scan_push_out_seq: elementwise work on sequence rows runs once over the whole sequence.
const NodeRewrite& scanPushOutSeq();
/// scan_remove_constants_and_unused_inputs: unread sequences/non_sequences dropped,
/// constant non_sequences moved into the step.
const NodeRewrite& scanRemoveUnusedInputs();
/// scan_merge_inouts: an outer variable given twice as a sequence (or non_sequence) is read once.
const NodeRewrite& scanMergeInouts();

// ---- scan ----
/// scan_merge_states: merges traced states (and nit_sots) of one Scan that compute the
/// same sequence (docs/semantics.md#duplicate-states). Phase scan_merge, after scan_merge.
const NodeRewrite& scanMergeStates();
/// scan_save_mem: PyTensor's ScanSaveMem with exact or PyTensor buffer sizing (docs/semantics.md#scan-buffers).
const NodeRewrite& scanSaveMem();

} // namespace tl
