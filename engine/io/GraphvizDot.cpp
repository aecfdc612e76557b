#include "io/GraphvizDot.h"

#include "io/DPrintVocab.h"
#include "io/NumpyFormat.h"
#include "ops/ScanOp.h"
#include "trace/GraphFacts.h"

#include <cstdio>
#include <unordered_map>

namespace tl {

namespace {

std::string quote(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + "\"";
}

std::string typeLabel(const Type& t) {
    if (t.isScalarType()) return std::string(dtypeName(t.dtype));
    return std::string(dtypeName(t.dtype)) + " " + Type::shapeString(t.shape);
}

// "outer_in_sit_sot-0" / "inner_out_mit_sot-0-1" -> "sit_sot-0" / "mit_sot-0-1".
std::string categoryOf(const std::string& tag) {
    for (const char* p : {"outer_in_", "outer_out_", "inner_in_", "inner_out_"}) {
        std::string prefix(p);
        if (tag.rfind(prefix, 0) == 0) return tag.substr(prefix.size());
    }
    return tag;
}

// One graph to draw: the outer graph or the body of `owner` (a Scan or Composite node).
struct Scope {
    const Graph* graph;
    std::vector<NodeId> path;  // enclosing outer nodes, outermost first
    const Node* owner;         // null for the outer graph
    bool close;                // the frame that writes the cluster's closing brace
};

class DotWriter {
public:
    DotWriter(const Graph& g, const DotOptions& o) : m_graph(g), m_opt(o) {}

    std::string run() {
        m_out = "digraph " + quote(m_opt.graphName) + " {\n";
        m_out += "  rankdir=" + m_opt.rankdir + ";\n  compound=true;\n";
        m_out += "  node [fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=8];\n";
        // Explicit stack of scopes (open, then children, then close) instead of recursion.
        std::vector<Scope> stack{{&m_graph, {}, nullptr, false}};
        while (!stack.empty()) {
            Scope s = std::move(stack.back());
            stack.pop_back();
            std::string indent(2 * (s.path.size() + 1), ' ');
            if (s.close) {
                m_out += std::string(2 * s.path.size(), ' ') + "}\n";
                continue;
            }
            if (s.owner) {
                std::string clusterName = "cluster";
                for (NodeId id : s.path) clusterName += "_n" + std::to_string(id);
                m_out += std::string(2 * s.path.size(), ' ') + "subgraph " + quote(clusterName) + " {\n";
                m_out += indent + "label=" + quote(s.owner->op().name() + " body") + ";\n";
                m_out += indent + "style=\"rounded,filled\"; fillcolor=\"#f8f9fa\"; color=\"#adb5bd\";\n";
                stack.push_back(Scope{s.graph, s.path, s.owner, true});
            }
            writeScope(s, indent);
            // Children in reverse so they come out in node order.
            std::vector<Scope> children;
            for (const Node* n : s.graph->toposort()) {
                auto inner = n->op().innerGraph();
                if (!inner || !expands(*n)) continue;
                std::vector<NodeId> path = s.path;
                path.push_back(n->id());
                children.push_back(Scope{inner.get(), std::move(path), n, false});
            }
            for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
        }
        m_out += m_edges;
        m_out += "}\n";
        return std::move(m_out);
    }

private:
    bool expands(const Node& n) const {
        if (dynamic_cast<const ScanOp*>(&n.op())) return m_opt.expandScans;
        return m_opt.expandComposites;
    }

    std::string sourceOf(const Variable* v, const std::vector<NodeId>& path) const {
        if (v->owner()) return dotName(path, false, v->owner()->id());
        return dotName(path, true, v->id());
    }

    std::string edgeLabel(const Variable* v) const {
        if (!m_opt.edgeLabels) return {};
        std::string l = typeLabel(v->type());
        if (v->owner() && v->owner()->numOutputs() > 1) l = "." + std::to_string(v->outputIndex()) + " " + l;
        return l;
    }

    void edge(const std::string& from, const std::string& to, const std::string& label, const std::string& extra = {}) {
        m_edges += "  " + quote(from) + " -> " + quote(to);
        std::string attrs;
        if (!label.empty()) attrs = "label=" + quote(label);
        if (!extra.empty()) attrs += (attrs.empty() ? "" : ", ") + extra;
        if (!attrs.empty()) m_edges += " [" + attrs + "]";
        m_edges += ";\n";
    }

