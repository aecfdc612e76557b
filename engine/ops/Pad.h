#pragma once
// Pad{pad_mode, reflect_type}(x, pad_width[, values]): NumPy's pad as PyTensor's
// pt.pad. pad_width (integers) broadcasts to (x.ndim, 2) as (before, after) per axis;
// the third input is constant_values for 'constant', end_values for 'linear_ramp'
// and stat_length for 'maximum' / 'minimum' / 'mean' (optional there), each
// broadcast to (x.ndim, 2). Modes: constant, edge, wrap, reflect and symmetric (even
// reflection, PyTensor's only one), linear_ramp, maximum, minimum, mean. Axes are
// padded one after another as NumPy does, so corners follow the last axis.
// PyTensor builds Pad as an OpFromGraph; tensorlens runs it as one kernel and keeps
// no inner graph. The static shape follows a constant pad_width.
// Printed "Pad{inline=False}", as PyTensor's OpFromGraph.
#include "ir/Op.h"

namespace tl {

class PadOp final : public Op {
public:
    PadOp(std::string mode, std::string reflectType, bool hasStatLength)
        : Op(OpKind::Pad), m_mode(std::move(mode)), m_reflectType(std::move(reflectType)),
          m_hasStatLength(hasStatLength) {}
    const std::string& mode() const { return m_mode; }
    std::string name() const override { return "Pad{inline=False}"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    std::vector<Type> inferTypesWithConstants(std::span<const Type* const> inputs,
                                              std::span<const NDArray* const> constants) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    nlohmann::json params() const override;
    /// Inputs this mode takes: 2, or 3 with constant_values / end_values / stat_length.
    int arity() const;

private:
    std::string m_mode, m_reflectType;
    bool m_hasStatLength;
};

/// Throws std::invalid_argument for an unknown mode, 'median' (PyTensor has none)
/// or odd reflection.
OpPtr makePad(const std::string& mode, const std::string& reflectType = "", bool hasStatLength = false);

} // namespace tl
