#pragma once
// Private to engine/io: the dprint printer's state and walk (DPrint.cpp) and
// the text of a variable's line (DPrintLineText.cpp). DPrint.h is the interface.
#include "io/DPrint.h"
#include "ops/ScanOp.h"

#include <deque>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace tl::dprint_detail {

using TagMap = std::unordered_map<const Variable*, std::string>;

// How the variables of one graph print: names PyTensor would show, and for
// Scan bodies the nominal `*k-` inputs.
struct GraphNames {
    std::unordered_map<const Variable*, std::string> names;  // overrides Variable::name()
    std::unordered_map<const Variable*, int> nominal;        // Scan inner input -> k
};

// One graph being printed: the outer graph, or the body of one inner-graph node.
struct Context {
    const Graph* graph = nullptr;
    const GraphNames* names = nullptr;
    const Node* innerGraphNode = nullptr;                               // whose body this is (null: outer)
    std::unordered_map<const Variable*, const Variable*> innerToOuter;  // Scan bodies only
    const std::unordered_map<const Node*, int>* topo = nullptr;         // outer graph with printTopoIndex
};

// One pending _debugprint call. Prefixes are pieces of DPrintListing::pieces
// (-1: none), so a child's costs one piece, not a copy of its parent's.
struct Task {
    const Variable* var;
    int prefix, prefixChild;
    const Node* parent;
    const Context* ctx;
    int depth;
    bool header;
};

// Characters, not bytes: the drawing's box characters take three bytes each.
inline int utf8Columns(std::string_view s) {
    int n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;  // not a UTF-8 continuation byte
    return n;
}

const ScanOp* asScan(const Node* n);

class Printer {
public:
    Printer(const Graph& g, const DPrintOptions& o) : m_graph(g), m_opt(o) {}
    Printer(const Printer&) = delete;
    Printer& operator=(const Printer&) = delete;

    /// Walks the graph: every line, its drawing and its [id X]; the text of the
    /// variables' lines is left to rest().
    DPrintListing run();
    /// A variable's line after its drawing: `name [id X] <type> shape=... 'name' d=... (tag)`.
    std::string rest(size_t slot);
    /// Per line: its slot for rest(), or -1 when its text is already made.
    const std::vector<int>& slots() const { return m_slotOfLine; }

private:
    void printInnerGraphs();

    const Context& bodyContext(const Node& node, const Graph& inner);

    // Names as PyTensor shows them. Scan bodies: inputs are NominalVariables
    // (`*k-<Type>`). Composite bodies: Composite.__str__ names inputs i<k>, outputs
    // o<k> and shared intermediates t<index>; ops/Composite already stores these,
    // this only fills in names a graph lacks.
    const GraphNames& namesOf(const Graph& g, bool compositeStyle);

    std::string displayName(const Variable* v, const Context* ctx) const;

    // PyTensor's get_id_str: the first request hands out the next letters.
    const std::string& idOf(const void* key);

    // op_debug_information: only Scan nodes carry tags.
    const TagMap* tagsOf(const Node* n);

    void collect(const Variable* v, const Context* ctx);

    void drain(Task first);

    // The walk: which lines there are, in order, and the [id X] letters in the
    // order PyTensor hands them out. A variable's line text is made by rest().
    void process(const Task& t);

    void visitApply(const Task& t, const Node& node);

    // PyTensor's NominalVariable is one object per (position, type): `*0-<Vector(float64,
    // shape=(6,))>` has one id in every Scan and OpFromGraph body that has it.
    const void* leafKey(const Variable* v, const Context* ctx);

    std::string leafText(const Variable* v, const Context* ctx) const;

    void defer(DPrintLine::Kind kind, const Task& t, const Node* node, const void* key);

    int piece(int parent, std::string_view text);

    void emit(DPrintLine::Kind kind, int prefix, std::string text, const Graph* g = nullptr, const Variable* v = nullptr, const Node* n = nullptr, std::string id = {});

    const Graph& m_graph;
    const DPrintOptions m_opt;  // a copy: rest() may run after the caller's options are gone
    std::deque<Context> m_contexts;  // stable addresses: tasks point into it
    std::unordered_map<const Graph*, GraphNames> m_names;
    std::unordered_map<const Node*, int> m_topo;
    std::unordered_map<const void*, std::string> m_ids;  // Node* or leaf Variable* -> "[id X]"
    std::map<std::pair<int, std::string>, const Variable*> m_nominalIds;  // (k, type) -> the variable whose id it uses
    std::unordered_set<const void*> m_done;
    std::unordered_map<const Node*, TagMap> m_tags;
    std::vector<std::pair<const Variable*, const Context*>> m_innerVars;
    std::unordered_set<const Variable*> m_collected;
    std::vector<Task> m_stack;
    DPrintListing m_listing;
    // What rest() needs of a variable's line.
    struct Deferred {
        const Variable* var;
        const Node* node;  // its owner; null for an input or constant
        const Node* parent;
        const Context* ctx;
        const void* key;  // whose [id X] it shows
        bool header;
    };
    std::vector<Deferred> m_deferred;
    std::vector<int> m_slotOfLine;
    const Node* m_section = nullptr;
};

} // namespace tl::dprint_detail
