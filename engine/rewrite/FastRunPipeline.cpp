// The FAST_RUN-like pipeline, phase by phase, in PyTensor's optdb order
// (docs/semantics.md#rewrite-pipeline). One readable list: what runs, in which order.
#include "rewrite/EquilibriumDriver.h"
#include "rewrite/Pipeline.h"
#include "rewrite/Rewrites.h"

namespace tl {

namespace {
template <typename... P> std::vector<std::unique_ptr<GraphPass>> passList(P&&... p) {
    std::vector<std::unique_ptr<GraphPass>> v;
    (v.push_back(std::forward<P>(p)), ...);
    return v;
}

// PyTensor's fusion sequence: composite_elemwise_fusion, then local_careduce_fusion (position 10).
std::unique_ptr<GraphPass> makeCareduceFusionDriver() {
    return std::make_unique<EquilibriumDriver>("local_careduce_fusion", std::vector<std::string>{"fast_run", "fusion"},
                                               std::vector<const NodeRewrite*>{&localCareduceFusion()});
}
} // namespace

// PyTensor's BlasOpt (position 1.7, between stabilize and specialize): each product
// as the BLAS call that computes it, then the C backend's names for them.
std::vector<std::unique_ptr<GraphPass>> makeBlasPasses() {
    auto driver = [](const char* name, std::vector<const NodeRewrite*> rewrites) {
        return std::make_unique<EquilibriumDriver>(name, std::vector<std::string>{"fast_run", "blas"}, std::move(rewrites));
    };
    return passList(driver("local_dot_to_dot22", {&localDotToDot22()}), makeGemmOptimizer(),
                    driver("local_gemm_to_gemv",
                           {&localGemmToGemv(), &localGemmToGer(), &localDot22ToGerOrGemv(), &localDimshuffleLift()}),
                    driver("local_dot22_to_dot22scalar", {&localDot22ToDot22Scalar()}),
                    driver("use_c_blas", {&useCGer(), &useCGemv()}));
}

Pipeline Pipeline::fastRun() {
    Pipeline p;
    p.addPhase("ofg_inline", passList(std::make_unique<EquilibriumDriver>(  // PyTensor's -0.01: before merge
        "inline_ofg_expansion", std::vector<std::string>{"fast_run", "fast_compile"},
        std::vector<const NodeRewrite*>{&inlineOfgExpansion()})));
    p.addPhase("merge", passList(makeMergePass()));
    p.addPhase("shape", passList(makeShapeDriver()));
    p.addPhase("useless", passList(makeUselessDriver()));
    p.addPhase("canonicalize", passList(makeIncSubtensorSerializeDriver(), makeCanonicalizeDriver(), makeMergePass(),  // merge: PyTensor's merge1.2
                                        makeScanInnerRewrites(InnerRewriteStage::Early)),  // last: steps merged too
               2);  // what the merge makes one can cancel (x * s / s once both s are the same node)
    p.addPhase("stabilize", passList(makeStabilizeDriver()));
    p.addPhase("fill_to_alloc", passList(makeFillToAllocDriver(), makeElemwiseAllocDriver()));
    p.addPhase("scan_pushout", passList(std::make_unique<EquilibriumDriver>(
        "scan_pushout", std::vector<std::string>{"fast_run", "scan"},
        std::vector<const NodeRewrite*>{&scanRemoveUnusedInputs(), &scanSplitNonSequenceDecompositionAndSolve(),
                                        &scanPushOutNonSeq(), &scanPushOutSeq()})));
    p.addPhase("scan_merge", passList(  // ScanMerge, then duplicate inputs, then duplicate states
        makeScanMergePass(),
        std::make_unique<EquilibriumDriver>("scan_merge_inouts", std::vector<std::string>{"fast_run", "scan"},
                                            std::vector<const NodeRewrite*>{&scanMergeInouts(), &scanRemoveUnusedInputs()}),
        std::make_unique<EquilibriumDriver>("scan_merge_states", std::vector<std::string>{"fast_run", "scan"},
                                            std::vector<const NodeRewrite*>{&scanMergeStates()})));
    p.addPhase("scan_save_mem", passList(std::make_unique<EquilibriumDriver>(
        "scan_save_mem", std::vector<std::string>{"fast_run", "scan", "scan_save_mem"},
        std::vector<const NodeRewrite*>{&scanSaveMem()})));
    p.addPhase("blas", makeBlasPasses());
    p.addPhase("specialize", passList(makeSpecializeDriver()));
    p.addPhase("uncanonicalize", passList(makeUncanonicalizeDriver()));
    p.addPhase("fusion", passList(makeElemwiseFusion(), makeCareduceFusionDriver(), makeScanInnerRewrites(InnerRewriteStage::Late)));
    // PyTensor's merge2 (position 49, after elemwise_fusion by name): what specialize
    // built twice (two lifted factorizations of one block) is one node before inplace.
    p.addPhase("merge2", passList(makeMergePass()));
    p.addPhase("inplace", passList(makeBlockwiseInplace(), makeInplaceSetSubtensor(), makeInplaceElemwise(),
                                   std::make_unique<EquilibriumDriver>(  // PyTensor's position 60: core ops keep inplace
                                       "local_useless_unbatched_blockwise", std::vector<std::string>{"fast_run", "blockwise"},
                                       std::vector<const NodeRewrite*>{&localUselessUnbatchedBlockwise()}),
                                   makeInplaceBlas(), makeScanMakeInplace(),
                                   makeLocalInplaceAdvancedIncSubtensor1(), makeLocalInplaceAdvancedIncSubtensor(),
                                   makeCondMakeInplace()));
    p.addPhase("output_protection", passList(makeOutputProtection()));
    p.addPhase("final_merge", passList(makeFinalMergePass()));
    return p;
}

Pipeline Pipeline::innerGraph(bool compiled) {
    Pipeline p;
    p.addPhase("merge", passList(makeMergePass()));
    p.addPhase("canonicalize", passList(makeIncSubtensorSerializeDriver(), makeCanonicalizeDriver(), makeMergePass()), 2);
    p.addPhase("stabilize", passList(makeStabilizeDriver()));  // loop bodies are compiled in FAST_RUN too
    p.addPhase("fill_to_alloc", passList(makeFillToAllocDriver(), makeElemwiseAllocDriver()));
    p.addPhase("blas", makeBlasPasses());
    if (!compiled) return p;
    p.addPhase("specialize", passList(makeSpecializeDriver()));
    p.addPhase("uncanonicalize", passList(makeUncanonicalizeDriver()));
    p.addPhase("fusion", passList(makeElemwiseFusion(), makeCareduceFusionDriver(),
                                  makeScanInnerRewrites(InnerRewriteStage::Late)));  // nested loops
    // The inplace phase's one rewrite that is not about inplace: steps never destroy
    // (rewrite/ScanInnerRewrites.cpp), but their unbatched Blockwise ops are unwrapped.
    p.addPhase("blockwise", passList(std::make_unique<EquilibriumDriver>(
                                "local_useless_unbatched_blockwise", std::vector<std::string>{"fast_run", "blockwise"},
                                std::vector<const NodeRewrite*>{&localUselessUnbatchedBlockwise()})));
    return p;
}

} // namespace tl
