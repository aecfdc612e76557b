#pragma once
// Unique{return_index, return_inverse, return_counts, axis}(x): NumPy's unique as
// PyTensor's Unique (with NumPy 1's flat inverse): the sorted unique values (of the
// flattened x, or the unique slices along `axis`, ordered lexicographically), then
// the int64 vectors asked for, in that order: the index of each value's first
// occurrence, the index into the unique values of every element (slice), and the
// count of each. NaNs collapse into one value for axis None, as NumPy's
// equal_nan=True. Printed "Unique{return_index=False, return_inverse=True,
// return_counts=False, axis=None}".
#include "ir/Op.h"

#include <optional>

namespace tl {

struct UniqueOptions {
    bool returnIndex = false, returnInverse = false, returnCounts = false;
    std::optional<int> axis;
    friend bool operator==(const UniqueOptions&, const UniqueOptions&) = default;
};

class UniqueOp final : public Op {
public:
    explicit UniqueOp(UniqueOptions o) : Op(OpKind::Unique), m_opt(o) {}
    const UniqueOptions& options() const { return m_opt; }
    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    nlohmann::json params() const override;

private:
    UniqueOptions m_opt;
};

/// Unique; throws std::invalid_argument for a negative axis, as PyTensor.
OpPtr makeUnique(UniqueOptions options);

} // namespace tl
