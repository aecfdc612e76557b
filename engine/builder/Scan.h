#pragma once
// pytensor.scan in C++. The graph is laid out exactly as PyTensor's scan()
// builds it: sequences sliced seq[0:][:n_steps]; each traced state's buffer
// SetSubtensor{:stop}(AllocEmpty(n_steps + init_l, *row dims), init, init_l)
// with init = ExpandDims{axis=0}(x0) for a sit_sot and x0[:init_l] for a
// mit_sot; nit_sot outputs sized by n_steps; user-visible traces out[init_l:].
// Variables of the enclosing builder that the step uses are captured as extra
// non_sequences, as PyTensor's scan collects them.
//
//   auto r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
//       return {{exp(a[0]) - 5}};
//   }, ScanArgs{.outputsInfo = {OutputInfo(xInit)}, .nSteps = 10});
//   Var seq = r.outputs[0];        // (10, 7)
#include "builder/GraphBuilder.h"
#include "builder/Indexing.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tl {

class ScanOp;

/// One entry of outputs_info.
struct OutputInfo {
    /// No initial value: a nit_sot output (PyTensor's `None`), not fed back.
    OutputInfo() = default;
    /// A state fed back with taps {-1} (sit_sot).
    OutputInfo(Var initialValue) : initial(std::move(initialValue)) {}
    /// A state fed back with these negative taps ({-1}: sit_sot, otherwise mit_sot;
    /// `initialValue` then holds -min(taps) rows, oldest first).
    OutputInfo(Var initialValue, std::vector<int> tapList) : initial(std::move(initialValue)), taps(std::move(tapList)) {}
    static OutputInfo none() { return OutputInfo(); }

    Var initial;
    std::vector<int> taps{-1};
};

/// A state the step reads and updates without keeping its history (PyTensor's
/// shared variable with an update, an "untraced" / "shared" state): the step
/// sees its current value and returns its next one; scan returns the last.
struct UntracedState {
    Var initial;
};

/// What the step function returns.
struct StepResult {
    /// One new value per outputs_info entry, in order.
    std::vector<Var> outputs;
    /// The next value of each untraced state, in order.
    std::vector<Var> updates = {};
    /// Optional: stop after this step when true (pytensor.scan.utils.until); a 0-d value.
    Var until = {};
};

/// The step: `step` is the inner builder; `args` are, in order, one row per
/// sequence, the taps of each outputs_info entry with an initial value (in the
/// entry's tap order), the non_sequences, then the current value of each untraced
/// state. Any other variable of the enclosing builder used in the step is captured.
using StepFn = std::function<StepResult(GraphBuilder& step, const std::vector<Var>& args)>;

struct ScanArgs {
    std::vector<Var> sequences = {};
    std::vector<OutputInfo> outputsInfo = {};
    std::vector<Var> nonSequences = {};
    std::vector<UntracedState> untraced = {};
    /// An int or a 0-d integer variable; absent: the shortest sequence's length.
    std::optional<IntArg> nSteps = std::nullopt;
    std::string name = "scan_fn";
};

struct ScanResult {
    /// Per outputs_info entry: its trace without the initial rows (out[init_l:]), or
    /// the nit_sot trace.
    std::vector<Var> outputs;
    /// Per untraced state: its value after the last step (PyTensor's updates).
    std::vector<Var> updates;
    /// The Scan node (null when n_steps is the constant 1: PyTensor then applies
    /// the step once without a loop, and so does this).
    Node* node = nullptr;
    /// Its raw outputs (full trace buffers), in ScanInfo order.
    std::vector<Var> rawOutputs;
};

/// Builds the loop in `b` (see the top of this file). Throws std::invalid_argument
/// for inconsistent arguments (a non-negative or repeated tap, a wrong number of step
/// outputs, no way to know n_steps, ...).
ScanResult scan(GraphBuilder& b, const StepFn& step, const ScanArgs& args);

} // namespace tl
