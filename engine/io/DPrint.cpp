#include "io/DPrint.h"

#include "io/DPrintVocab.h"
#include "io/NumpyFormat.h"
#include "io/PyTensorOrder.h"
#include "ir/SliceValue.h"
#include "ops/ScanOp.h"

#include <deque>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace tl {

using namespace debugprint;

namespace {

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
int utf8Columns(std::string_view s) {
    int n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;  // not a UTF-8 continuation byte
    return n;
}

const ScanOp* asScan(const Node* n) { return n ? dynamic_cast<const ScanOp*>(&n->op()) : nullptr; }

class Printer {
public:
    Printer(const Graph& g, const DPrintOptions& o) : m_graph(g), m_opt(o) {}

    DPrintListing run() {
        // About one id and one line per node: no rehashing on the way.
        m_ids.reserve(2 * m_graph.nodes().size());
        m_done.reserve(2 * m_graph.nodes().size());
        if (m_opt.printTopoIndex && m_opt.topoIndexOverride) {
            m_topo = *m_opt.topoIndexOverride;
        } else if (m_opt.printTopoIndex) {
            auto order = pytensorToposort(m_graph);
            for (size_t i = 0; i < order.size(); ++i) m_topo[order[i]] = static_cast<int>(i);
        }
        Context& outer = m_contexts.emplace_back();
        outer.graph = &m_graph;
        outer.names = &namesOf(m_graph, false);
        outer.topo = m_opt.printTopoIndex ? &m_topo : nullptr;
        for (const Variable* out : m_graph.outputs()) drain(Task{out, -1, -1, out->owner(), &outer, m_opt.depth, false});
        if (m_opt.printInnerGraphs && !m_innerVars.empty()) printInnerGraphs();
        return std::move(m_listing);
    }

private:
    void printInnerGraphs() {
        emit(DPrintLine::Kind::Blank, -1, "");
        emit(DPrintLine::Kind::InnerGraphsTitle, -1, std::string(kInnerGraphsTitle));
        std::unordered_set<const Node*> printed;
        // m_innerVars grows while we print: nested bodies are appended and printed in turn.
        for (size_t i = 0; i < m_innerVars.size(); ++i) {
            auto [var, where] = m_innerVars[i];
            const Node* node = var->owner();
            if (!printed.insert(node).second) continue;
            std::shared_ptr<const Graph> inner = node->op().innerGraph();
            if (!inner) continue;
            const Context& body = bodyContext(*node, *inner);
            emit(DPrintLine::Kind::Blank, -1, "");
            m_section = node;
            drain(Task{var, -1, -1, node, where, m_opt.depth, true});
            for (const Variable* out : inner->outputs())
                drain(Task{out, piece(-1, kInnerOutput), piece(-1, kInnerChild), node, &body, m_opt.depth, false});
        }
    }

    const Context& bodyContext(const Node& node, const Graph& inner) {
        const ScanOp* scan = asScan(&node);
        Context& c = m_contexts.emplace_back();
        c.graph = &inner;
        // Composite bodies (of an Elemwise, a scalar, or a CAReduce{Composite}) name their
        // variables i<k>/o<k>/t<k>; Scan and OpFromGraph bodies print their inputs as
        // `*k-<Type>` (only Scan's point at outer inputs).
        const OpKind kind = node.op().kind();
        const bool composite = kind == OpKind::Elemwise || kind == OpKind::Scalar || kind == OpKind::Reduce;
        c.names = &namesOf(inner, composite);
        c.innerGraphNode = &node;
        if (scan) {
            std::vector<int> map = scanInnerToOuterInput(scan->info());
            for (size_t k = 0; k < map.size() && k < inner.inputs().size(); ++k)
                if (map[k] >= 0 && map[k] < node.numInputs()) c.innerToOuter[inner.inputs()[k]] = node.input(map[k]);
        }
        return c;
    }

