#pragma once
// A Scan trace buffer as the step loop sees it (exec/ScanLoop.cpp): everything a
// step needs to find and write a row is computed once when the buffer is bound.
#include "core/NDArray.h"

#include <cstdint>

namespace tl {

/// The view of row `r` of `a` (rows along axis 0).
NDArray rowView(const NDArray& a, int64_t r);

/// A trace buffer (traced state or nit_sot).
struct ScanBuffer {
    NDArray* array = nullptr;  // the op's output cell holding the buffer
    int64_t store = 0;         // rows
    int64_t pos = 0;           // the row the next new value goes to
    int64_t initRows = 0;      // -mintap
    int64_t base = 0, stride0 = 0;  // element offset of row 0, elements between rows
    char* bytes = nullptr;     // storage start
    size_t elemSize = 0;
    Shape rowShape;
    bool rowContiguous = false;
    size_t rowBytes = 0;
    NDArray writer;            // a row view moved to the row being written (general path)
    int innerOut = -1;         // inner output index of its (first) new value
    // Preallocation: the inner output cell lent this buffer's row `pos`.
    NDArray* cell = nullptr;
    Storage* lentRaw = nullptr;
    bool lend = false;
    int lendFailures = 0;

    void bind(NDArray& a);
    char* row(int64_t r) const { return bytes + (base + r * stride0) * static_cast<int64_t>(elemSize); }
    /// Copies `v` into row r: a memcpy when both are contiguous and of one dtype.
    /// `step` and `output` only name the place in an error.
    void write(int64_t r, const NDArray& v, int64_t step, int output);
    /// Rotates rows so that row `pos` comes first (the oldest value of a wrapped buffer).
    void rotateToOldestFirst();
    /// Zeroes rows [from, store).
    void zeroRowsFrom(int64_t from);
};

} // namespace tl
