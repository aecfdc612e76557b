#include "builder/Linalg.h"

#include "builder/Indexing.h"
#include "builder/Math.h"
#include "ops/BlasOps.h"
#include "ops/Blockwise.h"
#include "ops/Dot.h"
#include "ops/Linalg.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace tl {

namespace {

// x.mT: the last two axes swapped.
Var mT(Var x) {
    std::vector<int> order(static_cast<size_t>(x.ndim()));
    std::iota(order.begin(), order.end(), 0);
    std::swap(order[order.size() - 1], order[order.size() - 2]);
    return transpose(x, order);
}

// PyTensor's default b_ndim: 1 for a vector b, else 2 (the core case is a matrix).
int defaultBNdim(const Var& b, int bNdim) { return bNdim != 0 ? bNdim : std::min(b.ndim(), 2); }

Var one(std::vector<Var> v) { return v.at(0); }

} // namespace

std::vector<Var> blockwise(OpPtr core, std::vector<Var> inputs, std::optional<std::string> name) {
    if (inputs.empty()) throw std::invalid_argument("blockwise needs inputs");
    GraphBuilder& b = inputs[0].builder();
    OpPtr op = makeBlockwise(core, gufuncSignature(*core), std::move(name));
    const auto& sig = static_cast<const BlockwiseOp&>(*op).signature();
    if (sig.inputs.size() != inputs.size())
        throw std::invalid_argument(op->name() + " takes " + std::to_string(sig.inputs.size()) + " inputs");
    int batch = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
        const int nc = static_cast<int>(sig.inputs[i].size());
        if (inputs[i].ndim() < nc)
            throw std::invalid_argument(op->name() + ": input " + std::to_string(i) + " has insufficient core dimensions");
        batch = std::max(batch, inputs[i].ndim() - nc);
    }
    // Blockwise.make_node: shape_padleft to the common number of batch dims.
    for (size_t i = 0; i < inputs.size(); ++i) {
        const int missing = batch - (inputs[i].ndim() - static_cast<int>(sig.inputs[i].size()));
        if (missing > 0) {
            std::vector<int> axes(static_cast<size_t>(missing));
            std::iota(axes.begin(), axes.end(), 0);
            inputs[i] = expandDims(inputs[i], axes);
        }
    }
    return b.apply(op, std::move(inputs));
}

Var matmul(Var a, Var b) {
    if (a.ndim() == 0 || b.ndim() == 0) throw std::invalid_argument("matmul operand cannot be scalar");
    auto mm = [](Var x, Var y) { return one(blockwise(makeDot(), {x, y}, "Matmul")); };
    if (a.ndim() == 1 && b.ndim() == 1)  // vecdot
        return squeeze(mm(expandDims(a, a.ndim() - 1), expandDims(b, b.ndim())), {-2, -1});
    if (a.ndim() == 1)  // vecmat
        return dropDims(mm(mT(b), expandDims(a, a.ndim())), -1);
    if (b.ndim() == 1)  // matvec
        return dropDims(mm(a, expandDims(b, b.ndim())), -1);
    return mm(a, b);
}

