#include "ops/ScalarProgramBuilder.h"

#include "ops/FusedArithmetic.h"
#include "ops/VectorKernels.h"
#include "ops/ScalarOp.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace tl {

int ProgramBuilder::addSlot(DType d, ScalarProgram::SlotKind k, int index) {
    m_p.m_slots.push_back({d, k, index});
    return static_cast<int>(m_p.m_slots.size()) - 1;
}

int ProgramBuilder::addInput(DType d) {
    int s = addSlot(d, ScalarProgram::SlotKind::Input, static_cast<int>(m_p.m_inputDTypes.size()));
    m_p.m_inputDTypes.push_back(d);
    m_p.m_inputSlot.push_back(s);
    return s;
}

int ProgramBuilder::addConstant(const NDArray& value, DType to) {
    std::shared_ptr<const ConstantBlock> block;
    dispatchDType(value.dtype(), [&](auto f) {
        const auto v = value.data<decltype(f)>()[0];
        dispatchDType(to, [&](auto t) {
            const auto c = scalar_fn::convert<decltype(t)>(v);
            block = sharedConstantBlock(to, &c, sizeof(c));
        });
    });
    m_p.m_constants.push_back(std::move(block));
    int s = addSlot(to, ScalarProgram::SlotKind::Constant, static_cast<int>(m_p.m_constants.size()) - 1);
    m_constValue[s] = value;
    return s;
}

int ProgramBuilder::emit(BlockFn fn, DType outDType, std::initializer_list<int> srcs, std::optional<ScalarOpCode> arith) {
    if (!fn) throw std::logic_error("no block kernel for this op and dtype");
    BlockInstr ins;
    ins.fn = fn;
    int k = 0;
    for (int s : srcs) ins.src[k++] = s;
    ins.dst = addSlot(outDType, ScalarProgram::SlotKind::Temp, -1);
    m_p.m_code.push_back(ins);
    m_numSrc.push_back(k);
    m_arith.push_back(arith);
    m_vectorCall.push_back({});
    return ins.dst;
}

int ProgramBuilder::converted(int slot, DType to) {
    const auto& s = m_p.m_slots[static_cast<size_t>(slot)];
    if (s.dtype == to) return slot;
    auto key = std::make_pair(slot, to);
    if (auto it = m_conversions.find(key); it != m_conversions.end()) return it->second;
    int r = s.kind == ScalarProgram::SlotKind::Constant ? addConstant(m_constValue.at(slot), to)
                                                        : emit(convertBlockKernel(s.dtype, to), to, {slot});
    m_conversions[key] = r;
    return r;
}

