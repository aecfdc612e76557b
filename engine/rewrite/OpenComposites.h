#pragma once
// A Scan step as its elementwise computation: PyTensor's compiled steps come fused
// (Composite{...} nodes, several outputs each), and a value two Composites compute
// (`exp(x)` in `Composite{(-5.0 + exp(i0))}` and in `Composite{...}` of the Rop) is
// then two different ops to value numbering. Opening the Composites back into the
// Elemwise nodes of their scalar bodies makes equal values equal again; elemwise
// fusion fuses them once more after the rewrite that needed them.
#include "ir/Graph.h"

#include <memory>

namespace tl {

/// A copy of `step` in which every Elemwise{Composite} without an inplace pattern is
/// replaced by one Elemwise node per node of its scalar body (a body constant becomes
/// a tensor constant of the node's rank with every dim 1, so it broadcasts as the
/// scalar did). Inputs, outputs, constants and the other nodes keep their ids and
/// positions; the opened nodes take fresh ids. A Composite whose body is not plain
/// scalar ops, or whose opened form would not have the Composite's output types,
/// stays as it is. Null when nothing was opened.
std::unique_ptr<Graph> openComposites(const Graph& step);

/// Whether `step` has an Elemwise{Composite} node openComposites would open.
bool hasOpenableComposite(const Graph& step);

} // namespace tl
