#pragma once
// DimShuffle: reorders, inserts (broadcastable) and drops axes; a view of its input.
// Printed as PyTensor 2.31-2.34 prints it: ExpandDims{axis=0}, ExpandDims{axes=[0, 2]},
// Squeeze{axis=0}, Transpose{axes=[1, 0]}, else DimShuffle{order=[1,x,0]}.
#include "ir/Op.h"

#include <vector>

namespace tl {

class DimShuffleOp final : public Op {
public:
    /// newOrder entries: an input axis, or -1 for a new broadcastable ('x') axis.
    /// Throws std::invalid_argument for an axis out of range or used twice.
    DimShuffleOp(int inputNdim, std::vector<int> newOrder);

    int inputNdim() const { return m_inputNdim; }
    const std::vector<int>& newOrder() const { return m_newOrder; }
    /// Input axes that are dropped (must have length 1).
    const std::vector<int>& dropped() const { return m_drop; }
    /// Output positions of new 'x' axes, ascending.
    const std::vector<int>& augmented() const { return m_augment; }
    bool isExpandDims() const;
    bool isSqueeze() const;
    bool isTranspose() const;

    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap viewMap() const override { return {{0, {0}}}; }
    nlohmann::json params() const override;
    /// By the fields, not through params(): merge compares every DimShuffle of a graph.
    bool equals(const Op& other) const override;
    size_t hash() const override;

private:
    int m_inputNdim;
    std::vector<int> m_newOrder;
    std::vector<int> m_shuffle;  // kept input axes, in output order
    std::vector<int> m_drop;
    std::vector<int> m_augment;
};

/// PyTensor's DimShuffle(input_ndim, new_order) with -1 for 'x'.
OpPtr makeDimShuffle(int inputNdim, std::vector<int> newOrder);

} // namespace tl
