#pragma once
// Rebuilding a Scan node with fewer states, inner inputs read through others and
// new outer inputs: what scan_merge_states (drop a duplicate, its readers read
// the survivor) and scan_save_mem (smaller buffers, fewer steps, unused states
// removed) both do. The caller rewires the outer clients.
#include "ir/Rewriter.h"
#include "ops/ScanOp.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tl {

struct ScanRebuildPlan {
    /// Per traced state (mit_mot, mit_sot, sit_sot): kept? Empty: all kept.
    std::vector<bool> keepState;
    /// Per nit_sot: kept? Empty: all kept.
    std::vector<bool> keepNitSot;
    /// Inner input index -> the inner input index read instead (which must be kept).
    std::unordered_map<int, int> innerInputAlias;
    /// Inner output index -> the inner output index whose value it takes (a dropped
    /// nit_sot whose duplicate stays: only meaningful for outputs that are kept).
    std::unordered_map<int, int> innerOutputAlias;
    /// Outer input index (old numbering) -> replacement (n_steps, a buffer, nit_sot rows).
    std::unordered_map<int, Variable*> outerInput;
    /// Per traced state (old numbering): the new op's reuseProvenSafe. Absent: carried over.
    std::optional<std::vector<bool>> reuseProvenSafe;
    /// Merge equal computations while copying the step (after states were identified).
    bool dedupInner = false;
    /// The step to copy instead of the loop's own: the same inputs and outputs computed
    /// otherwise (its Composites opened, rewrite/OpenComposites.h). Null: the loop's step.
    std::shared_ptr<const Graph> step;
};

struct ScanRebuildResult {
    Node* node = nullptr;
    /// Old outer output index -> new outer output index, -1 for a removed one.
    std::vector<int> outputMap;
    /// Old traced state -> new traced state, -1 for a removed one.
    std::vector<int> stateMap;
};

/// Creates the new Scan node (recorded as a clone of `scan`). Throws std::logic_error
/// when a kept inner output still reads an inner input of a removed state that has no
/// alias (a caller's bug).
ScanRebuildResult rebuildScan(Rewriter& rewriter, const Node& scan, const ScanRebuildPlan& plan);

/// Every used output k of `old` now reads output k of `fresh` (looked up by id:
/// replacing the last used output erases `old` with all its outputs).
void replaceOutputsWith(Rewriter& rw, const Node& old, Node& fresh);

/// The new inner graph alone (used by rebuildScan): `keepInput`/`keepOutput` per old
/// inner input/output, `inputAlias` as in the plan.
std::shared_ptr<const Graph> rebuildInnerGraph(const Graph& inner, const std::vector<bool>& keepInput,
                                               const std::vector<bool>& keepOutput,
                                               const std::unordered_map<int, int>& inputAlias,
                                               const std::unordered_map<int, int>& outputAlias, bool dedup);

/// The buffer construction scan() makes, and PyTensor's Rop makes for tangents:
/// SetSubtensor{:stop}(AllocEmpty(len, ...) | Alloc(value, len, ...), init, stop)
/// with a constant stop. Rows from `stop` on are written by the loop before they are read.
struct DefaultBuffer {
    Node* set = nullptr;     // the SetSubtensor
    Node* base = nullptr;    // the AllocEmpty or Alloc
    Variable* init = nullptr;
    int64_t stop = 0;
    int dimOffset = 0;       // index of the first dim among base's inputs (Alloc: 1)
    Variable* length() const { return base->input(dimOffset); }
};
/// `buffer` in that form, or nullopt.
std::optional<DefaultBuffer> defaultBuffer(Variable* buffer);

/// The value of a constant integer scalar (0-d tensor or ScalarType), or nullopt.
std::optional<int64_t> constantInt(const Variable* v);

/// "sit_sot-2", "mit_sot-0", "nit_sot-1": a state's name as dprint's op-info tags use it.
std::string scanStateName(const ScanInfo& info, int tracedState);
std::string scanNitSotName(int nitSot);

/// Static shape string of a variable's type: "(11, 7)", "(?, 7)".
std::string shapeText(const Variable& v);

} // namespace tl
