#include "ops/ScalarProgram.h"

#include "ir/Graph.h"
#include "ops/FusedArithmetic.h"
#include "ops/ScalarOp.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <unordered_map>

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
            m_slots[s] = const_cast<std::byte*>(program.m_constants[static_cast<size_t>(slot.index)].data);
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

// ---- compilation ----------------------------------------------------------

ScalarProgram::ScalarProgram() {
    static std::atomic<uint64_t> next{1};
    m_id = next.fetch_add(1, std::memory_order_relaxed);
}

class ProgramBuilder {
public:
    explicit ProgramBuilder(ScalarProgram& p) : m_p(p) {}

    int addSlot(DType d, ScalarProgram::SlotKind k, int index) {
        m_p.m_slots.push_back({d, k, index});
        return static_cast<int>(m_p.m_slots.size()) - 1;
    }

    int addInput(DType d) {
        int s = addSlot(d, ScalarProgram::SlotKind::Input, static_cast<int>(m_p.m_inputDTypes.size()));
        m_p.m_inputDTypes.push_back(d);
        m_p.m_inputSlot.push_back(s);
        return s;
    }

    /// A constant slot holding a block of `value` (a 0-d array) converted to `to`.
    int addConstant(const NDArray& value, DType to) {
        ScalarProgram::ConstBlock block;
        dispatchDType(value.dtype(), [&](auto f) {
            const auto v = value.data<decltype(f)>()[0];
            dispatchDType(to, [&](auto t) {
                using T = decltype(t);
                const T c = scalar_fn::convert<T>(v);
                T* dst = reinterpret_cast<T*>(block.data);
                for (int64_t i = 0; i < kBlockSize; ++i) dst[i] = c;
            });
        });
        m_p.m_constants.push_back(block);
        int s = addSlot(to, ScalarProgram::SlotKind::Constant, static_cast<int>(m_p.m_constants.size()) - 1);
        m_constValue[s] = value;
        return s;
    }

    /// `arith`: the instruction is that binary float add/sub/mul (fuseArithmetic may pair it).
    int emit(BlockFn fn, DType outDType, std::initializer_list<int> srcs, std::optional<ScalarOpCode> arith = {}) {
        if (!fn) throw std::logic_error("no block kernel for this op and dtype");
        BlockInstr ins;
        ins.fn = fn;
        int k = 0;
        for (int s : srcs) ins.src[k++] = s;
        ins.dst = addSlot(outDType, ScalarProgram::SlotKind::Temp, -1);
        m_p.m_code.push_back(ins);
        m_numSrc.push_back(k);
        m_arith.push_back(arith);
        return ins.dst;
    }

    /// `slot` converted to dtype `to`: itself, a converted constant, or a convert instruction.
    int converted(int slot, DType to) {
        const auto& s = m_p.m_slots[static_cast<size_t>(slot)];
        if (s.dtype == to) return slot;
        auto key = std::make_pair(slot, to);
        if (auto it = m_conversions.find(key); it != m_conversions.end()) return it->second;
        int r = s.kind == ScalarProgram::SlotKind::Constant ? addConstant(m_constValue.at(slot), to)
                                                            : emit(convertBlockKernel(s.dtype, to), to, {slot});
        m_conversions[key] = r;
        return r;
    }

