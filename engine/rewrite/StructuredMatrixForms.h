#pragma once
// How PyTensor's rewrites of structured matrices (rewrite_det_blockdiag,
// rewrite_diag_blockdiag, rewrite_det_kronecker, rewrite_diag_kronecker,
// local_lift_through_linalg) recognise a matrix assembled from smaller ones:
// pt.linalg.block_diag (a Blockwise{BlockDiagonal}) and pt.linalg.kron of two
// matrices (a KroneckerProduct, an OpFromGraph in PyTensor that stays one op until
// the graph is compiled).
#include "ir/Rewriter.h"

#include <vector>

namespace tl::rw {

/// The Blockwise{BlockDiagonal} computing `m`, else null. With `unbatched`, only one
/// whose output and inputs are plain matrices (no batch axes).
const Node* blockDiagonalOf(const Variable& m, bool unbatched);
/// The KroneckerProduct computing `m` from two matrices, else null (kron of arrays of
/// more axes multiplies every axis, not a batch of matrices).
const Node* kroneckerOfMatrices(const Variable& m);
/// False only when the last two axes of `t` have static lengths that differ: a matrix
/// that cannot be square.
bool maybeSquare(const Type& t);
/// True when the last two axes of `t` have the same static length.
bool isStaticallySquare(const Type& t);
/// True when every input of `node` may be square (maybeSquare).
bool inputsMaybeSquare(const Node& node);
/// prod(MakeVector(scalars)): the product of 0-d values of `dtype`, as PyTensor's
/// prod() of a list of them builds it.
Variable* productOfScalars(Rewriter& rw, std::vector<Variable*> scalars, DType dtype);

} // namespace tl::rw
