#pragma once
// PyTensor's OpFromGraph (pytensor.compile.builders): a graph used as one op. Its
// inputs are the inner graph's inputs, its outputs the inner graph's outputs; the
// executor runs the inner graph (exec/OpFromGraphRun.h), as Scan's loop. With
// inline=True PyTensor's FAST_RUN replaces the node by its inner graph before anything
// else (inline_ofg_expansion, tensorlens's too); with inline=False it stays one node,
// computed by its own compiled inner function. Printed "residual_layer{inline=False}"
// ("OpFromGraph{inline=False}" without a name); its inner graph is printed under
// "Inner graphs:" with `*k-` inputs.
//
// PyTensor's Einsum (pytensor.tensor.einsum) is an OpFromGraph subclass whose inner
// graph is one contraction order of its operands; tensorlens holds it as an
// OpFromGraph named "Einsum" with the subclass's attributes (EinsumSpec), printed as
// PyTensor prints them: Einsum{self.subscripts='ij,jk->ik', self.path=((1, 0),), self.optimized=True}.
#include "ir/Op.h"

#include <optional>
#include <string_view>
#include <vector>

namespace tl {

/// An Einsum's attributes. `path` lists the operand positions contracted at each
/// step (opt_einsum's contraction path); `optimized` says the path was chosen with
/// every operand's shape known or with at most two operands, the case where
/// PyTensor's specialize inlines the node (inline_optimized_einsum).
struct EinsumSpec {
    std::string subscripts;
    std::vector<std::vector<int>> path;
    bool optimized = false;
    friend bool operator==(const EinsumSpec&, const EinsumSpec&) = default;
};
/// "self.subscripts='ij,jk->ik', self.path=((1, 0),), self.optimized=True": the
/// attributes as Einsum's __str__ prints them between the braces.
std::string einsumSpecText(const EinsumSpec& spec);
/// The attributes read back from that text; nullopt (and `why`) when it is not one.
std::optional<EinsumSpec> parseEinsumSpecText(std::string_view text, std::string* why = nullptr);

class OpFromGraphOp final : public Op {
public:
    /// `destroy` is PyTensor's destroy_map argument: inputs the op may overwrite.
    OpFromGraphOp(std::shared_ptr<const Graph> inner, std::optional<std::string> name, bool inlineGraph, AliasMap destroy = {},
                  std::optional<EinsumSpec> einsum = std::nullopt);
    const std::shared_ptr<const Graph>& inner() const { return m_inner; }
    const std::optional<std::string>& graphName() const { return m_name; }
    bool isInline() const { return m_inline; }
    /// The Einsum attributes when this is PyTensor's Einsum (named "Einsum").
    const std::optional<EinsumSpec>& einsum() const { return m_einsum; }

    std::string name() const override;
    /// Each input must fit the inner input (same dtype and rank, compatible static dims);
    /// the outputs have the inner outputs' types.
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    bool hasKernel() const override { return false; }
    AliasMap destroyMap() const override { return m_destroy; }
    /// {"name": string or null, "inline": bool, "destroy_map"?}; an Einsum adds
    /// "subscripts" (string), "path" (lists of operand positions) and "optimized" (bool).
    nlohmann::json params() const override;
    std::shared_ptr<const Graph> innerGraph() const override { return m_inner; }

private:
    std::shared_ptr<const Graph> m_inner;
    std::optional<std::string> m_name;
    bool m_inline;
    AliasMap m_destroy;
    std::optional<EinsumSpec> m_einsum;
};

OpPtr makeOpFromGraph(std::shared_ptr<const Graph> inner, std::optional<std::string> name = std::nullopt,
                      bool inlineGraph = false, AliasMap destroy = {});
/// PyTensor's Einsum: an OpFromGraph named "Einsum", inline=False, with its attributes.
OpPtr makeEinsum(std::shared_ptr<const Graph> inner, EinsumSpec spec);

} // namespace tl
