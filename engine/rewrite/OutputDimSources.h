#pragma once
// Which input dim fixes an output dim of a node: the entries of PyTensor's infer_shape
// that are one of the inputs' dims, for the ops whose outputs take their lengths from
// their inputs (matrix products, factorizations, solves, anything a Blockwise applies
// by its gufunc signature, a Scan's traces, which are their buffers). local_track_shape_i reads a Shape_i through them, so a dim
// the inputs know statically folds to a constant.
#include "ir/Graph.h"

#include <optional>

namespace tl::rw {

/// Dim `axis` of input `input` of the node.
struct InputDim {
    int input = 0;
    int axis = 0;
};

/// The input dim whose length dim `axis` of output `output` of `node` has in every run
/// the node accepts; nullopt when no single input dim fixes it (a sum or product of
/// dims, a broadcast of several, a length the values decide).
std::optional<InputDim> outputDimSource(const Node& node, int output, int axis);

/// The 0-d integer input whose value is dim `axis` of output `output` of `node` (a
/// Scan nit_sot's rows), or null.
const Variable* outputDimValue(const Node& node, int output, int axis);

} // namespace tl::rw
