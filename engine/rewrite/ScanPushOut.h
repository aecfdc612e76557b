#pragma once
// What scan_push_out_seq and scan_push_out_non_seq share: which step values can be
// computed outside the loop, computing them there, and rebuilding the loop so the
// step reads them as new sequences / non_sequences.
#include "ir/Rewriter.h"
#include "ops/ScanOp.h"

#include <functional>
#include <unordered_map>
#include <vector>

namespace tl {

/// How a step variable depends on the loop.
enum class StepDependence : uint8_t {
    Invariant,  ///< only non_sequences and constants: the same value at every step
    PerRow,     ///< elementwise in a sequence row (and invariants): one row of a whole-sequence value
    Loop,       ///< depends on a state, or on anything that cannot leave the loop
};

/// Classifies every variable of the loop body of `scan` (inner inputs included).
/// `allowPerRow`: Elemwise/DimShuffle nodes over sequence rows count as PerRow.
std::unordered_map<const Variable*, StepDependence> classifyStep(const ScanOp& scan, bool allowPerRow);

/// Computes step variables outside the loop, in the outer graph of `scanNode`.
/// Invariant step values are computed at their own rank from the outer non_sequences;
/// PerRow values at rank + 1 over the outer sequences (rows first).
class OuterCopier {
public:
    OuterCopier(Rewriter& rw, const Node& scanNode, const std::unordered_map<const Variable*, StepDependence>& classes);
    /// The outer value of step variable `v` (Invariant or PerRow), created on first use.
    Variable* outer(const Variable* v);
    /// Where the rows of sequence i come from, asked once, when some value needs
    /// them (default: the loop's outer input, which may be longer than the loop runs).
    void setSequenceRows(std::function<Variable*(int i)> rows) { m_sequenceRows = std::move(rows); }

private:
    Variable* liftedToRows(const Variable* v);  // an Invariant value with a new leading axis of 1
    Rewriter& m_rw;
    const Node& m_scan;
    const ScanOp& m_op;
    const std::unordered_map<const Variable*, StepDependence>& m_classes;
    std::unordered_map<const Variable*, Variable*> m_outer;
    std::function<Variable*(int)> m_sequenceRows;
};

/// Rebuilds the loop with `newSeqs` (step variables read instead as rows of the paired
/// outer values) and `newNonSeqs` (step variables read as the paired outer values).
/// Every outer output of the old loop is replaced by the new loop's; returns the new node.
Node* rebuildWithNewInputs(Rewriter& rw, Node& scanNode,
                           const std::vector<std::pair<const Variable*, Variable*>>& newSeqs,
                           const std::vector<std::pair<const Variable*, Variable*>>& newNonSeqs);

} // namespace tl
