// Entities, scopes and the explicit build stack of the dprint importer (see
// io/DPrintImportBuilder.h) and the top-level importDprint; leaves (inputs and
// constants) are in DPrintImportLeaves.cpp.
#include "io/DPrintImportBuilder.h"

#include "io/DPrintVocab.h"
#include "analysis/PyTensorOrder.h"

#include <algorithm>

namespace tl::dpimport {

using debugprint::idLetters;

namespace {

std::string idName(int64_t id) { return "[id " + idLetters(id) + "]"; }

} // namespace

Builder::Builder(Listing& listing, DPrintImport& out, const DPrintInputTypes& inputTypes)
    : m_l(listing), m_out(out), m_inputTypes(inputTypes) {}

void Builder::note(int line, const std::string& text) { m_out.notes.push_back(lineRef(line) + ": " + text); }

GraphAssembler& Builder::graphOf(int scope) { return *m_scopes[static_cast<size_t>(scope)].graph; }

std::string Builder::baseName(const Entity& e) const {
    int k = -1;
    return stripOutputIndex(occ(e.def).head, &k);
}

void Builder::run() {
    classify();
    detectOptions();
    m_scopes[0].graph = std::make_unique<GraphAssembler>();
    createOuterInputs();
    buildAll();
    m_out.graph = m_scopes[0].graph->finish();
    // The printed topological indices, and whether PyTensor's order (analysis/PyTensorOrder.h) gives them again.
    for (const Entity& e : m_entities) {
        if (!e.node || e.scope != 0) continue;
        for (int i : e.occs)
            if (occ(i).attrs.topo) m_out.topoIndex[e.node] = static_cast<int>(*occ(i).attrs.topo);
    }
    if (!m_out.topoIndex.empty()) {
        std::vector<const Node*> order;
        for (const Node* n : pytensorToposort(*m_out.graph))
            if (!m_leafStandIns.count(n)) order.push_back(n);
        std::string differ;
        for (size_t i = 0; i < order.size(); ++i) {
            auto it = m_out.topoIndex.find(order[i]);
            if (it != m_out.topoIndex.end() && it->second != static_cast<int>(i))
                differ += (differ.empty() ? "" : ", ") + std::to_string(it->second) + " -> " + std::to_string(i);
        }
        if (!differ.empty())
            note(m_l.occs.front().line, "the printed topological indices differ from PyTensor's order for this graph (" +
                                            differ + "); DPrintImport::topoIndex keeps the printed ones");
    }
}

void Builder::classify() {
    for (size_t i = 0; i < m_l.occs.size(); ++i) {
        auto [it, fresh] = m_byId.try_emplace(m_l.occs[i].id, static_cast<int>(m_entities.size()));
        if (fresh) {
            m_entities.emplace_back();
            m_entities.back().id = m_l.occs[i].id;
        }
        m_entities[static_cast<size_t>(it->second)].occs.push_back(static_cast<int>(i));
    }
    m_scopes.resize(m_l.sections.size());
    m_scopeEntities.resize(m_l.sections.size());
    m_sectionNominals.resize(m_l.sections.size());
    for (Entity& e : m_entities) {
        for (int i : e.occs) {
            const Occ& o = occ(i);
            const Attrs& a = o.attrs;
            if (o.header || !o.children.empty() || o.repeat || a.topo || a.destroy || a.view || a.name) e.apply = true;
            if (!o.header && e.def < 0) e.def = i;
            if (o.header) {
                if (e.section >= 0) fail(o.line, "a second inner graph for " + idName(e.id));
                e.section = o.section;
            }
        }
        if (e.def < 0) {
            // Only the inner-graph header shows it: PyTensor's dprint collects the inner
            // graphs of a node's inputs before the depth limit cuts those inputs off. Its
            // body is left out; a `-> [id X]` link to it names an unprinted variable.
            const Occ& h = occ(e.occs.front());
            if (m_orphanSections.count(h.section) || m_l.sections[static_cast<size_t>(h.section)].header != e.occs.front())
                fail(h.line, "the inner graph of " + idName(e.id) + ", which no graph above shows");
            m_orphanSections.insert(h.section);
            note(h.line, "the inner graph of " + idName(e.id) + " belongs to a node the depth limit cut off: not imported");
            continue;
        }
        const Occ& d = occ(e.def);
        e.scope = d.section;
        if (e.section >= 0 && e.scope >= e.section)
            fail(occ(e.occs.front()).line, "the inner graph of " + idName(e.id) + " comes before the graph holding it");
        if (d.repeat && !d.attrs.name)
            fail(d.line, idName(e.id) + " refers back (\u00b7\u00b7\u00b7) to a node not printed before");
        const std::string base = e.apply ? baseName(e) : d.head;
        for (int i : e.occs) {
            const Occ& o = occ(i);
            int k = -1;
            const std::string h = o.header || !e.apply ? o.head : stripOutputIndex(o.head, &k);
            if (h != base)
                fail(o.line, "mixed-up listing: " + idName(e.id) + " is '" + o.head + "' here but '" + d.head + "' on line " +
                                 std::to_string(d.line));
            if (i != e.def && !o.children.empty())
                fail(o.line, idName(e.id) + " is printed with its inputs twice (lines " + std::to_string(d.line) + " and " +
                                 std::to_string(o.line) + ")");
        }
    }
    // Scopes: kinds, owners, sections that repeat another section's body.
    for (size_t s = 1; s < m_l.sections.size(); ++s) {
        Scope& sc = m_scopes[s];
        const Occ& h = occ(m_l.sections[s].header);
        if (m_orphanSections.count(static_cast<int>(s))) {
            m_byId.erase(h.id);  // a link to it names an unprinted variable
            continue;
        }
        sc.owner = m_byId.at(h.id);
        sc.kind = h.head.rfind("Scan{", 0) == 0        ? ScopeKind::ScanBody
                  : h.head.rfind("Composite{", 0) == 0 || h.head.rfind("CAReduce{Composite{", 0) == 0 ? ScopeKind::CompositeBody
                  : isGraphOpName(h.head)              ? ScopeKind::GraphOpBody
                                                       : ScopeKind::OtherBody;
        const Entity& first = entityOf(m_l.sections[s].outputs.front());
        if (first.scope != static_cast<int>(s)) sc.aliasOf = first.scope;
    }
    // dprint hands out ids in printing order, so a link to a variable the listing
    // does not show (cut by a depth limit) names the next unused id; any other
    // unknown id is a mistake.
    std::unordered_set<int64_t> seen;
    for (size_t i = 0; i < m_l.occs.size(); ++i) {
        const Occ& o = m_l.occs[i];
        seen.insert(o.id);
        if (o.attrs.link && !m_byId.count(*o.attrs.link) && !m_unprintedLinks.count(*o.attrs.link)) {
            if (*o.attrs.link != static_cast<int64_t>(seen.size()))
                fail(o.line, "-> " + idName(*o.attrs.link) + " names no variable of the listing");
            seen.insert(*o.attrs.link);
            m_unprintedLinks.insert(*o.attrs.link);
        }
        if (o.header) continue;
        const Entity& e = entityOf(static_cast<int>(i));
        const bool nominal = !e.apply && o.section != 0 && o.head.size() > 2 && o.head[0] == '*';
        if (nominal) {
            auto& list = m_sectionNominals[static_cast<size_t>(o.section)];
            const int ei = m_byId.at(e.id);
            if (std::find(list.begin(), list.end(), ei) == list.end()) list.push_back(ei);
            continue;
        }
        if (e.scope != o.section && m_scopes[static_cast<size_t>(o.section)].aliasOf != e.scope && !isConstantLeaf(e))
            fail(o.line, idName(e.id) + " belongs to another graph (line " + std::to_string(occ(e.def).line) + ")");
    }
    for (size_t i = 0; i < m_entities.size(); ++i)
        m_scopeEntities[static_cast<size_t>(m_entities[i].scope)].push_back(static_cast<int>(i));
}

void Builder::detectOptions() {
    DPrintOptions& o = m_out.options;
    for (const Occ& c : m_l.occs) {
        if (c.header) continue;
        o.printType |= c.attrs.typeShown();
        o.printShape |= c.attrs.shape.has_value();
        o.printDestroyMap |= c.attrs.destroy.has_value();
        o.printViewMap |= c.attrs.view.has_value();
        o.printOpInfo |= !c.attrs.tags.empty();
        o.printTopoIndex |= c.attrs.topo.has_value();
    }
    o.printInnerGraphs = true;
}

void Builder::createOuterInputs() {
    for (const Occ& o : m_l.occs) {
        auto it = m_byId.find(o.id);
        if (it == m_byId.end()) continue;  // the header of an inner graph left out
        Entity& e = m_entities[static_cast<size_t>(it->second)];
        if (e.apply || e.scope != 0 || e.var || parseLiteral(occ(e.def).head)) continue;
        leafVar(e);
    }
}

Variable* Builder::nominalVar(int entity, int section) const {
    auto it = m_nominalVars.find({entity, section});
    return it == m_nominalVars.end() ? nullptr : it->second;
}

void Builder::bindNominal(int entity, int section, Variable* v) {
    m_nominalVars[{entity, section}] = v;
    Entity& e = m_entities[static_cast<size_t>(entity)];
    if (e.scope == section) e.var = v;
}

Variable* Builder::inputVar(int oi) {
    const Occ& o = occ(oi);
    Entity& c = entityOf(oi);
    if (!c.apply && o.section != 0 && o.head.size() > 2 && o.head[0] == '*') {
        int s = o.section;
        if (m_scopes[static_cast<size_t>(s)].aliasOf >= 0) s = m_scopes[static_cast<size_t>(s)].aliasOf;
        if (Variable* v = nominalVar(m_byId.at(c.id), s)) return v;
        if (c.scope != s) fail(o.line, o.head + " " + idName(c.id) + " is no input of this inner graph");
    }
    if (!c.apply) {
        const int s = m_scopes[static_cast<size_t>(o.section)].aliasOf >= 0 ? m_scopes[static_cast<size_t>(o.section)].aliasOf : o.section;
        return s != c.scope && isConstantLeaf(c) ? constantIn(c, s) : leafVar(c);
    }
    int k = -1;
    stripOutputIndex(o.head, &k);
    if (!c.node && !c.inlined.empty()) {
        const int n = static_cast<int>(c.inlined.size());
        if (k < 0 && n != 1) fail(o.line, idName(c.id) + " has " + std::to_string(n) + " outputs; expected '.k' after its name");
        if (k >= n) fail(o.line, idName(c.id) + " has " + std::to_string(n) + " outputs; there is no ." + std::to_string(k));
        return c.inlined[static_cast<size_t>(std::max(k, 0))];
    }
    if (!c.node) fail(o.line, idName(c.id) + " is used before it is built (a cycle in the listing?)");
    if (k < 0) {
        if (c.node->numOutputs() != 1)
            fail(o.line, idName(c.id) + " has " + std::to_string(c.node->numOutputs()) + " outputs; expected '.k' after its name");
        k = 0;
    }
    if (k >= c.node->numOutputs())
        fail(o.line, idName(c.id) + " has " + std::to_string(c.node->numOutputs()) + " outputs; there is no ." + std::to_string(k));
    return c.node->output(k);
}

bool Builder::stepScope(int s, int& stage) {
    Scope& sc = m_scopes[static_cast<size_t>(s)];
    const std::vector<int>& outs = s == 0 ? m_l.roots : m_l.sections[static_cast<size_t>(s)].outputs;
    if (stage == 0) {
        if (sc.built) return true;
        if (sc.inProgress) fail(occ(outs.front()).line, "an inner graph that contains itself");
        sc.inProgress = true;
        stage = 1;
        return false;
    }
    std::vector<Variable*> vars;
    for (int oi : outs) vars.push_back(inputVar(oi));
    sc.graph->setOutputs(std::move(vars));
    sc.built = true;
    sc.inProgress = false;
    return true;
}

void Builder::buildAll() {
    struct Frame {
        bool scope;
        int idx;
        int stage;
    };
    std::vector<Frame> stack{{true, 0, 0}};
    // An entity may be pushed again while pending; state 1 marks the ones being
    // expanded, so meeting one of those again means it is its own input.
    std::vector<int> pushedBy;  // the line that pushed each frame, for the cycle message
    auto pushEntity = [&](int oi) {
        Entity& c = entityOf(oi);
        if (!c.apply || c.state == 2) return;
        stack.push_back(Frame{false, m_byId.at(c.id), 0});
        pushedBy.resize(stack.size());
        pushedBy.back() = occ(oi).line;
    };
    while (!stack.empty()) {
        Frame f = stack.back();
        if (f.scope) {
            const int before = f.stage;
            bool done = stepScope(f.idx, f.stage);
            stack.back().stage = f.stage;
            if (done) {
                stack.pop_back();
            } else if (before == 0) {
                const auto& outs = f.idx == 0 ? m_l.roots : m_l.sections[static_cast<size_t>(f.idx)].outputs;
                for (auto it = outs.rbegin(); it != outs.rend(); ++it) pushEntity(*it);
            }
            continue;
        }
        Entity& e = m_entities[static_cast<size_t>(f.idx)];
        if (f.stage == 0) {
            if (e.state == 2) {
                stack.pop_back();
                continue;
            }
            if (e.state == 1) fail(pushedBy[stack.size() - 1], idName(e.id) + " is its own input (a cycle in the listing)");
            e.state = 1;
            stack.back().stage = 1;
            const auto& ch = occ(e.def).children;
            for (auto it = ch.rbegin(); it != ch.rend(); ++it) pushEntity(*it);
            continue;
        }
        std::vector<Variable*> inputs;
        for (int c : occ(e.def).children) inputs.push_back(inputVar(c));
        if (f.stage == 1) {
            stack.back().stage = 2;
            const int body = prepareBody(e, inputs);
            if (body >= 0) stack.push_back(Frame{true, body, 0});
            continue;
        }
        makeNode(e, inputs);
        e.state = 2;
        stack.pop_back();
    }
}

} // namespace tl::dpimport

namespace tl {

DPrintImport importDprint(std::string_view text, const std::string& sourceName, const DPrintInputTypes& inputTypes) {
    try {
        dpimport::Listing listing = dpimport::lexListing(text);
        DPrintImport out;
        dpimport::Builder(listing, out, inputTypes).run();
        return out;
    } catch (const FormatError& e) {
        if (!sourceName.empty()) throw e.inFile(sourceName);
        throw;
    } catch (const std::exception& e) {
        // Anything the graph or an op rejected that no check above caught: still a
        // FormatError, so callers have one error type for bad listings.
        throw FormatError("", e.what(), sourceName);
    }
}

} // namespace tl
