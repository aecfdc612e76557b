// The two programs of the seed bug report (tests/data/missed-scan-rewrites.txt).
#include "builder/Examples.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Rop.h"
#include "builder/Scan.h"

namespace tl {

namespace {
NDArray seedInit() {
    // x_init = linspace(-1, 1, 7) * 0.1, as the expected numbers use.
    NDArray a = linspace(-1.0, 1.0, 7);
    for (int64_t i = 0; i < 7; ++i) a.data<double>()[i] *= 0.1;
    return a;
}
} // namespace

std::vector<Example> seedExamples() {
    std::vector<Example> out;
    out.push_back(Example{
        "seed_rop",
        "Seed example 1: x' = exp(x) - 5 for 10 steps, seq[-1] and its Rop (forward derivative) w.r.t. x_init",
        [](GraphBuilder& b) {
            Var x = b.input("x_init", DType::Float64, {7});
            Var dx = b.input("x_init_tangent", DType::Float64, {7});
            ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                return {{exp(a[0]) - 5}};
            }, ScanArgs{.outputsInfo = {OutputInfo(x)}, .nSteps = 10});
            Var last = index(r.outputs[0], -1);
            Var tangent = rop(last, x, dx);
            return std::vector<Var>{last, tangent};
        },
        [] {
            return std::map<std::string, NDArray>{{"x_init", seedInit()},
                                                  {"x_init_tangent", NDArray::fromVector(DType::Float64, {7}, std::vector<double>(7, 1.0))}};
        }});
    out.push_back(Example{
        "seed_dup",
        "Seed example 2: two identical states exp(x) - 5 and exp(y) - 5 from the same x_init, both traces returned",
        [](GraphBuilder& b) {
            Var x = b.input("x_init", DType::Float64, {7});
            ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                return {{exp(a[0]) - 5, exp(a[1]) - 5}};
            }, ScanArgs{.outputsInfo = {OutputInfo(x), OutputInfo(x)}, .nSteps = 10});
            return r.outputs;
        },
        [] { return std::map<std::string, NDArray>{{"x_init", seedInit()}}; }});
    // Not in the seed, but what its users write next: the same loop driven by a
    // sequence of unknown length, so n_steps is only known at run time and
    // scan_save_mem must size the buffers without it.
    out.push_back(Example{
        "seed_rop_sequence",
        "Seed example 1 over a sequence M of unknown length: x' = exp(x) - 5 + 0.01 m_t, seq[-1] and its Rop w.r.t. x_init",
        [](GraphBuilder& b) {
            Var x = b.input("x_init", DType::Float64, {7});
            Var dx = b.input("x_init_tangent", DType::Float64, {7});
            Var m = b.input("M", DType::Float64, {kUnknownDim, 7});
            ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
                return {{exp(a[1]) - 5 + a[0] * 0.01}};
            }, ScanArgs{.sequences = {m}, .outputsInfo = {OutputInfo(x)}});
            Var last = index(r.outputs[0], -1);
            Var tangent = rop(last, x, dx);
            return std::vector<Var>{last, tangent};
        },
        [] {
            std::vector<double> rows(10 * 7);
            for (size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<double>(i % 7) - 3.0;
            return std::map<std::string, NDArray>{{"x_init", seedInit()},
                                                  {"x_init_tangent", NDArray::fromVector(DType::Float64, {7}, std::vector<double>(7, 1.0))},
                                                  {"M", NDArray::fromVector(DType::Float64, {10, 7}, rows)}};
        }});
    return out;
}

} // namespace tl
