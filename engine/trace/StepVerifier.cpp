#include "trace/StepVerifier.h"

#include "exec/Executor.h"
#include "trace/TraceReplayer.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace tl {

std::pair<double, double> arrayDifference(const NDArray& a, const NDArray& b) {
    double maxAbs = 0.0, maxRel = 0.0;
    for (int64_t i = 0; i < a.size(); ++i) {
        const double x = a.flatGet(i), y = b.flatGet(i);
        if (std::isnan(x) && std::isnan(y)) continue;
        if (x == y) continue;  // equal infinities too
        if (std::isnan(x) || std::isnan(y) || std::isinf(x) || std::isinf(y))
            return {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
        const double d = std::fabs(x - y);
        maxAbs = std::max(maxAbs, d);
        maxRel = std::max(maxRel, d / std::max(std::fabs(y), std::numeric_limits<double>::min()));
    }
    return {maxAbs, maxRel};
}

VerifyResult verifySteps(const Trace& trace, const std::vector<NDArray>& inputs, const VerifyOptions& options) {
    VerifyResult result;
    RunResult reference = runGraph(trace.original(), inputs);
    result.peakBytes.push_back(reference.peakBytes);
    TraceReplayer replay(trace);
    const int n = static_cast<int>(trace.size());
    for (int k = 1; k <= n; ++k) {
        if (options.cancelled && options.cancelled()) {
            result.cancelled = true;
            return result;
        }
        const Graph& g = replay.graphAt(k);
        RunResult r;
        try {
            r = runGraph(g, inputs);
        } catch (const std::exception& e) {
            result.firstBadStep = k;
            result.message = std::string("the graph no longer runs: ") + e.what();
            return result;
        }
        result.peakBytes.push_back(r.peakBytes);
        if (r.outputs.size() != reference.outputs.size()) {
            result.firstBadStep = k;
            result.message = "the number of outputs changed";
            return result;
        }
        for (size_t i = 0; i < r.outputs.size(); ++i) {
            const NDArray& got = r.outputs[i];
            const NDArray& want = reference.outputs[i];
            std::ostringstream why;
            if (got.shape() != want.shape()) {
                why << "output " << i << " has shape " << shapeToString(got.shape()) << " instead of "
                    << shapeToString(want.shape());
            } else {
                auto [abs, rel] = arrayDifference(got, want);
                result.maxAbsDiff = std::max(result.maxAbsDiff, abs);
                result.maxRelDiff = std::max(result.maxRelDiff, rel);
                if (abs > options.atol && rel > options.rtol) {
                    why.precision(3);
                    why << "output " << i << " differs by " << abs << " (relative " << rel << ")";
                }
            }
            if (!why.str().empty()) {
                result.firstBadStep = k;
                result.message = why.str();
                return result;
            }
        }
        if (options.onProgress) options.onProgress(k, n);
    }
    return result;
}

} // namespace tl
