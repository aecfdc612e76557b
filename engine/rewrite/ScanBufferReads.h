#pragma once
// Which rows of a Scan output the outer graph reads (scan_save_mem). A read is a
// Subtensor whose first entry (axis 0) is a constant index or slice, possibly at
// the end of a chain of row slices (scan() returns out[init_l:], the user then
// takes [-1]). Anything else needs every row.
#include "ir/Rewriter.h"
#include "ops/Subtensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tl {

/// One read: rows first, first + step, ..., `count` of them, of the raw output.
struct BufferRead {
    Node* terminal = nullptr;  // the Subtensor whose result is used
    bool isIndex = false;      // its axis-0 entry is an integer index (drops the axis)
    bool fromEnd = false;      // rows counted from the end (first = -j): while loops
    int64_t first = 0, count = 0, step = 1;
    /// One past the last row the chain's stops allow, as written (the trace's length
    /// when no slice gives a stop; the row + 1 for an index): PyTensor cuts n_steps to
    /// this, not to the last row read (`[7:13:2]` of 13 rows keeps every step).
    int64_t bound = 0;
    /// One past the last row read (for loops).
    int64_t stop() const { return first + (count - 1) * step + 1; }
};

struct OutputReads {
    bool unused = false;  // no clients (but unused nodes)
    bool whole = false;   // some client needs every row; `why` says which
    std::string why;
    std::vector<BufferRead> reads;
};

/// The reads of `out`. `length` is its row count for a for loop; kUnknownDim for a
/// while loop (it may stop early), where only reads counted from the end with at most
/// `maxFromEnd` rows (guaranteed to exist after one step) are understood.
OutputReads analyseReads(const Variable& out, int64_t length, int64_t maxFromEnd);

/// One read of an output whose length L = n_steps + init_l is only known at run time.
/// The chain first skips `skip` rows ([a:] links with constant a >= 0); the terminal
/// then reads either from the start (raw rows first, first + step, ... below `stop`,
/// clamped to L) or from the end (index -j, or the slice [-j:-e:step] of what is left,
/// e = 0 for no stop).
struct SymbolicRead {
    Node* terminal = nullptr;
    bool isIndex = false;
    int64_t skip = 0;
    bool fromEnd = false;
    int64_t j = 0;                      // fromEnd
    int64_t e = 0;                      // fromEnd slice: its stop counted from the end (0: none)
    int64_t first = 0;                  // !fromEnd: raw row
    std::optional<int64_t> stop;        // !fromEnd: one past the last raw row; nullopt: to the end
    int64_t step = 1;
};

struct SymbolicOutputReads {
    bool unused = false;
    bool whole = false;  // some client needs every row, or reads rows not known as constants
    std::string why;
    std::vector<SymbolicRead> reads;
};

/// The reads of `out` when its length is symbolic.
SymbolicOutputReads analyseReadsSymbolic(const Variable& out);

/// Builds `read` on `newOut`, whose row r' holds the old row r' + shift, with the
/// terminal's other index entries; returns the variable replacing terminal's output.
/// Reads counted from the end keep their negative form.
Variable* rewriteRead(Rewriter& rewriter, const BufferRead& read, Variable* newOut, int64_t shift);

/// `terminal`'s Subtensor applied to `newOut` with its first entry replaced by `first`
/// (whose index inputs are `firstInputs`) and its other entries and inputs unchanged.
Variable* subtensorLike(Rewriter& rewriter, const Node& terminal, Variable* newOut, IndexEntry first,
                        std::vector<Variable*> firstInputs);

} // namespace tl
