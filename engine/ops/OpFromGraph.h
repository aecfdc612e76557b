#pragma once
// PyTensor's OpFromGraph (pytensor.compile.builders): a graph used as one op. Its
// inputs are the inner graph's inputs, its outputs the inner graph's outputs; the
// executor runs the inner graph (exec/OpFromGraphRun.h), as Scan's loop. With
// inline=True PyTensor's FAST_RUN replaces the node by its inner graph before anything
// else (inline_ofg_expansion, tensorlens's too); with inline=False it stays one node,
// computed by its own compiled inner function. Printed "residual_layer{inline=False}"
// ("OpFromGraph{inline=False}" without a name); its inner graph is printed under
// "Inner graphs:" with `*k-` inputs.
#include "ir/Op.h"

#include <optional>

namespace tl {

class OpFromGraphOp final : public Op {
public:
    /// `destroy` is PyTensor's destroy_map argument: inputs the op may overwrite.
    OpFromGraphOp(std::shared_ptr<const Graph> inner, std::optional<std::string> name, bool inlineGraph, AliasMap destroy = {});
    const std::shared_ptr<const Graph>& inner() const { return m_inner; }
    const std::optional<std::string>& graphName() const { return m_name; }
    bool isInline() const { return m_inline; }

    std::string name() const override;
    /// Each input must fit the inner input (same dtype and rank, compatible static dims);
    /// the outputs have the inner outputs' types.
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    bool hasKernel() const override { return false; }
    AliasMap destroyMap() const override { return m_destroy; }
    /// {"name": string or null, "inline": bool, "destroy_map"?}
    nlohmann::json params() const override;
    std::shared_ptr<const Graph> innerGraph() const override { return m_inner; }

private:
    std::shared_ptr<const Graph> m_inner;
    std::optional<std::string> m_name;
    bool m_inline;
    AliasMap m_destroy;
};

OpPtr makeOpFromGraph(std::shared_ptr<const Graph> inner, std::optional<std::string> name = std::nullopt,
                      bool inlineGraph = false, AliasMap destroy = {});

} // namespace tl
