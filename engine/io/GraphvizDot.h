#pragma once
// Graphviz DOT text of a graph, for the GUI's layout and for `export --dot`: op
// nodes coloured by family, edges labelled with dtype and static shape, Scan
// bodies (and on request Composite bodies) as clusters whose inner inputs and
// outputs are linked to the outer ones with their category (sit_sot-0, seqs-0...).
// Plain text: the engine never links Graphviz.
#include "ir/Graph.h"

#include <functional>
#include <string>
#include <vector>

namespace tl {

struct DotOptions {
    std::string graphName = "tensorlens";
    std::string rankdir = "TB";     ///< Graphviz rankdir: TB (outputs at the bottom) or LR
    bool expandScans = true;        ///< Scan bodies as clusters
    bool expandComposites = false;  ///< Composite bodies as clusters too
    bool edgeLabels = true;         ///< "float64 (?, 7)" on every edge
    bool showConstants = true;      ///< constants as their own small nodes (else folded into edge labels)
    /// Extra DOT attributes for a node (e.g. `color="red", penwidth=3` to highlight it); may be empty.
    std::function<std::string(const Node&)> nodeAttributes;
};

/// The fill colour of an op's family as "#rrggbb" (trace/GraphFacts' palette, the canvas's).
std::string opFamilyColor(const Op& op);

/// DOT name of a node or variable: "n12" / "v7" in the outer graph, "n12_n3" for node 3
/// of the body of outer node 12 (nested bodies chain further). `scope` lists the
/// outer nodes whose bodies enclose it, outermost first.
std::string dotName(const std::vector<NodeId>& scope, bool isVariable, int64_t id);

/// The whole digraph.
std::string toDot(const Graph& g, const DotOptions& options = {});

} // namespace tl
