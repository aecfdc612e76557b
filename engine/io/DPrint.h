#pragma once
// The dprint printer: PyTensor's debugprint (pytensor/printing.py, 2.31-2.34),
// character for character (docs/semantics.md#dprint-text). Depth first from the outputs, one
// line per variable, [id X] letters per Apply node in printing order, repeated
// nodes as `└─ ···`, then the `Inner graphs:` section for Scan and Composite
// bodies. Iterative: a 5000-deep chain prints without deep recursion.
#include "ir/Graph.h"

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tl {

struct DPrintOptions {
    bool printType = false;        ///< ` <Matrix(float64, shape=(?, 7))>`
    bool printShape = false;       ///< ` shape=(?, 7)`
    bool printDestroyMap = false;  ///< ` d={0: [1]}`
    bool printViewMap = false;     ///< ` v={0: [0]}`
    bool printOpInfo = false;      ///< Scan tags: ` (n_steps)`, ` (outer_in_sit_sot-0)`, ...
    /// The index of each outer node in PyTensor's FunctionGraph.toposort() order
    /// (analysis/PyTensorOrder.h), as debugprint prints for a compiled function.
    bool printTopoIndex = false;
    /// With printTopoIndex: print these indices instead of computing PyTensor's order
    /// (an imported listing's own numbers, DPrintImport::topoIndex). Null: compute.
    const std::unordered_map<const Node*, int>* topoIndexOverride = nullptr;
    bool printInnerGraphs = true;  ///< the `Inner graphs:` section
    int depth = -1;                ///< levels to print below each output (-1: all)
    bool stopOnName = false;       ///< do not expand below a named variable
};

/// One printed line and what it shows, so a view can map lines to nodes and back.
struct DPrintLine {
    enum class Kind {
        Variable,          ///< a variable: an Apply output, an input or a constant
        Repeat,            ///< `└─ ···` below a node printed before (node = that node)
        Blank,             ///< empty separator line
        InnerGraphsTitle,  ///< `Inner graphs:`
        InnerGraphHeader,  ///< the op line heading an inner graph (node = the op's node)
    };
    Kind kind = Kind::Blank;
    std::string text;
    const Graph* graph = nullptr;        ///< graph holding `variable` / `node` (outer or inner)
    const Variable* variable = nullptr;  ///< Variable lines
    const Node* node = nullptr;          ///< owner of `variable`, or the node of Repeat / header lines
    const Node* innerGraphOf = nullptr;  ///< in the Inner graphs section: the node whose body this is
    std::string id;                      ///< "[id B]" of the node or leaf (empty for blank/title)
};

/// The listing with each line's tree drawing (` │  ├─ `) kept apart from the
/// rest. In a deep graph the drawing is most of the text (hundreds of bytes a
/// line at depth 100); a view builds it only for the lines it shows.
struct DPrintListing {
    /// One level of drawing, after the levels of `parent` (-1: none).
    struct Piece {
        int parent;
        std::string_view text;
        int columns;  ///< characters of the drawing up to and including this level
    };
    std::vector<DPrintLine> lines;  ///< `text`: what follows the drawing (empty while deferred)
    std::vector<int> prefix;        ///< per line: its innermost piece (-1: none)
    std::vector<Piece> pieces;
    /// Set when the text of the variables' lines is made on request (deferText):
    /// it reads the graph, which must be unchanged until then.
    struct Formatter;
    std::shared_ptr<Formatter> formatter;

    /// What follows line i's drawing.
    std::string rest(size_t line) const;
    /// Line i whole, drawing included.
    std::string text(size_t line) const;
    /// Characters (not bytes) of line i's drawing, and of the whole line.
    int prefixColumns(size_t line) const;
    int columns(size_t line) const;
};

/// The listing; with `deferText` the variables' lines are only walked (their
/// order and [id X] letters fixed) and their text made by rest()/text() later.
DPrintListing dprintListing(const Graph& g, const DPrintOptions& options = {}, bool deferText = false);
/// The lines of the listing, in order.
std::vector<DPrintLine> dprintLines(const Graph& g, const DPrintOptions& options = {});
/// The listing as PyTensor's debugprint(file="str") returns it: each line ends with '\n'.
std::string dprint(const Graph& g, const DPrintOptions& options = {});

} // namespace tl