    // Names as PyTensor shows them. Scan bodies: inputs are NominalVariables
    // (`*k-<Type>`). Composite bodies: Composite.__str__ names inputs i<k>, outputs
    // o<k> and shared intermediates t<index>; ops/Composite already stores these,
    // this only fills in names a graph lacks.
    const GraphNames& namesOf(const Graph& g, bool compositeStyle) {
        auto [it, fresh] = m_names.try_emplace(&g);
        GraphNames& n = it->second;
        if (!fresh) return n;
        bool scanBody = &g != &m_graph && !compositeStyle;
        if (scanBody)
            for (size_t k = 0; k < g.inputs().size(); ++k) n.nominal[g.inputs()[k]] = static_cast<int>(k);
        if (!compositeStyle) return n;
        std::unordered_set<const Variable*> io;
        for (size_t k = 0; k < g.inputs().size(); ++k) {
            io.insert(g.inputs()[k]);
            if (g.inputs()[k]->name().empty()) n.names[g.inputs()[k]] = "i" + std::to_string(k);
        }
        for (size_t k = 0; k < g.outputs().size(); ++k) {
            io.insert(g.outputs()[k]);
            if (g.outputs()[k]->name().empty()) n.names[g.outputs()[k]] = "o" + std::to_string(k);
        }
        std::vector<const Variable*> vars(g.inputs().begin(), g.inputs().end());
        std::unordered_set<const Variable*> seen(vars.begin(), vars.end());
        auto order = g.toposort();
        for (const Node* node : order)
            for (const Variable* v : node->inputs())
                if (v->isConstant() && seen.insert(v).second) vars.push_back(v);
        for (const Node* node : order)
            for (const Variable* v : node->outputs())
                if (seen.insert(v).second) vars.push_back(v);
        for (size_t k = 0; k < vars.size(); ++k) {
            const Variable* v = vars[k];
            if (v->isConstant() || io.count(v) || !v->name().empty() || v->clients().size() < 2) continue;
            n.names[v] = "t" + std::to_string(k);
        }
        return n;
    }

    std::string displayName(const Variable* v, const Context* ctx) const {
        auto it = ctx->names->names.find(v);
        return it != ctx->names->names.end() ? it->second : v->name();
    }

    // PyTensor's get_id_str: the first request hands out the next letters.
    const std::string& idOf(const void* key) {
        auto it = m_ids.find(key);
        if (it == m_ids.end()) it = m_ids.emplace(key, idText(static_cast<int64_t>(m_ids.size()))).first;
        m_done.insert(key);
        return it->second;
    }

    // op_debug_information: only Scan nodes carry tags.
    const TagMap* tagsOf(const Node* n) {
        if (!m_opt.printOpInfo || !n) return nullptr;
        const ScanOp* scan = asScan(n);
        if (!scan) return nullptr;
        auto it = m_tags.find(n);
        if (it == m_tags.end()) {
            TagMap m;
            {
                ScanTags t = scanTags(scan->info());
                auto assign = [&](const std::vector<std::string>& tags, const std::vector<Variable*>& vars) {
                    // In position order, so a variable at two positions keeps the later tag.
                    for (size_t k = 0; k < tags.size() && k < vars.size(); ++k)
                        if (!tags[k].empty()) m[vars[k]] = tags[k];
                };
                assign(t.outerInputs, n->inputs());
                assign(t.outerOutputs, n->outputs());
                if (auto inner = n->op().innerGraph()) {
                    assign(t.innerInputs, inner->inputs());
                    assign(t.innerOutputs, inner->outputs());
                }
            }
            it = m_tags.emplace(n, std::move(m)).first;
        }
        return it->second.empty() ? nullptr : &it->second;
    }

    void collect(const Variable* v, const Context* ctx) {
        const Node* owner = v->owner();
        if (!owner || !owner->op().innerGraph() || m_collected.count(v)) return;
        m_collected.insert(v);
        m_innerVars.push_back({v, ctx});
    }

