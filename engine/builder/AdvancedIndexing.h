#pragma once
// Advanced indexing in the builder, built node for node as PyTensor 2.34 builds it
// (TensorVariable.__getitem__, inc_subtensor, set_subtensor):
//   x[idx]                 getItem(x, {idx})                  AdvancedSubtensor(x, idx)
//   x[mask]                getItem(x, {mask})                 AdvancedSubtensor(x, mask)
//   x[:, cols]             getItem(x, {Slice{}, cols})        AdvancedSubtensor(x, MakeSlice(None, None, None), cols)
//   x[arange(3), 2]        getItem(x, {r, 2})                 AdvancedSubtensor(x, r, TensorFromScalar(2))
//   x[None, 1:4, None, -1] getItem(x, {kNewAxis, Slice{1, 4}, kNewAxis, -1})   DimShuffle, then Subtensor
//   inc_subtensor(x[idx], y)   incSubtensor(getItem(x, {idx}), y)   AdvancedIncSubtensor(x, y, idx)
//   set_subtensor(x[m], 0.0)   setSubtensor(getItem(x, {m}), c)     AdvancedSetSubtensor(x, c, m)
// (incSubtensor/setSubtensor of builder/Indexing.h accept the result of getItem.) The
// slices among advanced indices become MakeSlice nodes over one NoneConst, Python ints
// int64 ScalarType constants, as PyTensor's as_index_variable makes them; static
// shapes follow constant slice bounds as PyTensor's make_node does.
#include "builder/Indexing.h"

#include <optional>
#include <vector>

namespace tl {

/// One entry of x[...]: an integer or boolean tensor, a Python int, a slice, np.newaxis
/// (kNewAxis) or Ellipsis (kEllipsis).
class AnyIdx {
public:
    enum class Kind { Tensor, Int, Slice, NewAxis, Ellipsis };
    AnyIdx(Var v) : m_kind(Kind::Tensor), m_var(std::move(v)) {}
    AnyIdx(int v) : m_kind(Kind::Int), m_int(v) {}
    AnyIdx(int64_t v) : m_kind(Kind::Int), m_int(v) {}
    AnyIdx(Slice s) : m_kind(Kind::Slice), m_slice(std::move(s)) {}
    static AnyIdx newAxis() { return AnyIdx(Kind::NewAxis); }
    static AnyIdx ellipsis() { return AnyIdx(Kind::Ellipsis); }

    Kind kind() const { return m_kind; }
    const Var& var() const { return m_var; }
    int64_t value() const { return m_int; }
    const Slice& slice() const { return *m_slice; }

private:
    explicit AnyIdx(Kind k) : m_kind(k) {}
    Kind m_kind;
    Var m_var;
    int64_t m_int = 0;
    std::optional<Slice> m_slice;
};

/// np.newaxis and ... in an index list.
inline const AnyIdx kNewAxis = AnyIdx::newAxis();
inline const AnyIdx kEllipsis = AnyIdx::ellipsis();

/// x[idx...] as PyTensor's __getitem__: AdvancedSubtensor when an index is a tensor that
/// is not a 0-d integer, else basic indexing (Subtensor; np.newaxis through DimShuffle).
/// Throws std::invalid_argument for what PyTensor refuses (too many indices, two Ellipsis,
/// float indices, a 0-d boolean).
Var getItem(Var x, const std::vector<AnyIdx>& idx);

/// inc_subtensor / set_subtensor of an advanced-indexing result (AdvancedSubtensor or
/// AdvancedSubtensor1 output `sub`): AdvancedIncSubtensor(x, y, idx...) or, for
/// AdvancedSubtensor1 without ignore_duplicates, AdvancedIncSubtensor1(x, y, ilist).
Var advancedIncSubtensor(Var sub, Var y, bool setInsteadOfInc, bool ignoreDuplicates = false);

/// The output types PyTensor's AdvancedSubtensor.make_node gives x[indices...]: static
/// lengths also through MakeSlice nodes of constant bounds.
Type advancedSubtensorStaticType(const std::vector<Var>& inputs);

} // namespace tl
