// The FAST_RUN-like pipeline, phase by phase, in PyTensor's optdb order
// (SEMANTICS.md §4). One readable list: what runs, in which order.
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
} // namespace

Pipeline Pipeline::fastRun() {
    Pipeline p;
    p.addPhase("merge", passList());
    p.addPhase("shape", passList());
    p.addPhase("useless", passList());
    p.addPhase("canonicalize", passList());
    p.addPhase("scan_pushout", passList());
    p.addPhase("scan_merge", passList());
    p.addPhase("scan_save_mem", passList());
    p.addPhase("specialize", passList());
    p.addPhase("fusion", passList());
    p.addPhase("inplace", passList());
    p.addPhase("output_protection", passList());
    p.addPhase("final_merge", passList());
    return p;
}

Pipeline Pipeline::innerGraph() {
    Pipeline p;
    p.addPhase("merge", passList());
    p.addPhase("canonicalize", passList());
    p.addPhase("fusion", passList());
    return p;
}

} // namespace tl