    /// Emits `code` on `srcs`; returns the slot of the result (dtype scalarOutputDType).
    int emitOp(ScalarOpCode code, DType castTo, const std::vector<int>& srcs) {
        std::vector<DType> ins;
        for (int s : srcs) ins.push_back(m_p.m_slots[static_cast<size_t>(s)].dtype);
        const DType out = scalarOutputDType(code, ins, castTo);  // throws OpTypeError
        const DType compute = scalarComputeDType(code, ins, castTo);
        if (code == ScalarOpCode::Cast) return emit(convertBlockKernel(ins[0], castTo), castTo, {srcs[0]});
        // second(x, y) is y: x only gives the Elemwise its shape.
        if (code == ScalarOpCode::Second) return emit(convertBlockKernel(ins[1], out), out, {srcs[1]});
        if (code == ScalarOpCode::Switch) {
            int c = converted(srcs[0], DType::Bool);
            int a = converted(srcs[1], compute), b = converted(srcs[2], compute);
            return emit(scalarBlockKernel(code, compute), out, {c, a, b});
        }
        const BlockFn fn = scalarBlockKernel(code, compute);
        const bool isCmp = out == DType::Bool && compute != DType::Bool;
        const DType kernelOut = isCmp ? DType::Bool : compute;
        int acc = converted(srcs[0], compute);
        if (srcs.size() == 1) {
            // add / mul of one term is the term (PyTensor's rewrites build such nodes).
            if (scalarOpInfo(code).arity != kVariadicArity) acc = emit(fn, kernelOut, {acc});
        } else if (scalarOpInfo(code).arity == 3) {
            // A fixed-arity ternary op (clip, betainc): one instruction on all three.
            acc = emit(fn, kernelOut, {acc, converted(srcs[1], compute), converted(srcs[2], compute)});
        } else if (scalarOpInfo(code).arity == 4) {
            acc = emit(fn, kernelOut,
                       {acc, converted(srcs[1], compute), converted(srcs[2], compute), converted(srcs[3], compute)});
        } else {
            // Variadic add/mul fold left to right, as PyTensor's C code `a + b + c`.
            std::optional<ScalarOpCode> arith;
            if (fusableArithmetic(code) && (compute == DType::Float64 || compute == DType::Float32)) arith = code;
            for (size_t i = 1; i < srcs.size(); ++i) acc = emit(fn, kernelOut, {acc, converted(srcs[i], compute)}, arith);
        }
        return converted(acc, out);
    }

    /// Binds output o to `slot`: the producing instruction writes straight into the
    /// output when it can, otherwise a final copy/convert does.
    void setOutput(int slot, DType outDType) {
        const int o = static_cast<int>(m_p.m_outputDTypes.size());
        m_p.m_outputDTypes.push_back(outDType);
        auto& s = m_p.m_slots[static_cast<size_t>(slot)];
        if (s.kind == ScalarProgram::SlotKind::Temp && s.dtype == outDType) {
            s.kind = ScalarProgram::SlotKind::Output;
            s.index = o;
            m_p.m_outputSlot.push_back(slot);
            return;
        }
        int r = emit(convertBlockKernel(s.dtype, outDType), outDType, {slot});
        m_p.m_slots[static_cast<size_t>(r)].kind = ScalarProgram::SlotKind::Output;
        m_p.m_slots[static_cast<size_t>(r)].index = o;
        m_p.m_outputSlot.push_back(r);
    }

    /// Pairs an add/sub/mul whose result only one other add/sub/mul of its dtype reads
    /// with that reader: one loop computing both (ops/FusedArithmetic.h). Runs on the
    /// program before register allocation, where every slot is written once, so the
    /// inner op's sources are still intact where the reader is; an inner op that is an
    /// output, or read twice, stays. A fused instruction is not paired again.
    void fuseArithmetic() {
        const size_t n = m_p.m_code.size();
        std::vector<int> uses(m_p.m_slots.size(), 0), producer(m_p.m_slots.size(), -1);
        for (size_t i = 0; i < n; ++i) {
            producer[static_cast<size_t>(m_p.m_code[i].dst)] = static_cast<int>(i);
            for (int k = 0; k < m_numSrc[i]; ++k) ++uses[static_cast<size_t>(m_p.m_code[i].src[k])];
        }
        std::vector<bool> removed(n, false);
        for (size_t j = 0; j < n; ++j) {
            if (!m_arith[j]) continue;
            BlockInstr& outer = m_p.m_code[j];
            const DType dtype = m_p.m_slots[static_cast<size_t>(outer.dst)].dtype;
            for (int k = 0; k < 2; ++k) {
                const auto slot = static_cast<size_t>(outer.src[k]);
                const int i = producer[slot];
                if (i < 0 || removed[static_cast<size_t>(i)] || !m_arith[static_cast<size_t>(i)] || uses[slot] != 1 ||
                    m_p.m_slots[slot].kind != ScalarProgram::SlotKind::Temp || m_p.m_slots[slot].dtype != dtype)
                    continue;
                const BlockInstr& inner = m_p.m_code[static_cast<size_t>(i)];
                const BlockFn fn = fusedArithmeticKernel(*m_arith[static_cast<size_t>(i)], *m_arith[j], k == 0, dtype);
                if (!fn) continue;
                const int other = outer.src[1 - k];
                outer.fn = fn;
                outer.src[0] = inner.src[0];
                outer.src[1] = inner.src[1];
                outer.src[2] = other;
                m_numSrc[j] = 3;
                m_arith[j].reset();
                removed[static_cast<size_t>(i)] = true;
                m_p.m_slots[slot].index = 0;  // no instruction writes it any more
                break;
            }
        }
        size_t w = 0;
        for (size_t i = 0; i < n; ++i) {
            if (removed[i]) continue;
            m_p.m_code[w] = m_p.m_code[i];
            m_numSrc[w] = m_numSrc[i];
            m_arith[w] = m_arith[i];
            ++w;
        }
        m_p.m_code.resize(w);
        m_numSrc.resize(w);
        m_arith.resize(w);
    }

