#pragma once
// Basic indexing x[i, a:b:c, ...] as PyTensor's Subtensor: the index description
// (idx_list) is part of the op, the index values are graph inputs. The result is a
// view of x. Printed "Subtensor{i}", "Subtensor{start:}", "Subtensor{:stop}",
// "Subtensor{i, start:stop:step}", ... exactly as PyTensor.
#include "ir/Op.h"

#include <optional>
#include <vector>

namespace tl {

/// One entry of PyTensor's idx_list: an integer index (drops the axis) or a slice
/// whose present components are graph inputs.
struct IndexEntry {
    enum class Kind { Index, Slice } kind;
    bool hasStart = false, hasStop = false, hasStep = false;
};

/// Python's slice(start, stop, step).indices(n): the first index, the step and the
/// number of elements (start and stop clamped as Python clamps them; step must not be 0).
struct ResolvedSlice {
    int64_t start, step, length;
};
ResolvedSlice resolveSlice(std::optional<int64_t> start, std::optional<int64_t> stop, std::optional<int64_t> step, int64_t n);

/// Number of graph inputs the entries consume (one per Index, one per present slice part).
int numIndexInputs(const std::vector<IndexEntry>& entries);
/// PyTensor's Subtensor.str_from_indices: "i, start:stop:step, j".
std::string indicesString(const std::vector<IndexEntry>& entries);
/// JSON form of an idx_list: ["index", ":stop", "start::step", ":"].
nlohmann::json indexEntriesToJson(const std::vector<IndexEntry>& entries);
/// Parses indexEntriesToJson's form; std::invalid_argument naming `opName` and the entry.
std::vector<IndexEntry> indexEntriesFromJson(const nlohmann::json& j, const std::string& opName);

/// Static type of x[entries]: checks the index input types (`indexTypes`, one per index
/// input) and computes static lengths where dims and slice parts are constants
/// (`indexConstants`: values or null, may be empty). Throws OpTypeError.
Type subtensorType(const Type& x, const std::vector<IndexEntry>& entries, std::span<const Type* const> indexTypes,
                   std::span<const NDArray* const> indexConstants, const std::string& opName);
/// The view x[entries] for these index values (NumPy semantics: negative indices count
/// from the end, slices clamp, steps may be negative). Throws ExecError naming the
/// index and dim for an out-of-range integer index or a zero step.
NDArray subtensorView(const NDArray& x, const std::vector<IndexEntry>& entries, std::span<const NDArray> indexValues,
                      const std::string& opName);

class SubtensorOp final : public Op {
public:
    explicit SubtensorOp(std::vector<IndexEntry> entries);
    const std::vector<IndexEntry>& entries() const { return m_entries; }

    std::string name() const override { return "Subtensor{" + indicesString(m_entries) + "}"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    std::vector<Type> inferTypesWithConstants(std::span<const Type* const> inputs,
                                              std::span<const NDArray* const> constants) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap viewMap() const override { return {{0, {0}}}; }
    nlohmann::json params() const override;

private:
    std::vector<IndexEntry> m_entries;
};

/// Subtensor: inputs (x, one int scalar per Index entry and per present slice part, in order).
OpPtr makeSubtensor(std::vector<IndexEntry> entries);

} // namespace tl
