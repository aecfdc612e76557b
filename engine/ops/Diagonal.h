#pragma once
// Diagonals of PyTensor:
//   ExtractDiag{offset, axis1, axis2, view}(x): NumPy's x.diagonal(offset, axis1, axis2),
//     the diagonal axis last. With view=True the output is a strided view of x
//     (view_map {0: [0]}), as PyTensor's PyArray_Diagonal. Axes are stored sorted
//     (axis1 < axis2, the offset negated when they were swapped), as PyTensor does.
//   AllocDiag{axis1, axis2, offset}(v): zeros of one more dimension with v's last
//     axis written on diagonal `offset` of the (axis1, axis2) planes; the inverse of
//     ExtractDiag. PyTensor builds it as an OpFromGraph; tensorlens runs it as one
//     kernel and keeps no inner graph.
// Printed "ExtractDiag{offset=0, axis1=0, axis2=1, view=True}" and
// "AllocDiag{self.axis1=0, self.axis2=1, self.offset=0}".
#include "ir/Op.h"

namespace tl {

class ExtractDiagOp final : public Op {
public:
    ExtractDiagOp(int64_t offset, int axis1, int axis2, bool view);
    int64_t offset() const { return m_offset; }
    int axis1() const { return m_axis1; }
    int axis2() const { return m_axis2; }
    bool isView() const { return m_view; }
    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap viewMap() const override { return m_view ? AliasMap{{0, {0}}} : AliasMap{}; }
    nlohmann::json params() const override;

private:
    int64_t m_offset;
    int m_axis1, m_axis2;
    bool m_view;
};

class AllocDiagOp final : public Op {
public:
    AllocDiagOp(int axis1, int axis2, int64_t offset);
    int axis1() const { return m_axis1; }
    int axis2() const { return m_axis2; }
    int64_t offset() const { return m_offset; }
    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    nlohmann::json params() const override;

private:
    int m_axis1, m_axis2;
    int64_t m_offset;
};

/// ExtractDiag; throws std::invalid_argument for negative or equal axes (PyTensor's rule).
OpPtr makeExtractDiag(int64_t offset = 0, int axis1 = 0, int axis2 = 1, bool view = true);
/// AllocDiag; throws std::invalid_argument for negative or equal axes.
OpPtr makeAllocDiag(int axis1 = 0, int axis2 = 1, int64_t offset = 0);

/// The length of diagonal `offset` of a (d1, d2) plane, as NumPy's PyArray_Diagonal.
int64_t diagonalLength(int64_t d1, int64_t d2, int64_t offset);

} // namespace tl