    /// Sets endsInProduct: one output, written by the last instruction, an unpaired float mul.
    void markFinalProduct() {
        if (m_p.m_outputSlot.size() != 1 || m_p.m_code.empty()) return;
        const size_t last = m_p.m_code.size() - 1;
        m_p.m_endsInProduct = m_arith[last] == ScalarOpCode::Mul && m_p.m_code[last].dst == m_p.m_outputSlot[0];
    }

    /// Linear-scan register allocation over the temporaries. A destination is
    /// allocated before the sources that die at its instruction are freed, so it
    /// never shares memory with them (the loops use restrict pointers).
    void allocateRegisters() {
        const size_t nslots = m_p.m_slots.size();
        std::vector<int> lastUse(nslots, -1);
        for (size_t i = 0; i < m_p.m_code.size(); ++i)
            for (int k = 0; k < m_numSrc[i]; ++k) lastUse[static_cast<size_t>(m_p.m_code[i].src[k])] = static_cast<int>(i);
        std::vector<int> freeRegs;
        int next = 0;
        auto isTemp = [&](int s) { return m_p.m_slots[static_cast<size_t>(s)].kind == ScalarProgram::SlotKind::Temp; };
        for (size_t i = 0; i < m_p.m_code.size(); ++i) {
            const BlockInstr& ins = m_p.m_code[i];
            if (isTemp(ins.dst)) {
                int r;
                if (!freeRegs.empty()) {
                    r = freeRegs.back();
                    freeRegs.pop_back();
                } else {
                    r = next++;
                }
                m_p.m_slots[static_cast<size_t>(ins.dst)].index = r;
            }
            for (int k = 0; k < m_numSrc[i]; ++k) {
                const int s = ins.src[k];
                bool seen = false;
                for (int j = 0; j < k; ++j) seen = seen || ins.src[j] == s;
                if (!seen && isTemp(s) && lastUse[static_cast<size_t>(s)] == static_cast<int>(i))
                    freeRegs.push_back(m_p.m_slots[static_cast<size_t>(s)].index);
            }
            if (isTemp(ins.dst) && lastUse[static_cast<size_t>(ins.dst)] < 0)
                freeRegs.push_back(m_p.m_slots[static_cast<size_t>(ins.dst)].index);
        }
        m_p.m_numRegisters = next;
    }

private:
    ScalarProgram& m_p;
    std::vector<int> m_numSrc;
    std::vector<std::optional<ScalarOpCode>> m_arith;  // per instruction, see emit
    std::map<std::pair<int, DType>, int> m_conversions;
    std::unordered_map<int, NDArray> m_constValue;
};

std::shared_ptr<const ScalarProgram> ScalarProgram::compile(const Graph& g) {
    std::shared_ptr<ScalarProgram> p(new ScalarProgram());
    ProgramBuilder b(*p);
    std::unordered_map<const Variable*, int> slotOf;
    for (Variable* in : g.inputs()) {
        if (!in->type().isScalarType())
            throw std::invalid_argument("scalar graph input " + std::to_string(in->id()) + " has type " +
                                        in->type().toString() + ", not a ScalarType");
        slotOf[in] = b.addInput(in->type().dtype);
    }
    auto slotFor = [&](Variable* v, const Node* user) -> int {
        if (auto it = slotOf.find(v); it != slotOf.end()) return it->second;
        if (v->isConstant()) {
            if (v->constantValue().size() != 1)
                throw std::invalid_argument(user->label() + ": scalar graph constant " + std::to_string(v->id()) + " is not 0-d");
            int s = b.addConstant(v->constantValue(), v->type().dtype);
            slotOf[v] = s;
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
        slotOf[n->output(0)] = r;
    }
    for (Variable* out : g.outputs()) {
        int s;
        if (auto it = slotOf.find(out); it != slotOf.end()) s = it->second;
        else if (out->isConstant()) s = b.addConstant(out->constantValue(), out->type().dtype);
        else throw std::invalid_argument("scalar graph output " + std::to_string(out->id()) + " is not computed");
        b.setOutput(s, out->type().dtype);
    }
    b.fuseArithmetic();
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
