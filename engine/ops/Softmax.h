#pragma once
// Softmax, LogSoftmax and SoftmaxGrad (pytensor/tensor/special.py), one class for
// the three op kinds: along one axis (as given, -1 included, printed so) or over
// the whole array (axis=None), printed Softmax{axis=-1}, LogSoftmax{axis=None},
// SoftmaxGrad{axis=1}. The kernels follow PyTensor's C code: the largest element
// is subtracted first, exp summed in order, softmax multiplied by 1 / sum;
// SoftmaxGrad(dy, sm) = dy * sm - sum(dy * sm) * sm. Sums run in double. Float
// inputs only, as PyTensor's C code.
#include "ir/Op.h"

#include <optional>

namespace tl {

class SoftmaxOp final : public Op {
public:
    /// kind: OpKind::Softmax, LogSoftmax or SoftmaxGrad; axis nullopt = all axes.
    SoftmaxOp(OpKind kind, std::optional<int> axis);
    const std::optional<int>& axis() const { return m_axis; }

    std::string name() const override;
    /// Softmax/LogSoftmax: x -> x's type. SoftmaxGrad: (dy, sm) -> sm's type. The axis
    /// must exist (-ndim <= axis < ndim); inputs must be float32 or float64.
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    /// {"axis": -1} ({"axis": null}: all axes).
    nlohmann::json params() const override;

private:
    std::optional<int> m_axis;
};

OpPtr makeSoftmax(std::optional<int> axis);
OpPtr makeLogSoftmax(std::optional<int> axis);
OpPtr makeSoftmaxGrad(std::optional<int> axis);

} // namespace tl
