#pragma once
// A scalar graph (Composite) or a single scalar op compiled once into a flat
// program over typed register slots. Running it on a block applies each
// instruction's loop to up to kBlockSize elements, so evaluation costs one
// indirect call per scalar op and block, never per element. Temporaries get
// registers by liveness, so a 5000-op chain needs only a few buffers.
#include "core/DTypeSignatureCache.h"
#include "core/NDArray.h"
#include "ops/ConstantBlocks.h"
#include "ops/ScalarKernels.h"
#include "ops/VectorMath.h"

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace tl {

class Graph;
class ScalarProgram;

/// Scratch memory of one thread for running programs: temporary registers and
/// gather/scatter blocks. Not reentrant: a program runs to completion (ops never
/// call other ops from inside a kernel).
class ProgramWorkspace {
public:
    /// The calling thread's workspace.
    static ProgramWorkspace& local();

    /// Binds `program` (its constants and `extraBlocks` scratch blocks after its
    /// registers) and returns the slot table runBlock uses.
    void bind(const ScalarProgram& program, int extraBlocks);
    /// Scratch block k (kBlockSize elements of up to 8 bytes, 64-byte aligned).
    void* extraBlock(int k) const { return m_buffer + static_cast<size_t>(m_extraBase + k) * kBlockBytes; }

    static constexpr size_t kBlockBytes = sizeof(ConstantBlock::data);  // kBlockSize elements of up to 8 bytes

private:
    friend class ScalarProgram;
    std::vector<void*> m_slots;
    std::unique_ptr<std::byte[]> m_storage;
    std::byte* m_buffer = nullptr;  // 64-byte aligned inside m_storage
    size_t m_capacityBlocks = 0;
    int m_extraBase = 0;
    uint64_t m_boundId = 0;  // program bound last (0: none); rebinding it is free
};

class ScalarProgram {
public:
    ScalarProgram(const ScalarProgram&) = delete;
    ScalarProgram& operator=(const ScalarProgram&) = delete;
    enum class SlotKind : uint8_t { Input, Output, Constant, Temp };
    struct Slot {
        DType dtype = DType::Float64;
        SlotKind kind = SlotKind::Temp;
        int32_t index = 0;  // input / output number, constant block, or register
    };

    /// Compiles a scalar graph: Scalar-typed inputs, ScalarOp nodes, scalar constants.
    /// Throws std::invalid_argument naming the offending node.
    static std::shared_ptr<const ScalarProgram> compile(const Graph& scalarGraph);
    /// One scalar op applied to inputs of these dtypes (a plain Elemwise).
    /// Throws OpTypeError when the dtype rules reject them.
    static std::shared_ptr<const ScalarProgram> compileOp(ScalarOpCode code, DType castTo, std::span<const DType> inputs);

    int numInputs() const { return static_cast<int>(m_inputDTypes.size()); }
    int numOutputs() const { return static_cast<int>(m_outputDTypes.size()); }
    DType inputDType(int i) const { return m_inputDTypes[i]; }
    DType outputDType(int o) const { return m_outputDTypes[o]; }
    size_t numInstructions() const { return m_code.size(); }
    int numRegisters() const { return m_numRegisters; }

    /// Runs one block of n <= kBlockSize elements. inputs[i] holds n elements of
    /// inputDType(i); outputs[o] receives n elements of outputDType(o) and must not
    /// overlap any input. `ws` must be bound to this program.
    void runBlock(ProgramWorkspace& ws, const void* const* inputs, void* const* outputs, int64_t n) const;

    /// Whether the program has one output, written by a last instruction that is a
    /// float mul (a map whose products a sum folds, `sum(exp(x) * y)`).
    bool endsInProduct() const { return m_endsInProduct; }
    /// For such a program: runs every instruction but that mul and returns its two
    /// factors' blocks (n elements each), so a fold can multiply as it adds.
    std::array<const void*, 2> runBlockToProduct(ProgramWorkspace& ws, const void* const* inputs, int64_t n) const;
    /// For a program ending in a product whose one factor is a vectorised call of its
    /// own (not paired with another, read by nothing else) computed just before it,
    /// as in sum(exp(x) * y): the function.
    std::optional<vmath::Fn> productCall() const { return m_productCall; }
    /// For such a program: runs every instruction but the call and the product and
    /// returns the call's argument block and the other factor's (n elements each), so
    /// a fold can call, multiply and add in one loop (vmath::foldProductOfCall).
    std::array<const void*, 2> runBlockToProductCall(ProgramWorkspace& ws, const void* const* inputs, int64_t n) const;

    /// Convenience for whole arrays of equal shape, contiguous or not (tests,
    /// constant folding): returns one new array per output.
    std::vector<NDArray> evaluate(std::span<const NDArray> inputs) const;

private:
    friend class ProgramWorkspace;
    friend class ProgramBuilder;
    ScalarProgram();
    std::vector<DType> m_inputDTypes, m_outputDTypes;
    std::vector<Slot> m_slots;
    std::vector<int32_t> m_inputSlot, m_outputSlot;  // slot of input i / output o
    std::vector<BlockInstr> m_code;
    std::vector<std::shared_ptr<const ConstantBlock>> m_constants;  // shared with equal constants elsewhere
    int m_numRegisters = 0;
    bool m_endsInProduct = false;
    std::optional<vmath::Fn> m_productCall;
    int32_t m_productCallArgSlot = -1, m_productOtherSlot = -1;
    uint64_t m_id = 0;  // unique per compiled program (never reused, unlike addresses)
};

/// Programs of one scalar op per input dtype signature, compiled on first use
/// (a plain Elemwise accepts any dtypes its scalar op does). Lookups of the
/// most recent signature take no lock.
class OpProgramCache {
public:
    const ScalarProgram& get(ScalarOpCode code, DType castTo, std::span<const DType> inputs) const;

private:
    DTypeSignatureCache<ScalarProgram> m_programs;
};

/// Evaluates one scalar op on doubles (each input is first converted to its dtype):
/// constant folding and reference checks. Returns the output value as double.
double evalScalarOp(ScalarOpCode code, std::span<const double> inputs, std::span<const DType> inputDTypes,
                    DType castTo = DType::Float64);

} // namespace tl