    void drain(Task first) {
        m_stack.push_back(std::move(first));
        while (!m_stack.empty()) {
            Task t = std::move(m_stack.back());
            m_stack.pop_back();
            process(t);
        }
    }

    void process(const Task& t) {
        const Variable* var = t.var;
        if (!t.header) collect(var, t.ctx);
        if (t.depth == 0) return;
        std::string typeStr = m_opt.printType ? " <" + var->type().toString() + ">" : std::string();
        std::string shapeStr = m_opt.printShape ? " shape=" + Type::shapeString(var->type().shape) : std::string();
        if (const Node* node = var->owner()) {
            printApply(t, *node, typeStr, shapeStr);
            return;
        }
        const void* key = leafKey(var, t.ctx);
        std::string text = leafText(var, t.ctx) + " " + idOf(key) + typeStr + shapeStr;
        auto outer = t.ctx->innerToOuter.find(var);
        if (outer != t.ctx->innerToOuter.end()) {
            const Variable* ov = outer->second;
            text += std::string(kInnerToOuter) + (ov->owner() ? idOf(ov->owner()) : idOf(ov));
        }
        const Node* candidates[2] = {t.ctx->innerGraphNode, t.parent};
        for (int k = 0; k < 2; ++k) {
            if (!candidates[k] || (k == 1 && candidates[1] == candidates[0])) continue;
            if (const TagMap* tags = tagsOf(candidates[k])) {
                auto it = tags->find(var);
                if (it != tags->end()) text += " (" + it->second + ")";
            }
        }
        emit(DPrintLine::Kind::Variable, t.prefix, std::move(text), t.ctx->graph, var, nullptr, m_ids[key]);
    }

    void printApply(const Task& t, const Node& node, const std::string& typeStr, const std::string& shapeStr) {
        const Variable* var = t.var;
        std::string name = displayName(var, t.ctx);
        std::string nameStr = name.empty() ? std::string() : " '" + name + "'";
        std::string mapsStr;
        if (m_opt.printDestroyMap) {
            AliasMap d = node.op().destroyMap();
            if (!d.empty()) mapsStr += " d=" + aliasMapText(d);
        }
        if (m_opt.printViewMap) {
            AliasMap v = node.op().viewMap();
            if (!v.empty()) mapsStr += " v=" + aliasMapText(v);
        }
        std::string topoStr;
        if (t.ctx->topo && !t.header) {
            auto it = t.ctx->topo->find(&node);
            if (it != t.ctx->topo->end()) topoStr = " " + std::to_string(it->second);
        }
        const bool alreadyDone = m_done.count(&node) > 0;
        const std::string id = idOf(&node);
        std::string text;
        if (t.header) {
            text = node.op().name() + " " + id + mapsStr;
        } else {
            std::string outIdx = node.numOutputs() == 1 ? std::string() : "." + std::to_string(var->outputIndex());
            text = node.op().name() + outIdx + " " + id + typeStr + shapeStr + nameStr + mapsStr + topoStr;
            const TagMap* tags = tagsOf(t.parent);
            if (!tags) tags = tagsOf(&node);
            if (tags) {
                auto it = tags->find(var);
                if (it != tags->end()) text += " (" + it->second + ")";
            }
        }
        emit(t.header ? DPrintLine::Kind::InnerGraphHeader : DPrintLine::Kind::Variable, t.prefix, std::move(text), t.ctx->graph,
             t.header ? nullptr : var, &node, id);
        if (!alreadyDone && !(m_opt.stopOnName && !name.empty())) {
            const int n = node.numInputs();
            for (int i = n - 1; i >= 0; --i) {
                const bool last = i == n - 1;
                m_stack.push_back(Task{node.input(i), piece(t.prefixChild, last ? kLastBranch : kBranch),
                                       piece(t.prefixChild, last ? kBlank : kPipe), &node, t.ctx,
                                       t.depth < 0 ? t.depth : t.depth - 1, false});
            }
        } else if (!t.header) {
            emit(DPrintLine::Kind::Repeat, t.prefixChild, std::string(kRepeat), t.ctx->graph, nullptr, &node, id);
        }
    }

