#include "rewrite/ErfcAsymptote.h"

#include "rewrite/LocalRewriteUtil.h"

namespace tl::rw {

using C = ScalarOpCode;

Variable* erfcAsymptoticSeries(Rewriter& rewriter, Variable* x2, DType dtype) {
    auto c = [&](double v) { return rewriter.constant(NDArray::scalar(dtype, v)); };
    auto op = [&](C code, std::vector<Variable*> ins) { return makeElemwiseOf(rewriter, code, std::move(ins)); };
    Variable* x4 = op(C::Mul, {x2, x2});
    Variable* x6 = op(C::Mul, {x4, x2});
    return op(C::Sub, {op(C::Add, {op(C::Sub, {c(1.0), op(C::TrueDiv, {c(1.0), op(C::Mul, {c(2.0), x2})})}),
                                   op(C::TrueDiv, {c(3.0), op(C::Mul, {c(4.0), x4})})}),
                       op(C::TrueDiv, {c(15.0), op(C::Mul, {c(8.0), x6})})});
}

bool isGuardedByAsymptote(const Variable& kept, const Variable& x) {
    for (const Client& cl : kept.clients()) {
        if (!cl.node || cl.index != 1 || plainElemwiseCode(*cl.node) != C::Switch) continue;
        if (const Node* lt = elemwiseOwner(*cl.node->input(0), C::Lt); lt && lt->input(0) == &x) return true;
    }
    return false;
}

} // namespace tl::rw
