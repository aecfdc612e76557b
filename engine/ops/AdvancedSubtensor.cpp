#include "ops/AdvancedSubtensor.h"

#include "ir/SliceValue.h"
#include "ops/ArrayOpUtil.h"

namespace tl {

using advindex::IndexKind;

std::vector<IndexKind> indexKindsOf(std::span<const NDArray> values, size_t skip, const std::string& opName) {
    // A run-time value tells its kind as its type would: slice and None values carry
    // their role (ir/SliceValue.h), masks are bool, the rest integer arrays.
    std::vector<IndexKind> kinds;
    for (size_t i = skip; i < values.size(); ++i) {
        const NDArray& v = values[i];
        if (!v.valid()) throw ExecError(opName + ": index " + std::to_string(i - skip) + " has no value");
        if (v.role() == NDArray::Role::Slice) kinds.push_back(IndexKind::Slice);
        else if (v.role() == NDArray::Role::None) kinds.push_back(IndexKind::NewAxis);
        else if (v.dtype() == DType::Bool) kinds.push_back(IndexKind::Mask);
        else kinds.push_back(IndexKind::Integer);
    }
    return kinds;
}

std::vector<Type> AdvancedSubtensor1Op::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 2, name());
    const Type& x = *in[0];
    const Type& ilist = *in[1];
    arrayop::requireTensor(x, name() + " input");
    if (x.ndim() == 0) throw OpTypeError(name() + ": cannot index into a scalar (" + x.toString() + ")");
    if (!ilist.isTensorType() || !isInteger(ilist.dtype)) throw OpTypeError(name() + ": index must be integers, got " + ilist.toString());
    if (ilist.ndim() != 1) throw OpTypeError(name() + ": index must be a vector, got " + ilist.toString());
    StaticShape out{ilist.shape[0]};
    out.insert(out.end(), x.shape.begin() + 1, x.shape.end());
    return {Type::tensor(x.dtype, std::move(out))};
}

void AdvancedSubtensor1Op::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const IndexKind kinds[] = {IndexKind::Integer};
    if (in[1].ndim() != 1) throw ExecError(name() + ": index must be a vector, got shape " + shapeToString(in[1].shape()));
    const advindex::Plan plan(in[0], in.subspan(1, 1), kinds, name());
    out[0] = advindex::gather(in[0], plan);
}

std::vector<Type> AdvancedSubtensorOp::inferTypes(std::span<const Type* const> in) const {
    return inferTypesWithConstants(in, {});
}

std::vector<Type> AdvancedSubtensorOp::inferTypesWithConstants(std::span<const Type* const> in,
                                                               std::span<const NDArray* const> constants) const {
    arrayop::requireMinArity(in, 1, name());
    return {advindex::indexedType(*in[0], in.subspan(1), constants.empty() ? constants : constants.subspan(1), name())};
}

void AdvancedSubtensorOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const auto kinds = indexKindsOf(in, 1, name());
    const advindex::Plan plan(in[0], in.subspan(1), kinds, name());
    out[0] = advindex::gather(in[0], plan);
}

OpPtr makeAdvancedSubtensor1() { return std::make_shared<AdvancedSubtensor1Op>(); }
OpPtr makeAdvancedSubtensor() { return std::make_shared<AdvancedSubtensorOp>(); }

OpPtr makeOpAdvancedSubtensor1(const nlohmann::json&, std::shared_ptr<const Graph>) { return makeAdvancedSubtensor1(); }
OpPtr makeOpAdvancedSubtensor(const nlohmann::json&, std::shared_ptr<const Graph>) { return makeAdvancedSubtensor(); }

} // namespace tl
