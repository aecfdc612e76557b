#pragma once
// What PyTensor's get_advsubtensor_axis finds in the indices of an AdvancedSubtensor or
// AdvancedIncSubtensor: x[:, ..., :, idx, :, ...] with full slices around one integer
// index, so the op is a take along that axis. Shared by local_replace_AdvancedSubtensor
// and local_AdvancedIncSubtensor_to_AdvancedIncSubtensor1.
#include "ir/Graph.h"

#include <optional>
#include <span>
#include <string>

namespace tl::rw {

/// PyTensor's is_full_slice: a slice constant slice(None) or MakeSlice(None, None, None).
bool isFullSlice(const Variable& v);

/// The axis of the one index among full slices, or nullopt with `why`. An integer
/// vector, or with `anyRank` an integer array of one axis or more (which a take
/// flattens and reshapes back, as PyTensor's transform_take).
std::optional<int> takeAxis(std::span<Variable* const> indices, std::string* why, bool anyRank = false);

} // namespace tl::rw