    void writeScope(const Scope& s, const std::string& indent) {
        const Graph& g = *s.graph;
        const ScanOp* scan = s.owner ? dynamic_cast<const ScanOp*>(&s.owner->op()) : nullptr;
        debugprint::ScanTags tags;
        std::vector<int> innerToOuter;
        if (scan) {
            tags = debugprint::scanTags(scan->info());
            innerToOuter = debugprint::scanInnerToOuterInput(scan->info());
        }
        // Inputs: named graph inputs, Scan placeholders (*k), Composite inputs (i<k>).
        for (size_t k = 0; k < g.inputs().size(); ++k) {
            const Variable* in = g.inputs()[k];
            std::string label = in->name();
            if (scan) label = "*" + std::to_string(k) + (label.empty() ? "" : "-" + label);
            if (label.empty()) label = s.owner ? "i" + std::to_string(k) : "<" + in->type().toString() + ">";
            label += "\n" + typeLabel(in->type());
            m_out += indent + quote(dotName(s.path, true, in->id())) + " [shape=ellipse, style=filled, fillcolor=\"#ffffff\", label=" +
                     quote(label) + "];\n";
            if (s.owner) linkInner(s, k, scan, tags, innerToOuter);
        }
        if (m_opt.showConstants)
            for (const Variable* c : g.constants())
                if (!c->clients().empty())
                    m_out += indent + quote(dotName(s.path, true, c->id())) +
                             " [shape=box, style=\"rounded,dashed\", fontsize=8, label=" +
                             quote(constantStr(c->constantValue(), c->name())) + "];\n";
        for (const Node* n : g.toposort()) {
            std::string attrs = "shape=box, style=\"rounded,filled\", fillcolor=" + quote(opFamilyColor(n->op())) +
                                ", label=" + quote(n->op().name()) + ", tooltip=" + quote(n->label());
            if (!n->op().destroyMap().empty()) attrs += ", color=\"#dc3545\", penwidth=2";
            if (m_opt.nodeAttributes) {
                std::string extra = m_opt.nodeAttributes(*n);
                if (!extra.empty()) attrs += ", " + extra;
            }
            m_out += indent + quote(dotName(s.path, false, n->id())) + " [" + attrs + "];\n";
            for (const Variable* v : n->inputs()) {
                if (v->isConstant() && !m_opt.showConstants) continue;
                edge(sourceOf(v, s.path), dotName(s.path, false, n->id()), edgeLabel(v));
            }
        }
        // Outputs: the outer graph's as small sink nodes, a body's linked to its owner.
        for (size_t k = 0; k < g.outputs().size(); ++k) {
            const Variable* out = g.outputs()[k];
            if (!s.owner) {
                std::string sink = "out" + std::to_string(k);
                std::string label = out->name().empty() ? "output " + std::to_string(k) : out->name();
                m_out += indent + quote(sink) + " [shape=plaintext, label=" + quote(label) + "];\n";
                edge(sourceOf(out, s.path), sink, edgeLabel(out));
                continue;
            }
            std::string label;
            if (scan) label = k < tags.innerOutputs.size() ? categoryOf(tags.innerOutputs[k]) : "";
            if (scan && label.empty()) label = "until";
            if (!scan) label = "o" + std::to_string(k);
            std::vector<NodeId> ownerPath(s.path.begin(), s.path.end() - 1);
            edge(sourceOf(out, s.path), dotName(ownerPath, false, s.owner->id()), label,
                 "style=dashed, color=\"#6f42c1\", fontcolor=\"#6f42c1\", constraint=false");
        }
    }

    // The outer input that inner input k of `s.owner` stands for, linked with its category.
    void linkInner(const Scope& s, size_t k, const ScanOp* scan, const debugprint::ScanTags& tags,
                   const std::vector<int>& innerToOuter) {
        const Node& owner = *s.owner;
        int outerIndex = static_cast<int>(k);
        std::string label = "i" + std::to_string(k);
        if (scan) {
            if (k >= innerToOuter.size()) return;
            outerIndex = innerToOuter[k];
            label = k < tags.innerInputs.size() ? categoryOf(tags.innerInputs[k]) : "";
        }
        if (outerIndex < 0 || outerIndex >= owner.numInputs()) return;
        const Variable* outer = owner.input(outerIndex);
        if (outer->isConstant() && !m_opt.showConstants) return;
        std::vector<NodeId> ownerPath(s.path.begin(), s.path.end() - 1);
        edge(sourceOf(outer, ownerPath), dotName(s.path, true, s.graph->inputs()[k]->id()), label,
             "style=dashed, color=\"#6f42c1\", fontcolor=\"#6f42c1\"");
    }

    const Graph& m_graph;
    const DotOptions& m_opt;
    std::string m_out;
    std::string m_edges;
};

} // namespace

std::string opFamilyColor(const Op& op) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "#%06x", static_cast<unsigned>(opFamilyRgb(opFamily(op))));
    return hex;
}

std::string dotName(const std::vector<NodeId>& scope, bool isVariable, int64_t id) {
    std::string s;
    for (NodeId n : scope) s += "n" + std::to_string(n) + "_";
    return s + (isVariable ? "v" : "n") + std::to_string(id);
}

std::string toDot(const Graph& g, const DotOptions& options) { return DotWriter(g, options).run(); }

} // namespace tl
