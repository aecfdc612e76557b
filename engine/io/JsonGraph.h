#pragma once
// The versioned JSON graph format (docs/graph-format.md, resources/graph.schema.json):
//   {"format": "tensorlens-graph", "version": 1, "graph": {inputs, constants, nodes,
//    outputs, next_node_id, next_var_id}}
// Nodes hold their op kind, params and inner graph (recursively), so every op is
// rebuilt by makeOp. Save -> load -> save is byte-identical.
#include "io/FormatError.h"
#include "ir/Graph.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace tl {

inline constexpr const char* kGraphFormatName = "tensorlens-graph";
inline constexpr int kGraphFormatVersion = 1;
/// Inner graphs nested deeper than this are rejected (Scan in Scan in ...).
inline constexpr int kMaxInnerGraphNesting = 32;

/// The whole document {"format", "version", "graph"}.
nlohmann::json graphToJson(const Graph& g);
/// Just the "graph" object (also the form of inner graphs and of graphs embedded in traces).
nlohmann::json graphBodyToJson(const Graph& g);

/// Rebuilds a graph from a document; throws FormatError naming the JSON path
/// ("/graph/nodes/12/inputs/1: unknown variable 57"). Never crashes on bad input.
std::unique_ptr<Graph> graphFromJson(const nlohmann::json& doc);
/// From a "graph" object; `path` prefixes error paths ("/graph").
std::unique_ptr<Graph> graphBodyFromJson(const nlohmann::json& body, const std::string& path);

/// Canonical text of graphToJson (sorted keys, fixed layout, trailing newline).
std::string graphToJsonText(const Graph& g);
/// Parses text then graphFromJson; malformed JSON reports "line L, column C".
/// `sourceName` (a file name) is put in front of error messages when given.
std::unique_ptr<Graph> graphFromJsonText(std::string_view text, const std::string& sourceName = {});

/// Writes graphToJsonText to `path`; throws std::runtime_error if the file cannot be written.
void saveGraph(const std::string& path, const Graph& g);
/// Reads a graph file; FormatError messages start with the file name.
std::unique_ptr<Graph> loadGraph(const std::string& path);

} // namespace tl
