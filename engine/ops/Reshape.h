#pragma once
// Reshape{ndim}(x, shape): shape is a 1-d integer tensor of length ndim; one entry
// may be -1 (inferred). A view of x when x is C-contiguous, else a copy.
#include "ir/Op.h"

#include <optional>

namespace tl {

class ReshapeOp final : public Op {
public:
    explicit ReshapeOp(int ndim);
    int ndim() const { return m_ndim; }

    std::string name() const override { return "Reshape{" + std::to_string(m_ndim) + "}"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    std::vector<Type> inferTypesWithConstants(std::span<const Type* const> inputs,
                                              std::span<const NDArray* const> constants) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap viewMap() const override { return {{0, {0}}}; }
    nlohmann::json params() const override;

private:
    int m_ndim;
};

OpPtr makeReshape(int ndim);

/// Static output shape of Reshape{entries.size()} on x, as PyTensor's make_node: known
/// entries >= 0 are kept, -1 / unknown entries are deduced when x is fully known and only
/// one is missing. Throws OpTypeError (prefixed by opName) for impossible shapes.
StaticShape reshapeStaticShape(const Type& x, const std::vector<std::optional<int64_t>>& entries, const std::string& opName);

} // namespace tl
