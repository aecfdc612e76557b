#pragma once
// A Scan step that is one elementwise call over the step's rows. Elementwise fusion
// leaves exactly this of an elementwise recurrence (the seed's x' = exp(x) - 5 with
// its Rop becomes one two-output Composite), and there the executor's per-step work
// (node dispatch, Elemwise's shape and dtype checks, lending the new rows, checking
// that the kernel wrote into them) costs more than the arithmetic on a few elements.
// None of what those checks look at changes between steps: the rows only move. So
// once a step has run the general way, the loop checks the layouts once and calls
// the compiled scalar program straight on the row pointers.
#include "core/NDArray.h"

#include <memory>
#include <span>
#include <vector>

namespace tl {

class CompiledGraph;
class ScalarProgram;

class ScanElemwiseStep {
public:
    /// The direct step for a step function `fn`, or null when a step is not one such
    /// call. It is one when `fn` runs a single node, an Elemwise without an inplace
    /// pattern, whose inputs are graph inputs (their slots as bound now) or constants,
    /// all C-contiguous of one shape and of its program's input dtypes, and whose
    /// outputs are the graph outputs, each once. targets[j] is the trace buffer graph
    /// output j is written to (null: it may not be written in place): C-contiguous,
    /// rows of that shape, of the program's output dtype. rowsOf[i] is the buffer graph
    /// input i reads rows of (null: none); an input sharing a target's memory must read
    /// rows of that very target, so a step's input and output rows either coincide or
    /// are disjoint.
    static std::unique_ptr<ScanElemwiseStep> plan(CompiledGraph& fn, std::span<const NDArray* const> targets,
                                                  std::span<const NDArray* const> rowsOf);

    /// One step: graph output j is written to rows[j]; inputs are read where their slots
    /// point now. An output row that is an input row is stored after it was read.
    void run(void* const* rows) const;

private:
    struct Input {
        const NDArray* array;  // the slot (its offset moves between steps) or the constant
        const std::byte* data;  // its storage's first byte
        int64_t elemSize;
    };
    const ScalarProgram* m_program = nullptr;
    std::vector<Input> m_inputs;
    std::vector<int> m_outputOf;  // node output k: graph output j
    int64_t m_elements = 0;
};

} // namespace tl
