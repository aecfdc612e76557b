// The equilibrium drivers of the early phases (shape, useless, canonicalize,
// specialize, uncanonicalize): which node rewrites each runs, in priority order (a
// node meets them in this order and the first that matches fires). PyTensor
// registers most useless and shape rewrites in canonicalize and specialize too; so
// does this list, so what constant folding or the canonizers expose is cleaned up in
// the same fixpoint.
#include "rewrite/EquilibriumDriver.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {
std::unique_ptr<GraphPass> driver(std::string name, std::vector<std::string> tags, std::vector<const NodeRewrite*> rs) {
    return std::make_unique<EquilibriumDriver>(std::move(name), std::move(tags), std::move(rs));
}
std::vector<const NodeRewrite*> with(std::vector<const NodeRewrite*> rs, const std::vector<const NodeRewrite*>& more) {
    rs.insert(rs.end(), more.begin(), more.end());
    return rs;
}
} // namespace

std::unique_ptr<GraphPass> makeShapeDriver() {
    return driver("shape", {"fast_run", "fast_compile", "shape"},
                  {&shapeOfStaticShape(), &shapeIOfStaticDim(), &localShapeToShapeI(), &localTrackShapeI(),
                   &localSubtensorMakeVector()});
}

std::unique_ptr<GraphPass> makeUselessDriver() {
    return driver("useless", {"fast_run", "fast_compile", "useless"},
                  {&localUselessSpecifyShape(), &localUselessReshape(), &localUselessUnbroadcast(), &localUselessSlice(),
                   &localUselessElemwise(), &localUselessSwitch(), &localUselessElemwiseComparison(), &localUselessAlloc(), &localUselessFill(), &localRemoveUselessAssert(), &localViewOp(),
                   &shapeIOfStaticDim(), &localSubtensorMakeVector()});
}

std::unique_ptr<GraphPass> makeCanonicalizeDriver() {
    return driver("canonicalize", {"fast_run", "fast_compile", "canonicalize"},
                  with({&constantFolding(), &localUselessSpecifyShape(), &localSpecifyShapeLift(), &localUselessReshape(), &localReshapeChain(), &localUselessUnbroadcast(), &localUselessSlice(),
                   &localUselessElemwise(), &localUselessSwitch(), &localUselessElemwiseComparison(), &localUselessAlloc(), &localUselessFill(), &localFillSink(), &localViewOp(),
                   &shapeOfStaticShape(), &shapeIOfStaticDim(),
                   &localShapeToShapeI(), &localTrackShapeI(), &localSubtensorMakeVector(), &localSubtensorMerge(),
                   &localSubtensorRemoveBroadcastableIndex(), &localSubtensorOfBatchDims(), &localDimshuffleLift(), &localReduceBroadcastable(), &localSumProdAllToNone(),
                   &localPowCanonicalize(), &localIntdivByOne(), &localAddCanonizer(),
                   &localMulCanonizer(), &localMulSwitchSink(), &localDivSwitchSink(), &localMergeSwitchSameCond(), &localIncSubtensorSerialize(),
                   &localUpcastElemwiseConstantInputs(),
                   &localExpm1(), &localExpLog(), &localSqrtSqr(), &localNegToMul(), &localBatchedMatmulToCoreMatmul(),
                   &localEagerUselessUnbatchedBlockwise(), &localDotToMul(), &local0DotX(), &genericSolveToSolveTriangular(),
                   &transinvToInvtrans(), &svdUvMerge(), &rewriteInvInv(), &rewriteInvEyeToEye(),
                   &rewriteRemoveUselessCholesky(), &scalarSolveToDivision(),
                   &rewriteDetDiagToProdDiag(), &rewriteInvDiagToDiagReciprocal(), &rewriteCholeskyDiagToSqrtDiag(),
                   &rewriteDiagBlockdiag(), &rewriteDetBlockdiag(), &rewriteDiagKronecker(), &rewriteDetKronecker()},
                       uselessInversePairs()));
}

// PyTensor runs local_IncSubtensor_serialize once more on its own just before the
// canonicalizer (position 0.99): its chains let the zeros of gradient sums cancel there.
std::unique_ptr<GraphPass> makeIncSubtensorSerializeDriver() {
    return driver("pre_local_IncSubtensor_serialize", {"fast_run"}, {&localIncSubtensorSerialize()});
}