Var tensordot(Var a, Var b, const std::vector<int>& axesA0, const std::vector<int>& axesB0) {
    if (axesA0.size() != axesB0.size())
        throw std::invalid_argument("The number of axes supplied for tensordot must be equal for each tensor");
    const int na = a.ndim(), nb = b.ndim();
    auto norm = [](std::vector<int> axes, int nd) {
        for (int& x : axes) {
            if (x < -nd || x >= std::max(nd, 1)) throw std::invalid_argument("tensordot: axis out of range");
            if (x < 0) x += nd;
        }
        return axes;
    };
    const std::vector<int> axesA = norm(axesA0, na), axesB = norm(axesB0, nb);
    for (size_t k = 0; k < axesA.size(); ++k) {
        const int64_t da = a.type().shape[static_cast<size_t>(axesA[k])], db = b.type().shape[static_cast<size_t>(axesB[k])];
        if (da != kUnknownDim && db != kUnknownDim && da != db)
            throw std::invalid_argument("Input arrays have inconsistent type shape along the axes that are to be reduced with tensordot.");
    }
    std::vector<int> freeA, freeB;
    for (int k = 0; k < na; ++k)
        if (std::find(axesA.begin(), axesA.end(), k) == axesA.end()) freeA.push_back(k);
    for (int k = 0; k < nb; ++k)
        if (std::find(axesB.begin(), axesB.end(), k) == axesB.end()) freeB.push_back(k);
    std::vector<int> orderA = freeA, orderB = axesB;
    orderA.insert(orderA.end(), axesA.begin(), axesA.end());
    orderB.insert(orderB.end(), freeB.begin(), freeB.end());
    const bool reshapeA = na != 0 && (freeA.size() > 1 || axesA.size() != 1);
    const bool reshapeB = nb != 0 && (freeB.size() > 1 || axesB.size() != 1);
    // Sizes as graph values: a product of Shape_i entries (PyTensor's variadic_mul).
    auto product = [](Var x, const std::vector<int>& axes) -> IntArg {
        if (axes.empty()) return IntArg(1);
        bool known = true;
        int64_t p = 1;
        for (int k : axes) {
            const int64_t d = x.type().shape[static_cast<size_t>(k)];
            known = known && d != kUnknownDim;
            p *= d;
        }
        if (known) return IntArg(p);
        std::vector<Var> dims;
        for (int k : axes) dims.push_back(shapeI(x, k));
        return IntArg(dims.size() == 1 ? dims[0] : mul(dims));
    };
    Var at = transpose(a, orderA), bt = transpose(b, orderB);
    if (reshapeA) at = reshape(at, {product(a, freeA), product(a, axesA)});
    if (reshapeB) bt = reshape(bt, {product(b, axesB), product(b, freeB)});
    Var res = dot(at, bt);
    if (reshapeA || reshapeB) {
        std::vector<IntArg> shape;
        for (int k : freeA) shape.push_back(product(a, {k}));
        for (int k : freeB) shape.push_back(product(b, {k}));
        res = reshape(res, shape);
    }
    return res;
}

Var tensordot(Var a, Var b, int n) {
    std::vector<int> axesA, axesB;
    for (int k = 0; k < n; ++k) {
        axesA.push_back(k - n);
        axesB.push_back(k);
    }
    return tensordot(a, b, axesA, axesB);
}

Var outer(Var x, Var y) {
    if (x.ndim() != 1 || y.ndim() != 1) throw std::invalid_argument("outer takes two vectors");
    return dot(dimshuffle(x, {0, -1}), dimshuffle(y, {-1, 0}));
}

