#pragma once
// Compiles a scalar graph into a ScalarProgram (ops/ScalarProgram.h): slots,
// instructions, then the passes over the instruction list (pairing arithmetic,
// pairing vectorised calls, register allocation). Internal to ops/.
#include "ops/ScalarProgram.h"
#include "ops/VectorMath.h"

#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

namespace tl {

class ProgramBuilder {
public:
    explicit ProgramBuilder(ScalarProgram& p) : m_p(p) {}

    int addSlot(DType d, ScalarProgram::SlotKind k, int index);

    int addInput(DType d);

    /// A constant slot holding a block of `value` (a 0-d array) converted to `to`.
    int addConstant(const NDArray& value, DType to);

    /// `arith`: the instruction is that binary float add/sub/mul (fuseArithmetic may pair it).
    int emit(BlockFn fn, DType outDType, std::initializer_list<int> srcs, std::optional<ScalarOpCode> arith = {});

    /// `slot` converted to dtype `to`: itself, a converted constant, or a convert instruction.
    int converted(int slot, DType to);

    /// Emits `code` on `srcs`; returns the slot of the result (dtype scalarOutputDType).
    int emitOp(ScalarOpCode code, DType castTo, const std::vector<int>& srcs);

    /// Binds output o to `slot`: the producing instruction writes straight into the
    /// output when it can, otherwise a final copy/convert does.
    void setOutput(int slot, DType outDType);

    /// Pairs an add/sub/mul whose result only one other add/sub/mul of its dtype reads
    /// with that reader: one loop computing both (ops/FusedArithmetic.h). Runs on the
    /// program before register allocation, where every slot is written once, so the
    /// inner op's sources are still intact where the reader is; an inner op that is an
    /// output, or read twice, stays. A fused instruction is not paired again.
    void fuseArithmetic();

    /// Runs two independent calls of vectorised functions (exp, tanh, ...) of one dtype
    /// as one loop that calls both per vector (ops/VectorKernels.h). Runs after
    /// fuseArithmetic, before register allocation: a call pairs with the nearest
    /// earlier unpaired one whose position its argument is already computed at.
    void pairVectorCalls();

    /// Sets endsInProduct: one output, written by the last instruction, an unpaired float
    /// mul; and productCall when one factor is a call of its own just before it.
    void markFinalProduct();

    /// Linear-scan register allocation over the temporaries. A destination (both of a
    /// paired call) is allocated before the sources that die at its instruction are
    /// freed, so it never shares memory with them (the loops use restrict pointers).
    void allocateRegisters();

private:
    /// Removes the instructions marked, with their per-instruction records.
    void dropInstructions(const std::vector<bool>& removed);

    ScalarProgram& m_p;
    std::vector<int> m_numSrc;
    std::vector<std::optional<ScalarOpCode>> m_arith;  // per instruction, see emit
    std::vector<std::optional<vmath::Fn>> m_vectorCall;  // per instruction: a pairable call
    std::map<std::pair<int, DType>, int> m_conversions;
    std::unordered_map<int, NDArray> m_constValue;
};


} // namespace tl
