#include "ops/MakeSlice.h"

#include "ir/SliceValue.h"
#include "ops/ArrayOpUtil.h"

namespace tl {

std::vector<Type> MakeSliceOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 3, name());
    static const char* const kParts[] = {"start", "stop", "step"};
    for (int k = 0; k < 3; ++k)
        if (!in[k]->isNoneType() && !arrayop::isIntScalarLike(*in[k]))
            throw OpTypeError(name() + " " + kParts[k] + " must be an integer scalar or None, got " + in[k]->toString());
    return {Type::slice()};
}

void MakeSliceOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    SliceBounds b;
    std::optional<int64_t>* parts[3] = {&b.start, &b.stop, &b.step};
    static const char* const kParts[] = {"start", "stop", "step"};
    for (int k = 0; k < 3; ++k)
        if (!isNoneValue(in[k])) *parts[k] = arrayop::readInt(in[k], name() + " " + kParts[k]);
    if (b.step && *b.step == 0) throw ExecError(name() + ": slice step cannot be zero");
    out[0] = sliceValue(b);
}

OpPtr makeMakeSlice() { return std::make_shared<MakeSliceOp>(); }

OpPtr makeOpMakeSlice(const nlohmann::json&, std::shared_ptr<const Graph>) { return makeMakeSlice(); }

} // namespace tl
