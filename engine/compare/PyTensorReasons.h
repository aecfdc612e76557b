#pragma once
// Why PyTensor 2.34's FAST_RUN did not make a change tensorlens makes, where its
// source says so (docs/missed.md#why-pytensor-did-not). Each reason names the file
// and function of PyTensor it comes from, so a PyTensor developer can check it.
#include "rewrite/RewriteBase.h"
#include "trace/Trace.h"

#include <string>

namespace tl {

/// The reason for `fact` of `step` (a step tensorlens made on PyTensor's compiled
/// graph; `fact` is empty for a step without one), or "" when none is known.
std::string pytensorReason(const TraceStep& step, const AttributeChange& fact, RewriteOptions::BufferMode mode);

} // namespace tl
