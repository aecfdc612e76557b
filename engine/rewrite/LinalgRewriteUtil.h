#pragma once
// Building blocks of the linear-algebra rewrites (pytensor/tensor/rewriting/linalg.py
// and pytensor/tensor/_linalg/solve/rewriting.py): recognising transposes, applying
// Blockwise ops as their make_node does, and what splits a linear solve into a
// factorization and solves with the factor: the factorization PyTensor's decompose_A
// makes of A, and the solve with it that solve_decomposed_system makes, both
// vectorised as pt.vectorize builds them
// (lu_solve is a function of core arrays that PyTensor vectorises node by node:
// Blockwise ops take the batched inputs, a DimShuffle keeps the batch axes in
// front, and an op without a rule of its own is wrapped in a Blockwise, even when
// nothing is batched: the late local_useless_unbatched_blockwise unwraps those).
#include "ir/Rewriter.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace tl::rw {

/// A DimShuffle swapping the last two axes of its input and nothing else
/// (PyTensor's is_matrix_transpose).
bool isMatrixTranspose(const Variable& v);
/// An Eye whose diagonal offset k is the constant 0 (PyTensor's test for an identity
/// matrix in rewrite_inv_eye_to_eye and rewrite_remove_useless_cholesky).
bool isEyeOnDiagonal(const Variable& v);
/// The core op of Blockwise node `node` when it is one of `kinds`; null when it is
/// not, when `node` is not a Blockwise, or when it is null.
const Op* blockwiseCoreOf(const Node* node, std::initializer_list<OpKind> kinds);
/// The same for the Blockwise computing `v`.
inline const Op* blockwiseCoreOf(const Variable& v, std::initializer_list<OpKind> kinds) {
    return blockwiseCoreOf(v.owner(), kinds);
}
/// A type whose last two axes have static length 1: a matrix that is one number.
bool isStaticallyOneByOne(const Type& t);
/// A DimShuffle that only adds axes on the left (DimShuffle.is_left_expand_dims).
bool isLeftExpandDims(const Node& node);

/// The outputs of Blockwise `op` applied to `inputs`, each padded on the left to the
/// batch dims of the others first (Blockwise.make_node).
std::vector<Variable*> applyBlockwise(Rewriter& rw, OpPtr blockwiseOp, std::vector<Variable*> inputs);
/// Blockwise(core) with the core op's gufunc signature applied to `inputs`, as
/// pytensor.tensor.slinalg's functions wrap their ops; its first output.
Variable* applyLinalgBlockwise(Rewriter& rw, OpPtr core, std::vector<Variable*> inputs);
/// `v` with its last two axes swapped (pt's .mT).
Variable* matrixTranspose(Rewriter& rw, Variable* v);

/// What a solve of a Blockwise{Solve} is split into: PyTensor's assume_a of it
/// ("gen": LUFactor, "pos": Cholesky), the factor's outputs, and how they were made.
struct SolveFactor {
    std::string assumeA;
    std::vector<Variable*> outputs;  // (LU, pivots) or (the Cholesky factor)
    bool lower = false;              // the Cholesky factor's triangle
};
/// Whether decompose_A can factor a matrix assumed `assumeA` here.
bool decomposable(const std::string& assumeA);
/// decompose_A(A, assume_a, check_finite, lower): lu_factor or cholesky of A.
SolveFactor decomposeA(Rewriter& rw, Variable* a, const std::string& assumeA, bool checkFinite, bool lower);
/// solve_decomposed_system: x with A x = b (A^T x = b when `transposed`) from A's
/// factor, b having `bNdim` core dims, through lu_solve or cho_solve.
Variable* solveDecomposed(Rewriter& rw, const SolveFactor& factor, Variable* b, bool transposed, int bNdim,
                          bool checkFinite);

} // namespace tl::rw