// PyTensor's stabilize (position 1.5, between canonicalize and the loop rewrites):
// forms that keep digits or stay finite where the naive formula loses them.
std::unique_ptr<GraphPass> makeStabilizeDriver() {
    return driver("stabilize", {"fast_run", "stabilize"},
                  {&constantFolding(), &localExpm1(), &localLog1p(), &logSigmToSoftplus(), &log1mSigmToSoftplus(), &local1mSigmoid(),
                   &localLog1pPlusminusExp(), &localLogsoftmax(), &localLogSumExp(), &localLogAddExp(), &logdiffexpToLog1mexpdiff(),
                   &localLogErfc(), &localGradLogErfcNeg(), &localUselessElemwise(), &localUselessElemwiseComparison(), &localUselessAlloc(), &localFillToAlloc(),
                   &localDimshuffleLift(), &localEagerUselessUnbatchedBlockwise(), &local0DotX(), &invAsSolve(),
                   &genericSolveToSolveTriangular(), &localDetChol(), &svdUvMerge(), &rewriteInvInv(), &rewriteInvEyeToEye(),
                   &rewriteRemoveUselessCholesky(), &scalarSolveToDivision(),
                   &rewriteDetDiagToProdDiag(), &rewriteInvDiagToDiagReciprocal(), &rewriteCholeskyDiagToSqrtDiag(),
                   &rewriteDiagBlockdiag(), &rewriteDetBlockdiag(), &rewriteDiagKronecker(), &rewriteDetKronecker()});
}

// PyTensor's local_fill_to_alloc and local_elemwise_alloc (positions 1.51 and 1.52, after
// stabilize, whose patterns want the fills' canonical form): the fills that stay become
// Allocs of their shape reference's shape, and Allocs other operands make unnecessary go.
std::unique_ptr<GraphPass> makeFillToAllocDriver() {
    return driver("local_fill_to_alloc", {"fast_run"}, {&localUselessFill(), &localFillToAlloc()});
}
std::unique_ptr<GraphPass> makeElemwiseAllocDriver() {
    return driver("local_elemwise_alloc", {"fast_run"}, {&localElemwiseAlloc()});
}

std::unique_ptr<GraphPass> makeSpecializeDriver() {
    return driver("specialize", {"fast_run", "specialize"},
                  with({&constantFolding(), &localPowSpecialize(), &localPowToNestedSquaring(), &localMulSpecialize(), &localMulToSqr(),
                   &localAddNegToSub(), &localMulSwitchSink(), &localAddRemoveZeros(),
                   &localExpm1(), &localLog1p(), &localLogSumExp(), &localLogAddExp(), &localLogErfc(), &localGradLogErfcNeg(), &local1mSigmoid(),
                   &localExpLog(), &localExpLogNanSwitch(), &localSqrtSqr(), &localLogSqrt(), &localAllocUnary(),
                   &localUselessElemwise(), &localUselessSwitch(), &localUselessElemwiseComparison(), &localUselessAlloc(), &localFillToAlloc(), &localElemwiseAlloc(), &localUselessSpecifyShape(), &localSpecifyShapeLift(), &localUselessReshape(), &localReshapeChain(),
                   &localUselessUnbroadcast(), &localUselessSlice(), &localRemoveUselessAssert(), &localDimshuffleLift(), &shapeIOfStaticDim(),
                   &shapeOfStaticShape(), &localShapeToShapeI(), &localTrackShapeI(), &localSubtensorMakeVector(), &localSubtensorMerge(),
                   &localSubtensorRemoveBroadcastableIndex(), &localSubtensorOfBatchDims(), &localReduceBroadcastable(), &localSumProdOfMulOrDiv(),
                   &localReplaceAdvancedSubtensor(),
                   &localAdvancedIncSubtensorToAdvancedIncSubtensor1(), &localBatchedMatmulToCoreMatmulWithReshape(),
                   &localEagerUselessUnbatchedBlockwise(), &localDotToMul(), &specializeMatmulToBatchedDot(),
                   &inlineOptimizedEinsum(), &batchedVectorBSolveToMatrixBSolve(), &reuseDecompositionMultipleSolves(),
                   &localLiftThroughLinalg(), &localDetChol(), &slogdetSpecialization(), &svdUvMerge()},
                       uselessInversePairs()));
}

// PyTensor's uncanonicalize (position 3, after specialize): of its rewrites
// local_max_to_min and local_reduce_broadcastable so far.
std::unique_ptr<GraphPass> makeUncanonicalizeDriver() {
    return driver("uncanonicalize", {"fast_run", "uncanonicalize"}, {&localMaxToMin(), &localReduceBroadcastable()});
}

} // namespace tl
