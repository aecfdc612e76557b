#pragma once
// Shape(x) -> Vector(int64, shape=(ndim,)) and Shape_i{i}(x) -> Scalar(int64, shape=()).
// Neither is differentiable: their forward derivative is zero (null).
#include "ir/Op.h"

namespace tl {

class ShapeOp final : public Op {
public:
    ShapeOp() : Op(OpKind::Shape) {}
    std::string name() const override { return "Shape"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
};

class ShapeIOp final : public Op {
public:
    explicit ShapeIOp(int i);
    int axis() const { return m_i; }
    std::string name() const override { return "Shape_i{" + std::to_string(m_i) + "}"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    nlohmann::json params() const override;

private:
    int m_i;
};

OpPtr makeShape();
OpPtr makeShapeI(int i);

} // namespace tl
