#include "rewrite/DiagonalMatrixForms.h"

#include "ops/Diagonal.h"
#include "rewrite/LinalgRewriteUtil.h"
#include "rewrite/LocalRewriteUtil.h"

namespace tl::rw {

namespace {

bool matrixAxesNotBroadcast(const Type& t) {
    return t.ndim() >= 2 && !t.broadcastable(t.ndim() - 2) && !t.broadcastable(t.ndim() - 1);
}

// An n x n constant with ones on its diagonal and zeros elsewhere, n > 1, with any
// number of leading axes of length 1 (a folded ExpandDims of an Eye).
bool isIdentityConstant(const Variable& v) {
    const int nd = v.type().ndim();
    if (!v.isConstant() || nd < 2) return false;
    const NDArray& a = v.constantValue();
    for (int d = 0; d + 2 < nd; ++d)
        if (a.shape()[static_cast<size_t>(d)] != 1) return false;
    const int64_t n = a.shape()[static_cast<size_t>(nd - 2)];
    if (n < 2 || a.shape()[static_cast<size_t>(nd - 1)] != n) return false;
    const std::vector<double> values = a.toDoubles();
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
            if (values[static_cast<size_t>(i * n + j)] != (i == j ? 1.0 : 0.0)) return false;
    return true;
}

bool isIdentity(const Variable& v) {
    return (isEyeOnDiagonal(v) || isIdentityConstant(v)) && matrixAxesNotBroadcast(v.type());
}

// An identity, or one under an ExpandDims on the left (a batch of identities). PyTensor
// also takes one on the right, whose identity axes are then not the matrix axes the
// op reads: such a product is not a diagonal matrix there.
bool isIdentityFactor(const Variable& v) {
    if (isIdentity(v)) return true;
    const Node* n = v.owner();
    return n && isLeftExpandDims(*n) && isIdentity(*n->input(0));
}

} // namespace

Variable* diagonalOfAllocDiag(const Variable& m) {
    const Node* n = m.owner();
    if (!n || n->kind() != OpKind::AllocDiag) return nullptr;
    const auto& op = static_cast<const AllocDiagOp&>(n->op());
    const int nd = m.type().ndim();
    if (op.offset() != 0 || op.axis1() != nd - 2 || op.axis2() != nd - 1) return nullptr;
    return n->input(0);
}

Variable* vectorOfAllocDiag(const Variable& m) {
    Variable* v = diagonalOfAllocDiag(m);
    return v && v->type().ndim() == 1 ? v : nullptr;
}

std::optional<EyeProduct> eyeProductOf(const Variable& m) {
    const Node* n = m.owner();
    if (!n || plainElemwiseCode(*n) != ScalarOpCode::Mul || n->numInputs() != 2) return std::nullopt;
    for (int e = 0; e < 2; ++e) {
        Variable* eye = n->input(e);
        if (!isIdentityFactor(*eye)) continue;
        return EyeProduct{eye, n->input(1 - e)};
    }
    return std::nullopt;
}

DiagonalFactor diagonalFactorKind(const Type& x) {
    if (isStaticallyOneByOne(x)) return DiagonalFactor::Scalar;
    const bool rows = x.broadcastable(x.ndim() - 2), cols = x.broadcastable(x.ndim() - 1);
    return rows || cols ? DiagonalFactor::Vector : DiagonalFactor::Matrix;
}

Variable* matrixDiagonal(Rewriter& rw, Variable* x) {
    const int nd = x->type().ndim();
    return rw.create(makeExtractDiag(0, nd - 2, nd - 1), {x})->output(0);
}

Variable* padBeforeLast(Rewriter& rw, Variable* x) {
    std::vector<int> order;
    const int nd = x->type().ndim();
    for (int d = 0; d + 1 < nd; ++d) order.push_back(d);
    order.push_back(-1);
    order.push_back(nd - 1);
    return dimShuffle(rw, x, order);
}

} // namespace tl::rw
