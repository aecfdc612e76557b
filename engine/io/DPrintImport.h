#pragma once
// The dprint importer: reads the text of PyTensor's debugprint (as pasted into a
// GitHub issue) and rebuilds the graph it shows, so the printer (io/DPrint.h)
// gives the same lines back. It reads every debugprint option (types, shapes,
// destroy/view maps, op info, topological indices), the `Inner graphs:` section
// (Scan and Composite bodies), `···` back-references, multi-output `.0/.1`
// nodes, `*0-<Type> ... -> [id X]` inner inputs, and constants printed by value.
//
// What the text does not say is never guessed silently: every inference (a Scan
// layout read from links instead of op-info tags, a dtype the listing did not
// print, a Composite rebuilt from its name) is listed in `notes`, and what cannot
// be rebuilt (an op tensorlens does not know, an elided array constant, a Scan
// whose body was not printed) becomes an Opaque node (ops/Opaque.h) that is
// drawn, printed and saved but not executed. Malformed text (truncated, garbled
// tree characters, an unknown [id X], a wrong type string, lines of two listings
// mixed up) throws FormatError with the line number and what was expected.
#include "io/DPrint.h"
#include "ir/Graph.h"

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tl {

struct DPrintImport {
    std::unique_ptr<Graph> graph;
    /// What was inferred and what is opaque, one sentence each, naming the line.
    std::vector<std::string> notes;
    /// The debugprint options the text shows (printType if it prints `<Type>`s, ...):
    /// printing `graph` with them gives the listing back.
    DPrintOptions options;
    /// The topological index each outer node printed (empty when the listing has none).
    /// dprint recomputes PyTensor's order; where an older PyTensor numbered nodes
    /// otherwise, a note says so and these numbers can be passed back through
    /// DPrintOptions::topoIndexOverride.
    std::unordered_map<const Node*, int> topoIndex;
};

/// Types of the outer inputs by name, for a listing printed without types (plain
/// `pytensor.dprint(f)`): the types of the values the graph is to run with. A printed
/// type wins over these.
using DPrintInputTypes = std::unordered_map<std::string, Type>;

/// Parses a debugprint listing. `sourceName` (a file name) is put in front of error
/// messages. Lines may carry a `# ` comment prefix (as when pasted after a Python
/// prompt) and trailing whitespace; blank lines are ignored.
/// Throws FormatError("line N", what was expected) on malformed text; never crashes.
DPrintImport importDprint(std::string_view text, const std::string& sourceName = {}, const DPrintInputTypes& inputTypes = {});

} // namespace tl
