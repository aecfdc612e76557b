// The dprint printer's walk: which lines there are, in PyTensor's order, with
// the [id X] letters handed out as PyTensor does; the text of a variable's line
// is DPrintLineText.cpp's.
#include "io/DPrintPrinter.h"

#include "io/DPrintVocab.h"
#include "io/NumpyFormat.h"
#include "analysis/PyTensorOrder.h"
#include "ir/SliceValue.h"
#include "ops/ScanOp.h"

namespace tl {

using namespace debugprint;

namespace dprint_detail {

const ScanOp* asScan(const Node* n) { return n ? dynamic_cast<const ScanOp*>(&n->op()) : nullptr; }

DPrintListing Printer::run() {
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
    m_slotOfLine.resize(m_listing.lines.size(), -1);
    return std::move(m_listing);
}

void Printer::printInnerGraphs() {
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

const Context& Printer::bodyContext(const Node& node, const Graph& inner) {
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

const GraphNames& Printer::namesOf(const Graph& g, bool compositeStyle) {
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

const std::string& Printer::idOf(const void* key) {
    auto it = m_ids.find(key);
    if (it == m_ids.end()) it = m_ids.emplace(key, idText(static_cast<int64_t>(m_ids.size()))).first;
    m_done.insert(key);
    return it->second;
}

void Printer::collect(const Variable* v, const Context* ctx) {
    const Node* owner = v->owner();
    if (!owner || !owner->op().innerGraph() || m_collected.count(v)) return;
    m_collected.insert(v);
    m_innerVars.push_back({v, ctx});
}

void Printer::drain(Task first) {
    m_stack.push_back(std::move(first));
    while (!m_stack.empty()) {
        Task t = std::move(m_stack.back());
        m_stack.pop_back();
        process(t);
    }
}

void Printer::process(const Task& t) {
    const Variable* var = t.var;
    if (!t.header) collect(var, t.ctx);
    if (t.depth == 0) return;
    if (const Node* node = var->owner()) {
        visitApply(t, *node);
        return;
    }
    const void* key = leafKey(var, t.ctx);
    idOf(key);
    if (auto outer = t.ctx->innerToOuter.find(var); outer != t.ctx->innerToOuter.end())
        idOf(outer->second->owner() ? static_cast<const void*>(outer->second->owner()) : outer->second);
    defer(DPrintLine::Kind::Variable, t, nullptr, key);
}

void Printer::visitApply(const Task& t, const Node& node) {
    const bool alreadyDone = m_done.count(&node) > 0;
    const std::string& id = idOf(&node);
    defer(t.header ? DPrintLine::Kind::InnerGraphHeader : DPrintLine::Kind::Variable, t, &node, &node);
    const bool stops = m_opt.stopOnName && !displayName(t.var, t.ctx).empty();
    if (!alreadyDone && !stops) {
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

const void* Printer::leafKey(const Variable* v, const Context* ctx) {
    auto nom = ctx->names->nominal.find(v);
    if (nom == ctx->names->nominal.end()) return v;
    return m_nominalIds.try_emplace({nom->second, v->type().toString()}, v).first->second;
}

void Printer::defer(DPrintLine::Kind kind, const Task& t, const Node* node, const void* key) {
    m_slotOfLine.resize(m_listing.lines.size(), -1);
    const std::string& id = m_ids.at(key);
    emit(kind, t.prefix, std::string(), t.ctx->graph, t.header ? nullptr : t.var, node, id);
    m_slotOfLine.push_back(static_cast<int>(m_deferred.size()));
    m_deferred.push_back(Deferred{t.var, node, t.parent, t.ctx, key, t.header});
}

int Printer::piece(int parent, std::string_view text) {
    const int before = parent < 0 ? 0 : m_listing.pieces[parent].columns;
    m_listing.pieces.push_back({parent, text, before + utf8Columns(text)});
    return static_cast<int>(m_listing.pieces.size()) - 1;
}

void Printer::emit(DPrintLine::Kind kind, int prefix, std::string text, const Graph* g, const Variable* v, const Node* n, std::string id) {
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

} // namespace dprint_detail

using dprint_detail::Printer;
using dprint_detail::utf8Columns;

struct DPrintListing::Formatter {
    Formatter(const Graph& g, const DPrintOptions& o) : printer(g, o) {}
    Printer printer;
};

std::string DPrintListing::rest(size_t line) const {
    if (formatter)
        if (const int slot = formatter->printer.slots()[line]; slot >= 0) return formatter->printer.rest(static_cast<size_t>(slot));
    return lines[line].text;
}

std::string DPrintListing::text(size_t line) const {
    std::vector<std::string_view> drawing;
    for (int p = prefix[line]; p >= 0; p = pieces[p].parent) drawing.push_back(pieces[p].text);
    std::string out;
    out.reserve(static_cast<size_t>(prefixColumns(line)) * 3 + 64);
    for (auto it = drawing.rbegin(); it != drawing.rend(); ++it) out += *it;
    out += rest(line);
    return out;
}

int DPrintListing::prefixColumns(size_t line) const { return prefix[line] < 0 ? 0 : pieces[prefix[line]].columns; }

int DPrintListing::columns(size_t line) const { return prefixColumns(line) + utf8Columns(rest(line)); }

DPrintListing dprintListing(const Graph& g, const DPrintOptions& options, bool deferText) {
    auto formatter = std::make_shared<DPrintListing::Formatter>(g, options);
    DPrintListing listing = formatter->printer.run();
    if (deferText) {
        listing.formatter = std::move(formatter);
        return listing;
    }
    const std::vector<int>& slots = formatter->printer.slots();
    for (size_t i = 0; i < listing.lines.size(); ++i)
        if (slots[i] >= 0) listing.lines[i].text = formatter->printer.rest(static_cast<size_t>(slots[i]));
    return listing;
}

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
