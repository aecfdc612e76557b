#pragma once
// An imported op tensorlens cannot run (e.g. Gemv{inplace} in a dprint listing): it
// keeps its printed name, declared output types and alias maps so the graph can be
// printed, saved and rewritten around, but running it is an ExecError. Random variables
// (normal_rv, uniform_rv, ...) are always opaque, because tensorlens does not imitate
// NumPy's generators; running one says so by name and how to feed its draw instead.
#include "ir/Op.h"

namespace tl {

class Node;

class OpaqueOp final : public Op {
public:
    /// `random`: the op draws random numbers (a PyTensor RandomVariable, or a Scan whose
    /// loop draws them). Also true for a name like `normal_rv{"(),()->()"}`.
    OpaqueOp(std::string printedName, std::vector<Type> outputTypes, AliasMap destroy = {}, AliasMap view = {},
             bool random = false);
    const std::vector<Type>& outputTypes() const { return m_outputTypes; }
    bool drawsRandomNumbers() const { return m_random; }

    std::string name() const override { return m_name; }
    /// The declared output types, whatever the inputs.
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    /// Throws ExecError "cannot execute opaque op <name>".
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap destroyMap() const override { return m_destroy; }
    AliasMap viewMap() const override { return m_view; }
    /// {"name", "output_types": [{"kind", "dtype", "shape"}], "destroy_map"?, "view_map"?, "random"?}
    nlohmann::json params() const override;

private:
    std::string m_name;
    std::vector<Type> m_outputTypes;
    AliasMap m_destroy, m_view;
    bool m_random;
};

OpPtr makeOpaque(std::string printedName, std::vector<Type> outputTypes, AliasMap destroy = {}, AliasMap view = {},
                 bool random = false);

/// PyTensor's printed name of a random variable: `<name>_rv` or `<name>_rv{...}`.
bool isRandomVariableName(const std::string& printedName);
/// The error of running a node that draws random numbers: "normal_rv#12 draws random
/// numbers, which tensorlens does not imitate; feed its output as an input instead: ...".
std::string randomDrawMessage(const Node& node);

} // namespace tl
