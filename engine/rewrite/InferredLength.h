#pragma once
// The length a tensor's dim has in every run, where the graph fixes it though the
// static type does not: what PyTensor's ShapeFeature and constant folding make of
// Shape_i(x) before a rewrite asks for it. A loop's trace has the rows of its buffer
// (`Scan` outputs are typed (?, ...), their buffers (21, ...)); a slice of a known
// length has the length Python's slicing gives; an elementwise result the length of
// an operand that does not broadcast. local_subtensor_merge merges the slices of
// gradient loops' traces through it, as PyTensor's symbolic merge does once folded.
#include "ir/Graph.h"

#include <optional>

namespace tl::rw {

/// The length of dim `axis` of the tensor `v` when it is a constant in every run the
/// graph accepts: its static length, or one read through the producers above (a few
/// levels deep); nullopt otherwise.
std::optional<int64_t> inferredLength(const Variable& v, int axis);

} // namespace tl::rw
