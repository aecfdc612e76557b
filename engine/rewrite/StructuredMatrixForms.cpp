#include "rewrite/StructuredMatrixForms.h"

#include "ops/MakeVector.h"
#include "ops/Reduce.h"
#include "rewrite/LinalgRewriteUtil.h"

#include <algorithm>

namespace tl::rw {

const Node* blockDiagonalOf(const Variable& m, bool unbatched) {
    const Node* n = m.owner();
    if (!blockwiseCoreOf(n, {OpKind::BlockDiagonal})) return nullptr;
    if (unbatched && (m.type().ndim() != 2 ||
                      std::any_of(n->inputs().begin(), n->inputs().end(), [](const Variable* v) { return v->type().ndim() != 2; })))
        return nullptr;
    return n;
}

const Node* kroneckerOfMatrices(const Variable& m) {
    const Node* n = m.owner();
    if (!n || n->kind() != OpKind::KroneckerProduct || n->numInputs() != 2) return nullptr;
    if (n->input(0)->type().ndim() != 2 || n->input(1)->type().ndim() != 2) return nullptr;
    return n;
}

bool maybeSquare(const Type& t) {
    if (t.ndim() < 2) return false;
    const int64_t rows = t.shape[static_cast<size_t>(t.ndim() - 2)];
    const int64_t cols = t.shape[static_cast<size_t>(t.ndim() - 1)];
    return rows == kUnknownDim || cols == kUnknownDim || rows == cols;
}

bool isStaticallySquare(const Type& t) {
    return t.ndim() >= 2 && t.shape[static_cast<size_t>(t.ndim() - 2)] != kUnknownDim &&
           t.shape[static_cast<size_t>(t.ndim() - 2)] == t.shape[static_cast<size_t>(t.ndim() - 1)];
}

bool inputsMaybeSquare(const Node& node) {
    return std::all_of(node.inputs().begin(), node.inputs().end(), [](const Variable* v) { return maybeSquare(v->type()); });
}

Variable* productOfScalars(Rewriter& rw, std::vector<Variable*> scalars, DType dtype) {
    Variable* vector = rw.create(makeMakeVector(dtype), std::move(scalars))->output(0);
    return rw.create(makeReduce(ReduceKind::Prod, std::nullopt), {vector})->output(0);
}

} // namespace tl::rw