namespace linalg {

Var inv(Var a) { return one(blockwise(makeMatrixInverse(), {a})); }
Var det(Var a) { return one(blockwise(makeDet(), {a})); }
std::pair<Var, Var> slogdet(Var a) {
    Var d = det(a);
    return {sign(d), log(abs(d))};
}

Var solve(Var a, Var b, const std::string& assumeA, bool lower, bool transposed, int bNdim, bool checkFinite) {
    if (assumeA == "lower triangular" || assumeA == "upper triangular")
        return solveTriangular(a, b, transposed ? 1 : 0, assumeA == "lower triangular", false, bNdim, checkFinite);
    const int bn = defaultBNdim(b, bNdim);
    if (transposed) {
        a = mT(a);
        lower = !lower;
    }
    return one(blockwise(makeSolve(assumeA, lower, checkFinite, bn), {a, b}));
}

Var solveTriangular(Var a, Var b, int trans, bool lower, bool unitDiagonal, int bNdim, bool checkFinite) {
    const int bn = defaultBNdim(b, bNdim);
    if (trans == 1) {
        a = mT(a);
        lower = !lower;
    }
    return one(blockwise(makeSolveTriangular(unitDiagonal, lower, checkFinite, bn), {a, b}));
}

Var cholesky(Var a, bool lower, bool checkFinite, const std::string& onError) {
    return one(blockwise(makeCholesky(lower, checkFinite, onError), {a}));
}

Var choSolve(Var c, bool lower, Var b, int bNdim, bool checkFinite) {
    return one(blockwise(makeCholeskySolve(lower, checkFinite, defaultBNdim(b, bNdim)), {c, b}));
}

std::vector<Var> lu(Var a, bool permuteL, bool pIndices, bool checkFinite) {
    return blockwise(makeLU(permuteL, false, checkFinite, pIndices), {a});
}

std::pair<Var, Var> luFactor(Var a, bool checkFinite) {
    std::vector<Var> r = blockwise(makeLUFactor(false, checkFinite), {a});
    return {r[0], r[1]};
}

Var pivotToPermutation(Var pivots, bool inverse) {
    return pivots.builder().apply1(makePivotToPermutations(inverse), {pivots});
}

std::pair<Var, Var> eigh(Var a, const std::string& uplo) {
    std::vector<Var> r = blockwise(makeEigh(uplo), {a});
    return {r[0], r[1]};
}

Var eigvalsh(Var a, std::optional<Var> b, bool lower) {
    // PyTensor applies Eigvalsh directly (no Blockwise), without b when it is None.
    std::vector<Var> ins{a};
    if (b) ins.push_back(*b);
    return a.builder().apply1(makeEigvalsh(lower), std::move(ins));
}

std::vector<Var> svd(Var a, bool fullMatrices, bool computeUv) { return blockwise(makeSVD(fullMatrices, computeUv), {a}); }
Var pinv(Var a, bool hermitian) { return one(blockwise(makeMatrixPinv(hermitian), {a})); }
std::vector<Var> qr(Var a, const std::string& mode, bool pivoting) { return blockwise(makeQR(mode, false, pivoting), {a}); }

std::vector<Var> lstsq(Var a, Var b, double rcond) {
    return a.builder().apply(makeLstsq(), {a, b, a.builder().constant(rcond, DType::Float64)});
}

Var tensorinv(Var a, int ind) { return a.builder().apply1(makeTensorInv(ind), {a}); }
Var tensorsolve(Var a, Var b, std::optional<std::vector<int>> axes) {
    return a.builder().apply1(makeTensorSolve(std::move(axes)), {a, b});
}

Var expm(Var a) { return a.builder().apply1(makeExpm(), {a}); }
Var expmGrad(Var a, Var g) { return a.builder().apply1(makeExpmGrad(), {a, g}); }
Var solveContinuousLyapunov(Var a, Var q) { return one(blockwise(makeSolveContinuousLyapunov(), {a, q})); }
Var solveDiscreteAre(Var a, Var b, Var q, Var r, bool enforceQSymmetric) {
    return one(blockwise(makeSolveDiscreteARE(enforceQSymmetric), {a, b, q, r}));
}
Var solveDiscreteLyapunov(Var a, Var q) { return one(blockwise(makeBilinearSolveDiscreteLyapunov(), {a, q})); }
Var blockDiag(const std::vector<Var>& matrices) {
    return one(blockwise(makeBlockDiagonal(static_cast<int>(matrices.size())), matrices));
}

Var kron(Var a, Var b) {
    if (a.ndim() + b.ndim() <= 2)
        throw std::invalid_argument("kron: inputs dimensions must sum to 3 or more. You passed " + std::to_string(a.ndim()) +
                                    " and " + std::to_string(b.ndim()) + ".");
    auto pad = [](Var x, int to) {
        std::vector<int> axes(static_cast<size_t>(to - x.ndim()));
        std::iota(axes.begin(), axes.end(), 0);
        return axes.empty() ? x : expandDims(x, axes);
    };
    const int nd = std::max(a.ndim(), b.ndim());
    return a.builder().apply1(makeKroneckerProduct(), {pad(a, nd), pad(b, nd)});
}

} // namespace linalg

Var gemv(Var y, Var alpha, Var a, Var x, Var beta, bool inplace) {
    return y.builder().apply1(makeGemv(inplace), {y, alpha, a, x, beta});
}
Var ger(Var a, Var alpha, Var x, Var y, bool destructive) {
    return a.builder().apply1(makeGer(destructive), {a, alpha, x, y});
}
Var gemm(Var z, Var a, Var x, Var y, Var b, bool inplace) {
    return z.builder().apply1(makeGemm(inplace), {z, a, x, y, b});
}
Var dot22(Var x, Var y) { return x.builder().apply1(makeDot22(), {x, y}); }
Var dot22Scalar(Var x, Var y, Var a) { return x.builder().apply1(makeDot22Scalar(), {x, y, a}); }
Var batchedDot(Var x, Var y) { return x.builder().apply1(makeBatchedDot(), {x, y}); }

} // namespace tl
