#include "ops/ScalarProgram.h"

#include "ir/Graph.h"
#include "ops/ScalarOp.h"
#include "ops/ScalarProgramBuilder.h"

#include <algorithm>
#include <atomic>
#include <stdexcept>

namespace tl {

// ---- workspace ------------------------------------------------------------

ProgramWorkspace& ProgramWorkspace::local() {
    thread_local ProgramWorkspace ws;
    return ws;
}

void ProgramWorkspace::bind(const ScalarProgram& program, int extraBlocks) {
    const size_t blocks = static_cast<size_t>(program.m_numRegisters + extraBlocks);
    // Scan steps run the same program over and over: the slot table is still right.
    if (m_boundId == program.m_id && blocks <= m_capacityBlocks) return;
    if (blocks > m_capacityBlocks || !m_storage) {
        const size_t cap = std::max<size_t>(blocks, 8);
        m_storage = std::make_unique<std::byte[]>(cap * kBlockBytes + 64);
        const auto addr = reinterpret_cast<uintptr_t>(m_storage.get());
        m_buffer = m_storage.get() + ((64 - addr % 64) % 64);
        m_capacityBlocks = cap;
    }
    m_extraBase = program.m_numRegisters;
    m_boundId = program.m_id;
    m_slots.resize(program.m_slots.size());
    for (size_t s = 0; s < program.m_slots.size(); ++s) {
        const auto& slot = program.m_slots[s];
        switch (slot.kind) {
        case ScalarProgram::SlotKind::Temp: m_slots[s] = m_buffer + static_cast<size_t>(slot.index) * kBlockBytes; break;
        case ScalarProgram::SlotKind::Constant:
            m_slots[s] = const_cast<std::byte*>(program.m_constants[static_cast<size_t>(slot.index)]->data);
            break;
        default: m_slots[s] = nullptr; break;  // set per block by runBlock
        }
    }
}

void ScalarProgram::runBlock(ProgramWorkspace& ws, const void* const* inputs, void* const* outputs, int64_t n) const {
    void** slots = ws.m_slots.data();
    for (size_t i = 0; i < m_inputSlot.size(); ++i) slots[m_inputSlot[i]] = const_cast<void*>(inputs[i]);
    for (size_t o = 0; o < m_outputSlot.size(); ++o) slots[m_outputSlot[o]] = outputs[o];
    for (const BlockInstr& ins : m_code) ins.fn(ins, slots, n);
}

std::array<const void*, 2> ScalarProgram::runBlockToProduct(ProgramWorkspace& ws, const void* const* inputs, int64_t n) const {
    void** slots = ws.m_slots.data();
    for (size_t i = 0; i < m_inputSlot.size(); ++i) slots[m_inputSlot[i]] = const_cast<void*>(inputs[i]);
    slots[m_outputSlot[0]] = nullptr;  // the product is never stored
    for (size_t k = 0; k + 1 < m_code.size(); ++k) m_code[k].fn(m_code[k], slots, n);
    const BlockInstr& mul = m_code.back();
    return {slots[mul.src[0]], slots[mul.src[1]]};
}

std::array<const void*, 2> ScalarProgram::runBlockToProductCall(ProgramWorkspace& ws, const void* const* inputs,
                                                                int64_t n) const {
    void** slots = ws.m_slots.data();
    for (size_t i = 0; i < m_inputSlot.size(); ++i) slots[m_inputSlot[i]] = const_cast<void*>(inputs[i]);
    slots[m_outputSlot[0]] = nullptr;  // the product is never stored
    for (size_t k = 0; k + 2 < m_code.size(); ++k) m_code[k].fn(m_code[k], slots, n);
    return {slots[m_productCallArgSlot], slots[m_productOtherSlot]};
}

// ---- compilation ----------------------------------------------------------

ScalarProgram::ScalarProgram() {
    static std::atomic<uint64_t> next{1};
    m_id = next.fetch_add(1, std::memory_order_relaxed);
}

std::shared_ptr<const ScalarProgram> ScalarProgram::compile(const Graph& g) {
    std::shared_ptr<ScalarProgram> p(new ScalarProgram());
    ProgramBuilder b(*p);
    // Program slot per graph variable (by Variable::slot(), -1 until it has one): a
    // fused chain's scalar graph has tens of thousands of variables.
    std::vector<int> slotOf(g.numVariables(), -1);
    for (Variable* in : g.inputs()) {
        if (!in->type().isScalarType())
            throw std::invalid_argument("scalar graph input " + std::to_string(in->id()) + " has type " +
                                        in->type().toString() + ", not a ScalarType");
        slotOf[in->slot()] = b.addInput(in->type().dtype);
    }
    auto slotFor = [&](Variable* v, const Node* user) -> int {
        if (const int s = slotOf[v->slot()]; s >= 0) return s;
        if (v->isConstant()) {
            if (v->constantValue().size() != 1)
                throw std::invalid_argument(user->label() + ": scalar graph constant " + std::to_string(v->id()) + " is not 0-d");
            const int s = b.addConstant(v->constantValue(), v->type().dtype);
            slotOf[v->slot()] = s;
            return s;
        }
        throw std::invalid_argument(user->label() + ": input variable " + std::to_string(v->id()) +
                                    " is neither a graph input, a constant nor computed earlier");
    };
    for (Node* n : g.toposort()) {
        const auto* sop = dynamic_cast<const ScalarOp*>(&n->op());
        if (!sop) throw std::invalid_argument(n->label() + ": a scalar graph may hold only scalar ops");
        std::vector<int> srcs;
        for (Variable* v : n->inputs()) srcs.push_back(slotFor(v, n));
        int r;
        try {
            r = b.converted(b.emitOp(sop->code(), sop->castTo(), srcs), n->output(0)->type().dtype);
        } catch (const std::exception& e) {
            throw std::invalid_argument(n->label() + ": " + e.what());
        }
        slotOf[n->output(0)->slot()] = r;
    }
    for (Variable* out : g.outputs()) {
        int s = slotOf[out->slot()];
        if (s < 0 && out->isConstant()) s = b.addConstant(out->constantValue(), out->type().dtype);
        if (s < 0) throw std::invalid_argument("scalar graph output " + std::to_string(out->id()) + " is not computed");
        b.setOutput(s, out->type().dtype);
    }
    b.fuseArithmetic();
    b.pairVectorCalls();
    b.allocateRegisters();
    b.markFinalProduct();
    return p;
}

std::shared_ptr<const ScalarProgram> ScalarProgram::compileOp(ScalarOpCode code, DType castTo, std::span<const DType> inputs) {
    std::shared_ptr<ScalarProgram> p(new ScalarProgram());
    ProgramBuilder b(*p);
    std::vector<int> srcs;
    for (DType d : inputs) srcs.push_back(b.addInput(d));
    int r = b.emitOp(code, castTo, srcs);
    b.setOutput(r, p->m_slots[static_cast<size_t>(r)].dtype);
    b.allocateRegisters();
    return p;
}

} // namespace tl
