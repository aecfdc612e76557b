// What is built on a compiled ScalarProgram: evaluating whole arrays, the per-signature
// program cache of plain Elemwise ops, and evaluating one scalar op on doubles.
#include "ops/ScalarProgram.h"

#include <algorithm>
#include <stdexcept>

namespace tl {

std::vector<NDArray> ScalarProgram::evaluate(std::span<const NDArray> inputs) const {
    if (static_cast<int>(inputs.size()) != numInputs())
        throw std::invalid_argument("program takes " + std::to_string(numInputs()) + " inputs, got " +
                                    std::to_string(inputs.size()));
    const Shape shape = inputs.empty() ? Shape{} : inputs[0].shape();
    std::vector<NDArray> ins;
    for (int i = 0; i < numInputs(); ++i) {
        if (inputs[i].shape() != shape) throw std::invalid_argument("evaluate: inputs of different shapes");
        ins.push_back(inputs[i].astype(m_inputDTypes[i]));  // contiguous, right dtype
    }
    std::vector<NDArray> outs;
    for (int o = 0; o < numOutputs(); ++o) outs.push_back(NDArray::empty(m_outputDTypes[o], shape));
    int64_t total = 1;
    for (int64_t d : shape) total *= d;
    ProgramWorkspace& ws = ProgramWorkspace::local();
    ws.bind(*this, 0);
    std::vector<const void*> ip(ins.size());
    std::vector<void*> op(outs.size());
    for (int64_t start = 0; start < total; start += kBlockSize) {
        const int64_t n = std::min(kBlockSize, total - start);
        for (size_t i = 0; i < ins.size(); ++i)
            ip[i] = static_cast<const std::byte*>(ins[i].rawData()) + start * static_cast<int64_t>(dtypeSize(ins[i].dtype()));
        for (size_t o = 0; o < outs.size(); ++o)
            op[o] = static_cast<std::byte*>(outs[o].rawData()) + start * static_cast<int64_t>(dtypeSize(outs[o].dtype()));
        runBlock(ws, ip.data(), op.data(), n);
    }
    return outs;
}

const ScalarProgram& OpProgramCache::get(ScalarOpCode code, DType castTo, std::span<const DType> inputs) const {
    return m_programs.get(inputs, [&] { return ScalarProgram::compileOp(code, castTo, inputs); });
}

double evalScalarOp(ScalarOpCode code, std::span<const double> inputs, std::span<const DType> inputDTypes,
                    DType castTo) {
    if (inputs.size() != inputDTypes.size()) throw std::invalid_argument("evalScalarOp: one dtype per input");
    auto program = ScalarProgram::compileOp(code, castTo, inputDTypes);
    std::vector<NDArray> ins;
    for (size_t i = 0; i < inputs.size(); ++i) ins.push_back(NDArray::scalar(inputDTypes[i], inputs[i]));
    return program->evaluate(ins).at(0).item();
}

} // namespace tl
