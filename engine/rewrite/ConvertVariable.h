#pragma once
// PyTensor's FunctionGraph.replace never lets a variable lose static shape: when the
// replacement knows less of the shape than the variable it replaces, it is wrapped in
// SpecifyShape first (TensorType.convert_variable), so every reader keeps the type it
// was built for. The pipeline's Rewriter converts every replacement this way, so a
// rewrite that hands back a less specific variable (an input for the Reshape it went
// through) leaves the graph PyTensor's does: `SpecifyShape(x, 8)` where a Reshape made
// x's length static.
#include "ir/Rewriter.h"

namespace tl::rw {

/// Whether a variable of type `have` can stand where `want` is expected once
/// converted: the same kind, dtype and rank, and no dim that both know differently.
bool convertibleTo(const Type& want, const Type& have);

/// `v`, with a type at least as specific as `want`: v itself when its type already is,
/// else SpecifyShape(v, want's dims) with NoneConst where `want` does not know a dim.
/// The dims are 0-d constants of the smallest int dtype, as PyTensor's specify_shape
/// makes them of Python ints. `v`'s type must be convertibleTo `want`.
Variable* convertVariable(Rewriter& rw, Variable* v, const Type& want);

/// From now on `rw.replace(old, now)` converts `now` to old's type (convertVariable).
void convertLessSpecificReplacements(Rewriter& rw);

} // namespace tl::rw
