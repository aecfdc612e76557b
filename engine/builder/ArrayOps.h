#pragma once
// pytensor.tensor's array constructors and the other array ops of real models, as
// PyTensor builds them: pt.arange, pt.eye, pt.tri, pt.diagonal / pt.diag, pt.split,
// pt.repeat, pt.sort / pt.argsort, pt.searchsorted, pt.fill_diagonal, pt.nonzero,
// pt.unique, pt.choose, pt.permute_row_elements, pt.bartlett, convolve1d, pt.pad,
// pt.ravel_multi_index, pt.unravel_index.
#include "builder/GraphBuilder.h"
#include "builder/Indexing.h"

#include <optional>
#include <string>
#include <vector>

namespace tl {

/// pt.arange(start, stop, step, dtype): without dtype, the upcast of the three inputs'
/// dtypes with any integer widened to int64 (PyTensor's rule under cast_policy custom).
Var arange(Var start, Var stop, Var step, std::optional<DType> dtype = std::nullopt);
/// pt.arange with Python ints: constants of the smallest int dtype, as PyTensor's.
Var arange(GraphBuilder& b, int64_t stop);
Var arange(GraphBuilder& b, int64_t start, int64_t stop, int64_t step = 1);
/// pt.arange(stop) of a graph variable: arange(0, stop, 1).
Var arange(Var stop);

/// pt.eye(n, m, k, dtype): m defaults to n.
Var eye(GraphBuilder& b, IntArg n, std::optional<IntArg> m = std::nullopt, IntArg k = 0, DType dtype = DType::Float64);
/// pt.tri(N, M, k, dtype): ones at and below diagonal k.
Var tri(GraphBuilder& b, IntArg n, std::optional<IntArg> m = std::nullopt, IntArg k = 0, DType dtype = DType::Float64);

/// pt.diagonal(a, offset, axis1, axis2): ExtractDiag (negative axes count from the end).
Var diagonal(Var a, int64_t offset = 0, int axis1 = 0, int axis2 = 1);
/// pt.alloc_diag(v, offset, axis1, axis2): AllocDiag.
Var allocDiag(Var v, int64_t offset = 0, int axis1 = 0, int axis2 = 1);
/// pt.diag(v, k): AllocDiag of a vector, ExtractDiag of a matrix.
Var diag(Var v, int64_t k = 0);

/// pt.fill_diagonal(a, val) / pt.fill_diagonal_offset(a, val, offset); val is cast to
/// a's dtype as PyTensor's make_node does (and refused when a would need an upcast).
Var fillDiagonal(Var a, Var val);
Var fillDiagonalOffset(Var a, Var val, IntArg offset);

/// pt.split(x, splits, n_splits, axis): the parts (views of x). Constant sizes make an
/// int64 vector constant, as as_tensor_variable of a list of ints.
std::vector<Var> split(Var x, const std::vector<int64_t>& sizes, IntArg axis = 0);
std::vector<Var> split(Var x, Var sizes, int numSplits, IntArg axis = 0);

/// pt.repeat(x, repeats, axis): Repeat for a non-broadcastable vector of counts; one
/// count (0-d, or a vector of static length 1) becomes Alloc of x with a new axis,
/// then Reshape, as PyTensor builds it. axis None repeats the flattened x.
Var repeat(Var x, Var repeats, std::optional<int> axis = std::nullopt);
Var repeat(Var x, int64_t repeats, std::optional<int> axis = std::nullopt);

/// pt.sort / pt.argsort(x, axis, kind): axis None flattens x and sorts axis 0.
Var sort(Var x, std::optional<int> axis = -1, const std::string& kind = "quicksort");
Var argsort(Var x, std::optional<int> axis = -1, const std::string& kind = "quicksort");
/// pt.searchsorted(x, v, side, sorter).
Var searchsorted(Var x, Var v, const std::string& side = "left", std::optional<Var> sorter = std::nullopt);

/// pt.nonzero(a): one index vector per dimension. pt.flatnonzero(a): of a flattened.
std::vector<Var> nonzero(Var a);
Var flatnonzero(Var a);
/// pt.unique(x, return_index, return_inverse, return_counts, axis): the unique values,
/// then the outputs asked for, in that order.
std::vector<Var> unique(Var x, bool returnIndex = false, bool returnInverse = false, bool returnCounts = false,
                        std::optional<int> axis = std::nullopt);
/// pt.choose(a, choices, mode) with choices a tensor (its first axis lists the choices).
Var choose(Var a, Var choices, const std::string& mode = "raise");
/// pt.permute_row_elements(x, y, inverse): the one of lower rank padded on the left
/// with broadcastable dims (DimShuffle), as PyTensor's make_node.
Var permuteRowElements(Var x, Var y, bool inverse = false);
/// pt.bartlett(M).
Var bartlett(GraphBuilder& b, IntArg m);
/// convolve1d(in1, in2, mode) of two vectors ("full" or "valid"): the core Convolve1d
/// PyTensor's compile leaves once its Blockwise wrapper has only vectors.
Var convolve1d(Var in1, Var in2, const std::string& mode = "full");
/// pt.pad(x, pad_width, mode, ...): pad_width an int or a list of (before, after)
/// pairs as NumPy accepts; `values` is constant_values, end_values or stat_length.
Var pad(Var x, Var padWidth, const std::string& mode = "constant", std::optional<Var> values = std::nullopt);
Var pad(Var x, const std::vector<int64_t>& padWidth, const std::string& mode = "constant",
        std::optional<Var> values = std::nullopt);

/// pt.ravel_multi_index(multi_index, dims, mode, order): the flat indices of the
/// coordinate arrays; `modes` one mode or one per index. Integer dims become an int64
/// vector constant, as as_tensor_variable((5, 6)).
Var ravelMultiIndex(const std::vector<Var>& multiIndex, Var dims, const std::vector<std::string>& modes = {"raise"},
                    const std::string& order = "C");
Var ravelMultiIndex(const std::vector<Var>& multiIndex, const std::vector<int64_t>& dims,
                    const std::vector<std::string>& modes = {"raise"}, const std::string& order = "C");
/// pt.unravel_index(indices, dims, order): one coordinate array per entry of dims
/// (whose length must be static).
std::vector<Var> unravelIndex(Var indices, Var dims, const std::string& order = "C");
std::vector<Var> unravelIndex(Var indices, const std::vector<int64_t>& dims, const std::string& order = "C");

} // namespace tl
