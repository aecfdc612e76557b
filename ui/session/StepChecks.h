#pragma once
// Verifying every step, all of them: the graph after each step runs on the same
// inputs as the original and each step whose outputs differ is reported (the
// engine's verifySteps stops at the first; the timeline marks every one).
#include "trace/StepVerifier.h"

#include <functional>
#include <string>
#include <vector>

namespace tl {

struct StepCheck {
    int step = 0;           ///< 1-based
    bool ok = true;
    std::string message;    ///< why not ("output 1 differs by 0.0032 (relative 1e-3)", "the graph no longer runs: ...")
    double maxAbsDiff = 0;  ///< over the outputs (infinity: shapes differ)
    size_t peakBytes = 0;
};

struct StepChecks {
    std::vector<StepCheck> steps;      ///< one per step checked, in order
    size_t originalPeakBytes = 0;
    bool cancelled = false;
    std::string error;                 ///< the original graph itself does not run
    /// The first step that differs, or -1.
    int firstBad() const;
    int badCount() const;
};

/// Runs the original graph and the graph after every step of `trace` on `inputs`;
/// tolerances as VerifyOptions (a step differs when both the absolute and the
/// relative difference exceed them). `progress(done, total)` after each step,
/// `cancelled()` polled between steps.
StepChecks checkEveryStep(const Trace& trace, const std::vector<NDArray>& inputs, const VerifyOptions& options = {});

} // namespace tl
