#include "rewrite/LinalgRewriteUtil.h"

#include "ops/AdvancedSubtensor.h"
#include "ops/Blockwise.h"
#include "ops/DimShuffle.h"
#include "ops/Linalg.h"
#include "ops/MakeSlice.h"
#include "ops/Sort.h"
#include "rewrite/LocalRewriteUtil.h"

#include <algorithm>

namespace tl::rw {

bool isMatrixTranspose(const Variable& v) {
    const Node* n = v.owner();
    if (!n || n->kind() != OpKind::DimShuffle) return false;
    const auto& ds = static_cast<const DimShuffleOp&>(n->op());
    const int nd = ds.inputNdim();
    // PyTensor's test also allows ExpandDims on the left, after ruling out any
    // DimShuffle that adds axes: in effect only a plain swap of the last two.
    if (nd < 2 || !ds.dropped().empty() || !ds.augmented().empty()) return false;
    std::vector<int> swap(static_cast<size_t>(nd));
    for (int d = 0; d < nd; ++d) swap[static_cast<size_t>(d)] = d;
    std::swap(swap[static_cast<size_t>(nd - 2)], swap[static_cast<size_t>(nd - 1)]);
    return ds.newOrder() == swap;
}

bool isEyeOnDiagonal(const Variable& v) {
    const Node* n = v.owner();
    if (!n || n->kind() != OpKind::Eye) return false;
    const Variable& k = *n->input(n->numInputs() - 1);
    return k.isConstant() && k.constantValue().size() == 1 && k.constantValue().item() == 0.0;
}

const Op* blockwiseCoreOf(const Node* node, std::initializer_list<OpKind> kinds) {
    if (!node || node->kind() != OpKind::Blockwise) return nullptr;
    const Op& core = static_cast<const BlockwiseOp&>(node->op()).core();
    for (OpKind k : kinds)
        if (core.kind() == k) return &core;
    return nullptr;
}

bool isStaticallyOneByOne(const Type& t) {
    return t.ndim() >= 2 && t.broadcastable(t.ndim() - 2) && t.broadcastable(t.ndim() - 1);
}

bool isLeftExpandDims(const Node& node) {
    if (node.kind() != OpKind::DimShuffle) return false;
    const auto& ds = static_cast<const DimShuffleOp&>(node.op());
    if (!ds.isExpandDims()) return false;
    const std::vector<int>& order = ds.newOrder();
    const int nd = ds.inputNdim();
    for (int d = 0; d < nd; ++d)
        if (order[order.size() - static_cast<size_t>(nd - d)] != d) return false;
    return true;
}

std::vector<Variable*> applyBlockwise(Rewriter& rw, OpPtr blockwiseOp, std::vector<Variable*> inputs) {
    const auto& sig = static_cast<const BlockwiseOp&>(*blockwiseOp).signature();
    int batch = 0;
    for (size_t i = 0; i < inputs.size(); ++i)
        batch = std::max(batch, inputs[i]->type().ndim() - static_cast<int>(sig.inputs[i].size()));
    for (size_t i = 0; i < inputs.size(); ++i)
        inputs[i] = expandLeft(rw, inputs[i], batch + static_cast<int>(sig.inputs[i].size()));
    const Node* node = rw.create(std::move(blockwiseOp), std::move(inputs));
    return {node->outputs().begin(), node->outputs().end()};
}

Variable* applyLinalgBlockwise(Rewriter& rw, OpPtr core, std::vector<Variable*> inputs) {
    OpPtr op = makeBlockwise(core, gufuncSignature(*core));
    return applyBlockwise(rw, std::move(op), std::move(inputs))[0];
}

Variable* matrixTranspose(Rewriter& rw, Variable* v) {
    const int nd = v->type().ndim();
    std::vector<int> order(static_cast<size_t>(nd));
    for (int d = 0; d < nd; ++d) order[static_cast<size_t>(d)] = d;
    std::swap(order[static_cast<size_t>(nd - 2)], order[static_cast<size_t>(nd - 1)]);
    return dimShuffle(rw, v, std::move(order));
}

namespace {

// PyTensor's safe_signature: core dims named by operand, "(i00,i01),(i10)->(o00,o01)",
// the signature of a Blockwise made for an op that has no gufunc signature of its own.
std::string safeSignature(const std::vector<int>& inputNdims, const std::vector<int>& outputNdims) {
    auto operands = [](const std::vector<int>& ndims, char prefix) {
        std::string s;
        for (size_t n = 0; n < ndims.size(); ++n) {
            if (n) s += ',';
            s += '(';
            for (int d = 0; d < ndims[n]; ++d) {
                if (d) s += ',';
                s += prefix;
                s += std::to_string(n);
                s += std::to_string(d);
            }
            s += ')';
        }
        return s;
    };
    return operands(inputNdims, 'i') + "->" + operands(outputNdims, 'o');
}

// x[idx] on x's first core axis, vectorised as PyTensor vectorises AdvancedSubtensor:
// with batched indices one Blockwise of it, else full slices over x's batch axes.
Variable* takeRows(Rewriter& rw, Variable* x, Variable* idx, int xCoreNdim) {
    if (idx->type().ndim() > 1) {
        OpPtr op = makeBlockwise(makeAdvancedSubtensor(), safeSignature({xCoreNdim, 1}, {xCoreNdim}));
        return applyBlockwise(rw, std::move(op), {x, idx})[0];
    }
    std::vector<Variable*> inputs{x};
    for (int d = xCoreNdim; d < x->type().ndim(); ++d) {
        Variable* none = noneConstant(rw);
        inputs.push_back(rw.create(makeMakeSlice(), {none, none, none})->output(0));
    }
    inputs.push_back(idx);
    return rw.create(makeAdvancedSubtensor(), std::move(inputs))->output(0);
}

// SolveTriangular of PyTensor's solve_triangular with trans=0 (a transposed factor is
// passed transposed, as solve_triangular does itself for trans=1).
Variable* triangular(Rewriter& rw, Variable* a, Variable* b, bool unitDiagonal, bool lower, int bNdim, bool checkFinite) {
    return applyLinalgBlockwise(rw, makeSolveTriangular(unitDiagonal, lower, checkFinite, bNdim), {a, b});
}

// pytensor.tensor.slinalg._lu_solve, vectorised: b's rows permuted by the pivots, a
// unit lower and an upper triangular solve (for A^T: the transposed factor's two
// solves, then the rows put back with the inverse permutation, argsort(perm)).
Variable* luSolve(Rewriter& rw, Variable* lu, Variable* pivots, Variable* b, bool trans, int bNdim, bool checkFinite) {
    Variable* perm = applyBlockwise(rw, makeBlockwise(makePivotToPermutations(true), "(x)->(x)"), {pivots})[0];
    if (!trans) {
        Variable* x = takeRows(rw, b, perm, bNdim);
        x = triangular(rw, lu, x, true, true, bNdim, checkFinite);
        return triangular(rw, lu, x, false, false, bNdim, checkFinite);
    }
    Variable* luT = matrixTranspose(rw, lu);
    Variable* x = triangular(rw, luT, b, false, true, bNdim, checkFinite);
    x = triangular(rw, luT, x, true, false, bNdim, checkFinite);
    Variable* axis = rw.constant(scalarArray(DType::Int64, -1));
    OpPtr argsort = makeBlockwise(makeArgSort("quicksort"), safeSignature({1, 0}, {1}));
    Variable* back = applyBlockwise(rw, std::move(argsort), {perm, axis})[0];
    return takeRows(rw, x, back, bNdim);
}

} // namespace

bool decomposable(const std::string& assumeA) { return assumeA == "gen" || assumeA == "pos"; }

SolveFactor decomposeA(Rewriter& rw, Variable* a, const std::string& assumeA, bool checkFinite, bool lower) {
    SolveFactor f;
    f.assumeA = assumeA;
    f.lower = lower;
    if (assumeA == "gen") {
        f.outputs = applyBlockwise(rw, makeBlockwise(makeLUFactor(false, checkFinite), "(m,m)->(m,m),(m)"), {a});
    } else if (assumeA == "pos") {
        f.outputs = {applyLinalgBlockwise(rw, makeCholesky(lower, checkFinite, "raise"), {a})};
    } else {
        throw GraphError("no factorization for a solve that assumes '" + assumeA + "'");
    }
    return f;
}

Variable* solveDecomposed(Rewriter& rw, const SolveFactor& factor, Variable* b, bool transposed, int bNdim,
                          bool checkFinite) {
    if (factor.assumeA == "gen") return luSolve(rw, factor.outputs[0], factor.outputs[1], b, transposed, bNdim, checkFinite);
    // A is symmetric by assumption: A^T x = b is A x = b.
    return applyLinalgBlockwise(rw, makeCholeskySolve(factor.lower, checkFinite, bNdim), {factor.outputs[0], b});
}

} // namespace tl::rw
