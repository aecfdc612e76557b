#pragma once
// How PyTensor's diagonal-matrix rewrites (rewrite_det_diag_to_prod_diag,
// rewrite_inv_diag_to_diag_reciprocal, rewrite_cholesky_diag_to_sqrt_diag) recognise a
// matrix that is diagonal by construction: pt.diag of a vector, or an elementwise
// product with an identity matrix (x * pt.eye(n), PyTensor's _find_diag_from_eye_mul).
#include "ir/Rewriter.h"

#include <optional>

namespace tl::rw {

/// The vector v of AllocDiag{offset=0}(v) when `m` is one whose diagonal axes are
/// its last two (pt.diag(v) of a vector), else null.
Variable* diagonalOfAllocDiag(const Variable& m);
/// The same, only for a vector v (pt.diag of a vector; the inverse's and the Cholesky
/// factor's rewrites rebuild diag(f(v)) with the same op).
Variable* vectorOfAllocDiag(const Variable& m);

/// `m` = Elemwise{mul}(identity, x) with exactly one factor besides the identity.
struct EyeProduct {
    Variable* eye;  // the identity factor, as the product reads it
    Variable* x;    // the other factor, of the product's rank (its broadcast axes set)
};
/// The identity is an Eye whose offset k is the constant 0 and whose matrix axes are
/// not statically 1, directly or under an ExpandDims on the left, or a
/// constant identity matrix (what such an Eye of constant size becomes once constant
/// folding reaches it: tensorlens's drivers visit producers before their readers,
/// PyTensor's the readers first, so its rewrites still see the Eye). Unlike PyTensor's
/// test, a factor read twice (x * x * eye) counts twice: that product is not diagonal
/// in x.
std::optional<EyeProduct> eyeProductOf(const Variable& m);

/// How the factor of an EyeProduct fills the diagonal, by its matrix axes' static
/// lengths: one value for all (both 1), a row or a column of values (one of them 1), or
/// a matrix whose diagonal it is (neither).
enum class DiagonalFactor { Scalar, Vector, Matrix };
DiagonalFactor diagonalFactorKind(const Type& x);

/// The diagonal of the last two axes of `x` (x.diagonal(axis1=-2, axis2=-1)).
Variable* matrixDiagonal(Rewriter& rw, Variable* x);
/// `x` with a new axis of length 1 before its last (pt.shape_padaxis(x, -2)).
Variable* padBeforeLast(Rewriter& rw, Variable* x);

} // namespace tl::rw
