#pragma once
// RavelMultiIndex{mode, order}(i0, ..., i(n-1), dims): NumPy's ravel_multi_index as
// PyTensor's op (pytensor/tensor/extra_ops.py): the flat index of each coordinate
// tuple in an array of shape `dims`, read in C (row-major) or F (column-major)
// order. The n integer index arrays broadcast together; the output is int64 of their
// broadcast shape. mode 'raise' refuses a coordinate outside [0, dims[k]) as NumPy
// ("invalid entry in coordinates array"), 'wrap' takes it modulo dims[k], 'clip'
// clamps it. PyTensor's constructor takes one mode; NumPy also takes one per index,
// and so does this op. Printed "RavelMultiIndex{mode='raise', order='C'}".
#include "ir/Op.h"

#include <string>
#include <vector>

namespace tl {

/// How an index outside its dimension is treated (NumPy's clipmode).
enum class IndexBoundMode : uint8_t { Raise, Wrap, Clip };

class RavelMultiIndexOp final : public Op {
public:
    /// `modes`: one for every index, or one per index; `fortranOrder`: order 'F'.
    RavelMultiIndexOp(std::vector<IndexBoundMode> modes, bool fortranOrder)
        : Op(OpKind::RavelMultiIndex), m_modes(std::move(modes)), m_fortran(fortranOrder) {}
    const std::vector<IndexBoundMode>& modes() const { return m_modes; }
    bool fortranOrder() const { return m_fortran; }
    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    nlohmann::json params() const override;

private:
    std::vector<IndexBoundMode> m_modes;
    bool m_fortran;
};

/// modes: one of "raise", "wrap", "clip", or one such per index; order "C" or "F".
/// std::invalid_argument (NumPy's wording) otherwise.
OpPtr makeRavelMultiIndex(const std::vector<std::string>& modes = {"raise"}, const std::string& order = "C");

} // namespace tl
