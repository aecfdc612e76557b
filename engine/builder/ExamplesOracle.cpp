// One built-in example per PyTensor reference case (tests/oracle/<case>/case.py),
// built as the case's `builder` field describes. Their input values live in the
// oracle files; the tests read them from there.
#include "builder/Examples.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Scan.h"

namespace tl {

namespace {
using Outs = std::vector<Var>;

// xs = scan(x' = x * 0.5 + 1, outputs_info=[x0], n_steps=10): the save-mem cases' loop.
Var halfPlusOne(GraphBuilder& b, Var x0, int nSteps) {
    return scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[0] * 0.5 + 1}}; },
                ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nSteps = nSteps})
        .outputs[0];
}

// Two sit_sot states from the same init, updates a*2+1 and b*k+1.
Outs twoAffine(GraphBuilder& b, int secondFactor) {
    Var a0 = b.input("a0", DType::Float64, {4});
    return scan(b, [secondFactor](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
               return {{a[0] * 2 + 1, a[1] * secondFactor + 1}};
           }, ScanArgs{.outputsInfo = {OutputInfo(a0), OutputInfo(a0)}, .nSteps = 6})
        .outputs;
}

// sa: a' = a*0.5 + 1 (n steps), sb: b' = b*b*0.25 - 1 (m steps).
Outs twoLoops(GraphBuilder& b, int nA, int nB) {
    Var a0 = b.input("a0", DType::Float64, {3});
    Var b0 = b.input("b0", DType::Float64, {2});
    Var sa = halfPlusOne(b, a0, nA);
    Var sb = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{a[0] * a[0] * 0.25 - 1}}; },
                  ScanArgs{.outputsInfo = {OutputInfo(b0)}, .nSteps = nB})
                 .outputs[0];
    return {sa, sb};
}

Example make(std::string name, std::string description, std::function<Outs(GraphBuilder&)> build) {
    return Example{std::move(name), std::move(description), std::move(build), nullptr};
}
} // namespace

std::vector<Example> oracleExamples() {
    std::vector<Example> out;
    out.push_back(make("dup_affine", "two identical affine sit_sot states a*2+1 from one init, both traces returned",
                       [](GraphBuilder& b) { return twoAffine(b, 2); }));
    out.push_back(make("dup_diff_update", "same init, different updates (a*2+1, b*3+1): must not merge",
                       [](GraphBuilder& b) { return twoAffine(b, 3); }));
    out.push_back(make("dup_last_only", "two identical affine states, only their last values used",
                       [](GraphBuilder& b) {
                           Outs s = twoAffine(b, 2);
                           return Outs{index(s[0], -1), index(s[1], -1)};
                       }));
    out.push_back(make("dup_mitsot_fib", "two identical Fibonacci mit_sot states (taps -2, -1) from one init",
                       [](GraphBuilder& b) {
                           Var x0 = b.input("x0", DType::Float64, {2});
                           return scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                                      return {{a[1] + a[0], a[3] + a[2]}};
                                  }, ScanArgs{.outputsInfo = {OutputInfo(x0, {-2, -1}), OutputInfo(x0, {-2, -1})},
                                              .nSteps = 8})
                               .outputs;
                       }));
    out.push_back(make("merge_diff_nsteps", "two independent loops of 6 and 4 steps: must not fuse",
                       [](GraphBuilder& b) { return twoLoops(b, 6, 4); }));
    out.push_back(make("merge_same_nsteps", "two independent loops of 6 steps: fuse into one (scan_fn&scan_fn)",
                       [](GraphBuilder& b) { return twoLoops(b, 6, 6); }));
    out.push_back(make("misc_map_elemwise", "an elementwise map over a 5x3 sequence: y_t = x_t * w + 1",
                       [](GraphBuilder& b) {
                           Var xs = b.input("xs", DType::Float64, {5, 3});
                           Var w = b.input("w", DType::Float64, {3});
                           return scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                                      return {{a[0] * a[1] + 1}};
                                  }, ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo::none()}, .nonSequences = {w}})
                               .outputs;
                       }));
    out.push_back(make("misc_map_nonseq", "a reduction map over a 5x3 sequence: y_t = sum(x_t * w)",
                       [](GraphBuilder& b) {
                           Var xs = b.input("xs", DType::Float64, {5, 3});
                           Var w = b.input("w", DType::Float64, {3});
                           return scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                                      return {{sum(a[0] * a[1])}};
                                  }, ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo::none()}, .nonSequences = {w}})
                               .outputs;
                       }));
    out.push_back(make("misc_running_sum", "running sum over the rows of a 6x3 matrix: s' = s + m_t",
                       [](GraphBuilder& b) {
                           Var m = b.input("M", DType::Float64, {6, 3});
                           Var s0 = b.input("s0", DType::Float64, {3});
                           return scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                                      return {{a[1] + a[0]}};
                                  }, ScanArgs{.sequences = {m}, .outputsInfo = {OutputInfo(s0)}})
                               .outputs;
                       }));
    out.push_back(make("pushout_seq", "h' = h*0.5 + exp(x_t)*2 over a 6x3 sequence: exp(x_t)*2 can leave the loop",
                       [](GraphBuilder& b) {
                           Var xs = b.input("xs", DType::Float64, {6, 3});
                           Var h0 = b.input("h0", DType::Float64, {3});
                           return scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                                      return {{a[1] * 0.5 + exp(a[0]) * 2}};
                                  }, ScanArgs{.sequences = {xs}, .outputsInfo = {OutputInfo(h0)}})
                               .outputs;
                       }));
    out.push_back(make("savemem_mitsot_fib_last", "Fibonacci mit_sot (taps -2, -1), 10 steps, only fib[-1] used",
                       [](GraphBuilder& b) {
                           Var x0 = b.input("x0", DType::Float64, {2});
                           Var fib = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                                         return {{a[1] + a[0]}};
                                     }, ScanArgs{.outputsInfo = {OutputInfo(x0, {-2, -1})}, .nSteps = 10})
                                         .outputs[0];
                           return Outs{index(fib, -1)};
                       }));
    out.push_back(make("savemem_sitsot_first5", "x' = x*0.5 + 1, 10 steps, only xs[:5] used",
                       [](GraphBuilder& b) {
                           Var xs = halfPlusOne(b, b.input("x0", DType::Float64, {3}), 10);
                           return Outs{slice(xs, std::nullopt, 5)};
                       }));
    out.push_back(make("savemem_sitsot_full", "x' = x*0.5 + 1, 10 steps, the whole trace used",
                       [](GraphBuilder& b) { return Outs{halfPlusOne(b, b.input("x0", DType::Float64, {3}), 10)}; }));
    out.push_back(make("savemem_sitsot_last", "x' = x*0.5 + 1, 10 steps, only xs[-1] used",
                       [](GraphBuilder& b) {
                           return Outs{index(halfPlusOne(b, b.input("x0", DType::Float64, {3}), 10), -1)};
                       }));
    out.push_back(make("savemem_sitsot_last2", "x' = x*0.5 + 1, 10 steps, only xs[-2:] used",
                       [](GraphBuilder& b) {
                           Var xs = halfPlusOne(b, b.input("x0", DType::Float64, {3}), 10);
                           return Outs{slice(xs, -2, std::nullopt)};
                       }));
    return out;
}

} // namespace tl