    // PyTensor's NominalVariable is one object per (position, type): `*0-<Vector(float64,
    // shape=(6,))>` has one id in every Scan and OpFromGraph body that has it.
    const void* leafKey(const Variable* v, const Context* ctx) {
        auto nom = ctx->names->nominal.find(v);
        if (nom == ctx->names->nominal.end()) return v;
        return m_nominalIds.try_emplace({nom->second, v->type().toString()}, v).first->second;
    }

    std::string leafText(const Variable* v, const Context* ctx) const {
        if (v->isConstant() && v->type().isSliceType()) {
            // PyTensor's SliceConstant.__str__, whatever its name.
            auto b = readSliceValue(v->constantValue());
            return "SliceConstant{" + (b ? sliceBoundsText(*b) : std::string("?")) + "}";
        }
        if (v->isConstant() && v->type().isNoneType()) return v->name().empty() ? "None" : v->name() + "{None}";
        if (v->isConstant()) return constantStr(v->constantValue(), v->name());
        std::string name = displayName(v, ctx);
        std::string shown = name.empty() ? "<" + v->type().toString() + ">" : name;
        auto nom = ctx->names->nominal.find(v);
        if (nom != ctx->names->nominal.end()) return "*" + std::to_string(nom->second) + "-" + shown;
        return shown;
    }

    int piece(int parent, std::string_view text) {
        const int before = parent < 0 ? 0 : m_listing.pieces[parent].columns;
        m_listing.pieces.push_back({parent, text, before + utf8Columns(text)});
        return static_cast<int>(m_listing.pieces.size()) - 1;
    }

    void emit(DPrintLine::Kind kind, int prefix, std::string text, const Graph* g = nullptr, const Variable* v = nullptr,
              const Node* n = nullptr, std::string id = {}) {
        DPrintLine line;
        line.kind = kind;
        line.text = std::move(text);
        line.graph = g;
        line.variable = v;
        line.node = n ? n : (v ? v->owner() : nullptr);
        line.innerGraphOf = m_section;
        line.id = std::move(id);
        m_listing.lines.push_back(std::move(line));
        m_listing.prefix.push_back(prefix);
    }

    const Graph& m_graph;
    const DPrintOptions& m_opt;
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
    const Node* m_section = nullptr;
};

} // namespace

std::string DPrintListing::text(size_t line) const {
    std::vector<std::string_view> drawing;
    size_t bytes = lines[line].text.size();
    for (int p = prefix[line]; p >= 0; p = pieces[p].parent) {
        drawing.push_back(pieces[p].text);
        bytes += pieces[p].text.size();
    }
    std::string out;
    out.reserve(bytes);
    for (auto it = drawing.rbegin(); it != drawing.rend(); ++it) out += *it;
    out += lines[line].text;
    return out;
}

int DPrintListing::columns(size_t line) const {
    return (prefix[line] < 0 ? 0 : pieces[prefix[line]].columns) + utf8Columns(lines[line].text);
}

DPrintListing dprintListing(const Graph& g, const DPrintOptions& options) { return Printer(g, options).run(); }

std::vector<DPrintLine> dprintLines(const Graph& g, const DPrintOptions& options) {
    DPrintListing listing = dprintListing(g, options);
    for (size_t i = 0; i < listing.lines.size(); ++i)
        if (listing.prefix[i] >= 0) listing.lines[i].text = listing.text(i);
    return std::move(listing.lines);
}

std::string dprint(const Graph& g, const DPrintOptions& options) {
    std::string out;
    for (const DPrintLine& line : dprintLines(g, options)) {
        out += line.text;
        out += '\n';
    }
    return out;
}

} // namespace tl
