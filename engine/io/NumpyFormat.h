#pragma once
// Values written as NumPy 1.24 writes them (str of a scalar or an ndarray with the
// default print options), because PyTensor's debugprint shows constants through
// str(data): `10`, `-5.0`, `1e-05`, `[[0. 0.]]`, `[ True False]`. The dprint
// printer uses it, and the dprint importer reads the same vocabulary.
#include "core/NDArray.h"

#include <string>

namespace tl {

/// str() of a NumPy scalar of dtype `d` holding `v` (np.float64(-5.0) -> "-5.0",
/// np.float32(0.1) -> "0.1", np.int8(10) -> "10", np.bool_(True) -> "True").
std::string numpyScalarStr(double v, DType d);

/// str() of the array with NumPy's default print options (precision 8,
/// threshold 1000, edgeitems 3, linewidth 75); a 0-d array prints as its scalar.
std::string numpyArrayStr(const NDArray& a);

/// PyTensor's Constant.__str__: the array text without newlines, shortened to
/// "first 10 ... last 10" characters beyond 20, and "name{...}" when named.
std::string constantStr(const NDArray& a, const std::string& name = {});

} // namespace tl
