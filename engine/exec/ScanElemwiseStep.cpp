#include "exec/ScanElemwiseStep.h"

#include "exec/Executor.h"
#include "ops/Elemwise.h"
#include "ops/ElemwiseLoop.h"
#include "ops/ScalarProgram.h"

#include <algorithm>

namespace tl {

std::unique_ptr<ScanElemwiseStep> ScanElemwiseStep::plan(CompiledGraph& fn, std::span<const NDArray* const> targets,
                                                         std::span<const NDArray* const> rowsOf) {
    if (fn.order().size() != 1 || !fn.protectedDestroyers().empty()) return nullptr;
    const Node* node = fn.order().front();
    const auto* elemwise = dynamic_cast<const Elemwise*>(&node->op());
    if (!elemwise || elemwise->isScalarLoop() || !elemwise->inplacePattern().empty()) return nullptr;
    const Graph& g = fn.graph();
    const size_t nin = node->numInputs(), nout = node->numOutputs();
    if (nin == 0 || nin > kMaxContiguousOperands || nout > kMaxContiguousOperands) return nullptr;
    if (g.outputs().size() != nout || targets.size() != nout) return nullptr;

    auto plan = std::unique_ptr<ScanElemwiseStep>(new ScanElemwiseStep);
    std::vector<int> inputOf(nin, -1);  // graph input number, -1 for a constant
    std::vector<DType> dtypes;
    for (size_t k = 0; k < nin; ++k) {
        const Variable* v = node->input(static_cast<int>(k));
        const NDArray* a = nullptr;
        if (v->isConstant()) {
            a = &v->constantValue();
        } else {
            const auto it = std::find(g.inputs().begin(), g.inputs().end(), v);
            if (it == g.inputs().end() || static_cast<size_t>(it - g.inputs().begin()) >= rowsOf.size()) return nullptr;
            inputOf[k] = static_cast<int>(it - g.inputs().begin());
            a = &fn.inputSlot(inputOf[k]);
        }
        if (!a->valid() || !a->isContiguous()) return nullptr;
        plan->m_inputs.push_back({a, static_cast<const std::byte*>(a->storage()->data()),
                                  static_cast<int64_t>(dtypeSize(a->dtype()))});
        dtypes.push_back(a->dtype());
    }
    const Shape& shape = plan->m_inputs[0].array->shape();
    for (const Input& in : plan->m_inputs)
        if (in.array->shape() != shape) return nullptr;
    const ScalarProgram* program = nullptr;
    try {
        program = &elemwise->program(dtypes);
    } catch (const std::exception&) {
        return nullptr;  // the general path reports it
    }
    if (static_cast<size_t>(program->numInputs()) != nin || static_cast<size_t>(program->numOutputs()) != nout) return nullptr;
    for (size_t k = 0; k < nin; ++k)
        if (dtypes[k] != program->inputDType(static_cast<int>(k))) return nullptr;

    plan->m_outputOf.assign(nout, -1);
    for (size_t j = 0; j < nout; ++j) {
        const Variable* o = g.outputs()[j];
        if (o->owner() != node) return nullptr;
        const int k = static_cast<int>(std::find(node->outputs().begin(), node->outputs().end(), o) - node->outputs().begin());
        if (plan->m_outputOf[k] != -1) return nullptr;  // listed twice
        plan->m_outputOf[k] = static_cast<int>(j);
        const NDArray* t = targets[j];
        if (!t || !t->valid() || !t->isContiguous() || t->ndim() != static_cast<int>(shape.size()) + 1 ||
            t->dtype() != program->outputDType(k) || !std::equal(shape.begin(), shape.end(), t->shape().begin() + 1))
            return nullptr;
        for (size_t i = 0; i < nin; ++i)
            if (plan->m_inputs[i].array->sharesStorageWith(*t) && (inputOf[i] < 0 || rowsOf[inputOf[i]] != t)) return nullptr;
    }
    plan->m_program = program;
    plan->m_elements = 1;
    for (int64_t d : shape) plan->m_elements *= d;
    return plan;
}

void ScanElemwiseStep::run(void* const* rows) const {
    const std::byte* in[kMaxContiguousOperands];
    std::byte* out[kMaxContiguousOperands];
    bool aliased[kMaxContiguousOperands];
    const size_t nin = m_inputs.size(), nout = m_outputOf.size();
    for (size_t i = 0; i < nin; ++i) in[i] = m_inputs[i].data + m_inputs[i].array->offset() * m_inputs[i].elemSize;
    for (size_t k = 0; k < nout; ++k) {
        out[k] = static_cast<std::byte*>(rows[m_outputOf[k]]);
        aliased[k] = std::find(in, in + nin, out[k]) != in + nin;
    }
    if (m_elements > 0)
        runContiguousElementwise(*m_program, std::span<const std::byte* const>(in, nin), std::span<std::byte* const>(out, nout),
                                 aliased, m_elements);
}

} // namespace tl
