#pragma once
// Pieces the three report formats share (compare/Report*.cpp): the loops and
// states as rows of cells, the whole-graph rows, byte and time texts.
#include "compare/Comparison.h"

#include <string>
#include <vector>

namespace tl::report {

/// The columns of a comparison: PyTensor, tensorlens (on the original, with a trace),
/// tensorlens on PyTensor's graph.
struct Columns {
    std::vector<std::string> titles;
    std::vector<const GraphSummary*> graphs;
};
Columns columns(const Comparison& c);

/// The loop of column `col` in `row`, or null.
const LoopSummary* loopOf(const Comparison& c, const LoopRow& row, size_t col);

/// "rop_of_scan_fn&scan_fn" for the row (the first side that has the loop).
std::string loopName(const Comparison& c, const LoopRow& row);

/// A table: a header row and body rows of cells.
struct Table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};

/// Per loop: states, buffers, scalar ops and exps per step, one column per side.
Table loopTable(const Comparison& c, const LoopRow& row);
/// The states of the loop on each side, one line per state.
Table stateTable(const Comparison& c, const LoopRow& row);
/// Nodes, loops, DeepCopyOps, buffer bytes, and the runs (peak bytes, time).
Table wholeGraphTable(const Comparison& c);

/// "sit_sot-0 (2, 7) 112 B, inplace"
std::string stateText(const StateSummary& s);
/// "0.12 ms"
std::string secondsText(double s);
/// "3.33e-16", "0" (three significant digits)
std::string numberText(double v);

} // namespace tl::report
