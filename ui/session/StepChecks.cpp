#include "session/StepChecks.h"

#include "exec/Executor.h"
#include "trace/TraceReplayer.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace tl {

int StepChecks::firstBad() const {
    for (const StepCheck& c : steps)
        if (!c.ok) return c.step;
    return -1;
}

int StepChecks::badCount() const {
    int n = 0;
    for (const StepCheck& c : steps) n += !c.ok;
    return n;
}

StepChecks checkEveryStep(const Trace& trace, const std::vector<NDArray>& inputs, const VerifyOptions& options) {
    StepChecks out;
    RunResult reference;
    try {
        reference = runGraph(trace.original(), inputs);
    } catch (const std::exception& e) {
        out.error = std::string("the original graph does not run: ") + e.what();
        return out;
    }
    out.originalPeakBytes = reference.peakBytes;
    TraceReplayer replay(trace);
    const int n = static_cast<int>(trace.size());
    for (int k = 1; k <= n; ++k) {
        if (options.cancelled && options.cancelled()) {
            out.cancelled = true;
            return out;
        }
        StepCheck c;
        c.step = k;
        try {
            const RunResult r = runGraph(replay.graphAt(k), inputs);
            c.peakBytes = r.peakBytes;
            if (r.outputs.size() != reference.outputs.size()) {
                c.ok = false;
                c.message = "the number of outputs changed";
            }
            for (size_t i = 0; c.ok && i < r.outputs.size(); ++i) {
                const NDArray& got = r.outputs[i];
                const NDArray& want = reference.outputs[i];
                std::ostringstream why;
                if (got.shape() != want.shape()) {
                    why << "output " << i << " has shape " << shapeToString(got.shape()) << " instead of " << shapeToString(want.shape());
                    c.maxAbsDiff = std::numeric_limits<double>::infinity();
                } else {
                    auto [abs, rel] = arrayDifference(got, want);
                    c.maxAbsDiff = std::max(c.maxAbsDiff, abs);
                    if (abs > options.atol && rel > options.rtol) {
                        why.precision(3);
                        why << "output " << i << " differs by " << abs << " (relative " << rel << ")";
                    }
                }
                if (!why.str().empty()) {
                    c.ok = false;
                    c.message = why.str();
                }
            }
        } catch (const std::exception& e) {
            c.ok = false;
            c.message = std::string("the graph no longer runs: ") + e.what();
        }
        out.steps.push_back(std::move(c));
        if (options.onProgress) options.onProgress(k, n);
    }
    return out;
}

} // namespace tl