int ProgramBuilder::emitOp(ScalarOpCode code, DType castTo, const std::vector<int>& srcs) {
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
        if (scalarOpInfo(code).arity != kVariadicArity) {
            acc = emit(fn, kernelOut, {acc});
            m_vectorCall.back() = pairableVectorFn(code, compute);
        }
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

void ProgramBuilder::setOutput(int slot, DType outDType) {
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

void ProgramBuilder::fuseArithmetic() {
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
    dropInstructions(removed);
}

void ProgramBuilder::dropInstructions(const std::vector<bool>& removed) {
    size_t w = 0;
    for (size_t i = 0; i < m_p.m_code.size(); ++i) {
        if (removed[i]) continue;
        m_p.m_code[w] = m_p.m_code[i];
        m_numSrc[w] = m_numSrc[i];
        m_arith[w] = m_arith[i];
        m_vectorCall[w] = m_vectorCall[i];
        ++w;
    }
    m_p.m_code.resize(w);
    m_numSrc.resize(w);
    m_arith.resize(w);
    m_vectorCall.resize(w);
}

void ProgramBuilder::pairVectorCalls() {
    const size_t n = m_p.m_code.size();
    std::vector<int> producer(m_p.m_slots.size(), -1);
    for (size_t i = 0; i < n; ++i) producer[static_cast<size_t>(m_p.m_code[i].dst)] = static_cast<int>(i);
    std::vector<bool> removed(n, false);
    // The latest unpaired call per dtype (float64, float32).
    std::array<int, 2> waiting{-1, -1};
    for (size_t j = 0; j < n; ++j) {
        if (!m_vectorCall[j]) continue;
        BlockInstr& second = m_p.m_code[j];
        const DType dtype = m_p.m_slots[static_cast<size_t>(second.dst)].dtype;
        int& first = waiting[dtype == DType::Float64 ? 0 : 1];
        // Its argument must exist where the first call runs.
        if (first < 0 || producer[static_cast<size_t>(second.src[0])] >= first) {
            first = static_cast<int>(j);
            continue;
        }
        BlockInstr& pair = m_p.m_code[static_cast<size_t>(first)];
        pair.fn = pairedVectorKernel(dtype);
        pair.src[1] = second.src[0];
        pair.dst2 = second.dst;
        pair.pairFns[0] = static_cast<uint8_t>(*m_vectorCall[static_cast<size_t>(first)]);
        pair.pairFns[1] = static_cast<uint8_t>(*m_vectorCall[j]);
        m_numSrc[static_cast<size_t>(first)] = 2;
        m_vectorCall[static_cast<size_t>(first)].reset();
        removed[j] = true;
        first = -1;
    }
    dropInstructions(removed);
}

void ProgramBuilder::markFinalProduct() {
    if (m_p.m_outputSlot.size() != 1 || m_p.m_code.empty()) return;
    const size_t last = m_p.m_code.size() - 1;
    m_p.m_endsInProduct = m_arith[last] == ScalarOpCode::Mul && m_p.m_code[last].dst == m_p.m_outputSlot[0];
    if (!m_p.m_endsInProduct || last == 0) return;
    // The call just before the product, unpaired (pairVectorCalls reset the code of a
    // paired one), into a temporary only the product reads (it is read nowhere else:
    // nothing runs between them), and not both factors (exp(x) * exp(x)).
    const BlockInstr& call = m_p.m_code[last - 1];
    const BlockInstr& mul = m_p.m_code[last];
    const std::optional<vmath::Fn> fn = m_vectorCall[last - 1];
    if (!fn || call.dst2 != -1 || m_p.m_slots[static_cast<size_t>(call.dst)].kind != ScalarProgram::SlotKind::Temp) return;
    if (mul.src[0] == mul.src[1] || (mul.src[0] != call.dst && mul.src[1] != call.dst)) return;
    m_p.m_productCall = fn;
    m_p.m_productCallArgSlot = call.src[0];
    m_p.m_productOtherSlot = mul.src[0] == call.dst ? mul.src[1] : mul.src[0];
}

void ProgramBuilder::allocateRegisters() {
    const size_t nslots = m_p.m_slots.size();
    std::vector<int> lastUse(nslots, -1);
    for (size_t i = 0; i < m_p.m_code.size(); ++i)
        for (int k = 0; k < m_numSrc[i]; ++k) lastUse[static_cast<size_t>(m_p.m_code[i].src[k])] = static_cast<int>(i);
    std::vector<int> freeRegs;
    int next = 0;
    auto isTemp = [&](int s) { return m_p.m_slots[static_cast<size_t>(s)].kind == ScalarProgram::SlotKind::Temp; };
    for (size_t i = 0; i < m_p.m_code.size(); ++i) {
        const BlockInstr& ins = m_p.m_code[i];
        const int dsts[2] = {ins.dst, ins.dst2};
        for (int d : dsts) {
            if (d < 0 || !isTemp(d)) continue;
            int r;
            if (!freeRegs.empty()) {
                r = freeRegs.back();
                freeRegs.pop_back();
            } else {
                r = next++;
            }
            m_p.m_slots[static_cast<size_t>(d)].index = r;
        }
        for (int k = 0; k < m_numSrc[i]; ++k) {
            const int s = ins.src[k];
            bool seen = false;
            for (int j = 0; j < k; ++j) seen = seen || ins.src[j] == s;
            if (!seen && isTemp(s) && lastUse[static_cast<size_t>(s)] == static_cast<int>(i))
                freeRegs.push_back(m_p.m_slots[static_cast<size_t>(s)].index);
        }
        for (int d : dsts)
            if (d >= 0 && isTemp(d) && lastUse[static_cast<size_t>(d)] < 0)
                freeRegs.push_back(m_p.m_slots[static_cast<size_t>(d)].index);
    }
    m_p.m_numRegisters = next;
}

} // namespace tl
