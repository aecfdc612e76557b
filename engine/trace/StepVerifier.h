#pragma once
// "Verify all steps": execute the graph after every rewrite step on the same
// inputs and find the first step whose outputs differ from the original graph's.
#include "trace/Trace.h"

#include <functional>
#include <string>
#include <vector>

namespace tl {

struct VerifyOptions {
    double rtol = 1e-10;
    double atol = 1e-12;
    /// Called after each step is checked with (steps done, total).
    std::function<void(int, int)> onProgress;
    /// Polled between steps; returning true stops early (firstBadStep stays -1, cancelled set).
    std::function<bool()> cancelled;
};

struct VerifyResult {
    /// 1-based step (graphAt(k)) whose outputs first differ; -1 when none does.
    int firstBadStep = -1;
    std::string message;
    bool cancelled = false;
    double maxAbsDiff = 0.0;
    double maxRelDiff = 0.0;
    /// Peak bytes of the run at each step (index 0 = original graph).
    std::vector<size_t> peakBytes;
};

/// Largest absolute and relative difference between two arrays of equal shape
/// (NaN where only one side is NaN counts as infinitely different).
std::pair<double, double> arrayDifference(const NDArray& a, const NDArray& b);

VerifyResult verifySteps(const Trace& trace, const std::vector<NDArray>& inputs, const VerifyOptions& options = {});

} // namespace tl
