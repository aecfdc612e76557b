#pragma once
// An imported op tensorlens cannot run (e.g. Gemv{inplace} in a dprint listing): it
// keeps its printed name, declared output types and alias maps so the graph can be
// printed, saved and rewritten around, but running it is an ExecError.
#include "ir/Op.h"

namespace tl {

class OpaqueOp final : public Op {
public:
    OpaqueOp(std::string printedName, std::vector<Type> outputTypes, AliasMap destroy = {}, AliasMap view = {});
    const std::vector<Type>& outputTypes() const { return m_outputTypes; }

    std::string name() const override { return m_name; }
    /// The declared output types, whatever the inputs.
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    /// Throws ExecError "cannot execute opaque op <name>".
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap destroyMap() const override { return m_destroy; }
    AliasMap viewMap() const override { return m_view; }
    /// {"name", "output_types": [{"kind", "dtype", "shape"}], "destroy_map"?, "view_map"?}
    nlohmann::json params() const override;

private:
    std::string m_name;
    std::vector<Type> m_outputTypes;
    AliasMap m_destroy, m_view;
};

OpPtr makeOpaque(std::string printedName, std::vector<Type> outputTypes, AliasMap destroy = {}, AliasMap view = {});

} // namespace tl
