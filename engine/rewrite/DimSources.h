#pragma once
// Which lengths fix a tensor's dims at run time, read through the ops that only
// broadcast their inputs: the analysis behind the fill and alloc rewrites, which
// PyTensor bases on broadcastable patterns alone (shape_unsafe). tensorlens broadcasts
// a dim of run-time length 1 that was not statically 1, so a pattern does not prove a
// length; these sources do.
//
// The length of dim d of an Elemwise output is the broadcast of its inputs' lengths at
// d; of a DimShuffle, the input axis it moves there; of an Alloc, its dim input (a
// constant, or Shape_i{k}(z), whose sources are z's at k). Anything else is a source of
// its own. So two dims with the same set of sources have the same length, and a dim
// whose sources all appear among another's broadcasts into it (is 1 or equal).
#include "ir/Graph.h"

#include <optional>
#include <span>
#include <vector>

namespace tl::rw {

/// One source of a dim's length: axis `axis` of `var`, the value of the 0-d integer
/// `var` (axis -1), or, with var null, the static length `axis`.
struct DimSource {
    const Variable* var = nullptr;
    int64_t axis = 0;
    auto operator<=>(const DimSource&) const = default;
};

/// The sources of dim `axis` of each of `vars` together (their broadcast), sorted and
/// unique; statically-1 dims add none, and a static length other than 1 stands for the
/// whole set (any other source must then be 1 or that length). nullopt when the walk
/// would read more than a few thousand nodes (then nothing is proved).
std::optional<std::vector<DimSource>> dimSources(std::span<const Variable* const> vars, int axis);

/// True when, for every dim, `part`'s length provably broadcasts into `whole`'s: the
/// broadcast of `whole` with `part` has `whole`'s shape. Same rank required.
bool broadcastsInto(const Variable& part, const Variable& whole);
/// The same with `whole` the broadcast of several tensors (an Elemwise's other inputs).
bool broadcastsInto(const Variable& part, std::span<const Variable* const> whole);

} // namespace tl::rw
