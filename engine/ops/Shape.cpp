#include "ops/Shape.h"

#include "ops/ArrayOpUtil.h"

#include <nlohmann/json.hpp>

namespace tl {

std::vector<Type> ShapeOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 1, "Shape");
    arrayop::requireTensor(*in[0], "Shape input");
    return {Type::tensor(DType::Int64, {in[0]->ndim()})};
}

void ShapeOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& x = in[0];
    NDArray r = arrayop::reuseOrEmpty(out[0], DType::Int64, {x.ndim()});
    for (int i = 0; i < x.ndim(); ++i) r.data<int64_t>()[i] = x.dim(i);
    out[0] = r;
}

ShapeIOp::ShapeIOp(int i) : Op(OpKind::ShapeI), m_i(i) {
    if (i < 0) throw std::invalid_argument("Shape_i: axis must be >= 0, got " + std::to_string(i));
}

std::vector<Type> ShapeIOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 1, "Shape_i");
    arrayop::requireTensor(*in[0], "Shape_i input");
    if (in[0]->ndim() <= m_i)
        throw OpTypeError(in[0]->toString() + " has too few dimensions for Shape_i{" + std::to_string(m_i) + "}");
    return {Type::tensor(DType::Int64, {})};
}

void ShapeIOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    if (in[0].ndim() <= m_i)
        throw ExecError(name() + ": input of shape " + shapeToString(in[0].shape()) + " has too few dimensions");
    NDArray r = arrayop::reuseOrEmpty(out[0], DType::Int64, {});
    r.data<int64_t>()[0] = in[0].dim(m_i);
    out[0] = r;
}

nlohmann::json ShapeIOp::params() const { return {{"i", m_i}}; }

OpPtr makeShape() {
    static const OpPtr op = std::make_shared<ShapeOp>();
    return op;
}

OpPtr makeShapeI(int i) { return std::make_shared<ShapeIOp>(i); }

OpPtr makeOpShape(const nlohmann::json&, std::shared_ptr<const Graph>) { return makeShape(); }

OpPtr makeOpShapeI(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    const auto& i = arrayop::requireParam(params, "i", "Shape_i");
    if (!i.is_number_integer()) throw std::invalid_argument("Shape_i params: \"i\" must be an integer, got " + i.dump());
    return makeShapeI(i.get<int>());
}

} // namespace tl
