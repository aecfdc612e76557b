#include "rewrite/ConvertVariable.h"

#include "ops/ArrayOpUtil.h"
#include "ops/SpecifyShape.h"
#include "rewrite/LocalRewriteUtil.h"

namespace tl::rw {

bool convertibleTo(const Type& want, const Type& have) {
    if (want.kind != have.kind || want.dtype != have.dtype || want.ndim() != have.ndim()) return false;
    for (int d = 0; d < want.ndim(); ++d)
        if (want.shape[d] != kUnknownDim && have.shape[d] != kUnknownDim && want.shape[d] != have.shape[d]) return false;
    return true;
}

Variable* convertVariable(Rewriter& rw, Variable* v, const Type& want) {
    if (want.accepts(v->type())) return v;
    if (!want.isTensorType() || !convertibleTo(want, v->type()))
        throw GraphError("cannot convert a " + v->type().toString() + " to a " + want.toString());
    std::vector<Variable*> inputs{v};
    for (int d = 0; d < want.ndim(); ++d) {
        const int64_t dim = want.shape[d];
        inputs.push_back(dim == kUnknownDim ? noneConstant(rw) : rw.constant(scalarArray(arrayop::smallestIntDType(dim), dim)));
    }
    return rw.create(makeSpecifyShape(), std::move(inputs))->output(0);
}

void convertLessSpecificReplacements(Rewriter& rw) { rw.setReplacementConverter(&convertVariable); }

} // namespace tl::rw
