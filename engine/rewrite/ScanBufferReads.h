#pragma once
// Which rows of a Scan output the outer graph reads (scan_save_mem). A read is a
// Subtensor whose first entry (axis 0) is a constant index or slice, possibly at
// the end of a chain of row slices (scan() returns out[init_l:], the user then
// takes [-1]). Anything else needs every row.
#include "ir/Rewriter.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tl {

/// One read: rows first, first + step, ..., `count` of them, of the raw output.
struct BufferRead {
    Node* terminal = nullptr;  // the Subtensor whose result is used
    bool isIndex = false;      // its axis-0 entry is an integer index (drops the axis)
    bool fromEnd = false;      // rows counted from the end (first = -j): while loops
    int64_t first = 0, count = 0, step = 1;
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

/// Builds `read` on `newOut`, whose row r' holds the old row r' + shift, with the
/// terminal's other index entries; returns the variable replacing terminal's output.
/// Reads counted from the end keep their negative form.
Variable* rewriteRead(Rewriter& rewriter, const BufferRead& read, Variable* newOut, int64_t shift);

} // namespace tl
