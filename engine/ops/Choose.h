#pragma once
// Choose{mode}(a, choices): NumPy's choose: a (integers) and choices[i] broadcast
// together, out[I] = choices[a[I]][I]. mode 'raise' rejects an index outside
// [0, n), 'wrap' takes it modulo n, 'clip' clamps it. `choices` is a tensor whose
// first axis is the list of choices (PyTensor's typed-list form is not supported).
// Static dims are 1 only where the broadcast is 1, as PyTensor's make_node.
// Printed "Choose{mode='raise'}".
#include "ir/Op.h"

namespace tl {

class ChooseOp final : public Op {
public:
    explicit ChooseOp(std::string mode) : Op(OpKind::Choose), m_mode(std::move(mode)) {}
    const std::string& mode() const { return m_mode; }
    std::string name() const override { return "Choose{mode='" + m_mode + "'}"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    nlohmann::json params() const override;

private:
    std::string m_mode;
};

/// mode "raise", "wrap" or "clip"; std::invalid_argument otherwise.
OpPtr makeChoose(const std::string& mode = "raise");

} // namespace tl
