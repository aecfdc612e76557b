// Scan nodes of the dprint importer: the name `Scan{name, while_loop=..., inplace=...}`,
// the evidence the listing shows (outer inputs and their tags, the `*k-` inner
// inputs with their `-> [id X]` links, inner and outer outputs), the layout
// inferred from it (DPrintImportScan.cpp), the body's inputs, and the ScanOp.
#include "io/DPrintImportBuilder.h"

#include "io/DPrintVocab.h"
#include "ops/IncSubtensor.h"
#include "ops/ScanOp.h"
#include "rewrite/LocalRewriteUtil.h"

#include <algorithm>

namespace tl::dpimport {

using debugprint::idLetters;

namespace {

std::string idName(int64_t id) { return "[id " + idLetters(id) + "]"; }

struct ScanName {
    std::string name;
    bool asWhile = false;
    std::string inplace;  // "all", "none" or "[0, 2]"
};

// "Scan{scan_fn&rop_of_scan_fn, while_loop=False, inplace=all}".
std::optional<ScanName> parseScanName(const std::string& s) {
    const std::string pre = "Scan{";
    if (s.rfind(pre, 0) != 0 || s.back() != '}') return std::nullopt;
    const size_t w = s.rfind(", while_loop=");
    const size_t ip = s.rfind(", inplace=");
    if (w == std::string::npos || ip == std::string::npos || ip < w || w < pre.size()) return std::nullopt;
    ScanName n;
    n.name = s.substr(pre.size(), w - pre.size());
    const std::string wl = s.substr(w + 13, ip - w - 13);
    if (wl != "True" && wl != "False") return std::nullopt;
    n.asWhile = wl == "True";
    n.inplace = s.substr(ip + 10, s.size() - ip - 11);
    return n;
}

std::optional<std::vector<int>> inplaceStates(const std::string& spec, int nTraced) {
    std::vector<int> v;
    if (spec == "all") {
        for (int i = 0; i < nTraced; ++i) v.push_back(i);
        return v;
    }
    if (spec == "none") return v;
    if (spec.size() < 2 || spec.front() != '[' || spec.back() != ']') return std::nullopt;
    std::string body = spec.substr(1, spec.size() - 2);
    size_t p = 0;
    while (p < body.size()) {
        size_t c = body.find(',', p);
        std::string item = body.substr(p, c == std::string::npos ? std::string::npos : c - p);
        item.erase(0, item.find_first_not_of(' '));
        if (item.empty() || item.size() > 6 || item.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
        v.push_back(std::stoi(item));
        if (c == std::string::npos) break;
        p = c + 1;
    }
    return v;
}

std::optional<int> ndimOf(const Attrs& a) {
    if (a.type) return a.type->isScalarType() ? 0 : a.type->ndim();
    if (a.shape) return static_cast<int>(a.shape->size());
    return std::nullopt;
}

// "*3-<Vector(float64, shape=(7,))>" -> 3 and the rest.
std::optional<std::pair<int, std::string>> nominal(const std::string& h) {
    if (h.size() < 3 || h[0] != '*') return std::nullopt;
    size_t dash = h.find('-');
    if (dash == std::string::npos || dash == 1 || dash > 7) return std::nullopt;
    for (size_t i = 1; i < dash; ++i)
        if (h[i] < '0' || h[i] > '9') return std::nullopt;
    return std::make_pair(std::stoi(h.substr(1, dash - 1)), h.substr(dash + 1));
}

// c of `SetSubtensor{:stop}(buffer, init, c)` when c is known, else nullopt.
std::optional<int> initialRows(const Variable* v) {
    const Node* n = v->owner();
    const auto* inc = n ? dynamic_cast<const IncSubtensorOp*>(&n->op()) : nullptr;
    if (!inc || !inc->setInsteadOfInc() || inc->entries().size() != 1 || n->numInputs() != 3) return std::nullopt;
    const IndexEntry& e = inc->entries()[0];
    if (e.kind != IndexEntry::Kind::Slice || e.hasStart || !e.hasStop || e.hasStep) return std::nullopt;
    // The stop is a constant, or (pytensor.scan's `init.shape[0]`) the initial value's rows.
    auto c = rw::constantIntOf(*n->input(2));
    const Type& init = n->input(1)->type();
    if (!c && !init.isScalarType() && init.ndim() >= 1 && init.shape[0] != kUnknownDim) c = init.shape[0];
    if (!c || *c < 1 || *c > 1000000) return std::nullopt;
    return static_cast<int>(*c);
}

} // namespace

int Builder::prepareScanBody(Entity& e, const std::vector<Variable*>& inputs, int section) {
    Scope& sc = m_scopes[static_cast<size_t>(section)];
    const int headerLine = occ(m_l.sections[static_cast<size_t>(section)].header).line;
    auto name = parseScanName(baseName(e));
    if (!name) {
        sc.unbuildable = "cannot read the Scan name " + baseName(e);
        return -1;
    }
    ScanEvidence ev;
    ev.asWhile = name->asWhile;
    ev.forward = false;
    for (size_t b = 0; b <= name->name.size();) {
        const size_t amp = std::min(name->name.find('&', b), name->name.size());
        const bool grad = name->name.compare(b, 8, "grad_of_") == 0;
        ev.gradient |= grad;
        ev.forward |= !grad;
        b = amp + 1;
    }
    ev.outerInputs.assign(inputs.begin(), inputs.end());
    for (const Variable* v : inputs) ev.initRows.push_back(initialRows(v));
    for (int c : occ(e.def).children) ev.outerInputTags.push_back(occ(c).attrs.tag("outer_in_"));
    // Inner inputs: the `*k-` leaves of the body.
    std::vector<int> nominalEntity;
    for (int ei : m_sectionNominals[static_cast<size_t>(section)]) {
        Entity& x = m_entities[static_cast<size_t>(ei)];
        // The first line showing it in this body (one [id] may serve several bodies).
        int first = x.def;
        for (int i : x.occs)
            if (occ(i).section == section) {
                first = i;
                break;
            }
        const Occ& o = occ(first);
        auto nom = x.apply ? std::nullopt : nominal(o.head);
        if (!nom) continue;
        ScanEvidence::InnerIn in;
        in.k = nom->first;
        const std::string& rest = nom->second;
        if (rest.size() > 2 && rest.front() == '<' && rest.back() == '>') {
            bool unsupported = false;
            in.type = parseTypeText(std::string_view(rest).substr(1, rest.size() - 2), o.line, &unsupported);
        }
        if (!in.type && o.attrs.type) in.type = o.attrs.type;
        if (!in.type && (!o.attrs.unsupportedType.empty() || (!rest.empty() && rest.front() == '<'))) {
            // A random generator or another PyTensor type tensorlens has no counterpart for:
            // its outer input is imported the same way (DPrintImportLeaves.cpp).
            note(o.line, "the inner input " + o.head + " has a PyTensor type tensorlens cannot represent: imported as an int8 scalar");
            in.type = Type::tensor(DType::Int8, {});
        }
        if (!in.type) fail(o.line, "the type of the inner input " + o.head + " is not printed");
        in.tag = o.attrs.tag("inner_in_");
        for (int i : x.occs)
            if (occ(i).section != section) {
                continue;
            } else if (occ(i).attrs.link && m_unprintedLinks.count(*occ(i).attrs.link)) {
                note(occ(i).line, o.head + " stands for " + idName(*occ(i).attrs.link) + ", which the listing does not print");
            } else if (occ(i).attrs.link) {
                const int64_t target = *occ(i).attrs.link;
                const auto& ch = occ(e.def).children;
                for (size_t p = 0; p < ch.size(); ++p)
                    if (occ(ch[p]).id == target) in.outer.push_back(static_cast<int>(p));
                if (in.outer.empty()) fail(occ(i).line, "-> " + idName(target) + " is no outer input of " + idName(e.id));
            }
        for (size_t j = 0; j < nominalEntity.size(); ++j)
            if (ev.innerInputs[j].k == in.k)
                fail(o.line, "two inner inputs *" + std::to_string(in.k) + " (line " +
                                 std::to_string(occ(m_entities[static_cast<size_t>(nominalEntity[j])].def).line) + ")");
        ev.innerInputs.push_back(std::move(in));
        nominalEntity.push_back(ei);
    }
    for (int oi : m_l.sections[static_cast<size_t>(section)].outputs) {
        ScanEvidence::InnerOut out;
        out.ndim = ndimOf(occ(oi).attrs);
        out.tag = occ(oi).attrs.tag("inner_out_");
        ev.innerOutputs.push_back(std::move(out));
    }
    for (int i : e.occs) {
        const Occ& o = occ(i);
        if (o.header) continue;
        int k = -1;
        stripOutputIndex(o.head, &k);
        ev.multiOutput |= k >= 0;
        auto& out = ev.outerOutputs[std::max(k, 0)];
        if (!out.ndim) out.ndim = ndimOf(o.attrs);
        if (out.tag.empty()) out.tag = o.attrs.tag("outer_out_");
    }
    std::string why;
    auto layout = inferScanLayout(ev, &why);
    if (!layout) {
        sc.unbuildable = "its layout cannot be inferred: " + why;
        return -1;
    }
    const ScanInfo& info = layout->info;
    if (!layout->fromTags)
        note(headerLine, "Scan " + idName(e.id) + ": no op-info tags; categories inferred from its inner inputs' -> links and types: " +
                             describeLayout(info) + (layout->alternatives > 1 ? " (the likeliest of " + std::to_string(layout->alternatives) +
                                                                                     " layouts that fit)"
                                                                               : ""));
    if (info.nMitSot() > 0 || info.nMitMot() > 0)
        note(headerLine, "Scan " + idName(e.id) + ": dprint does not print taps; taken as " + describeLayout(info) +
                             (info.nMitMot() > 0 ? " (mit_mot taps as PyTensor's gradient of a sit_sot, a mit_sot reading taps -k..-1, "
                                                   "or a sit_sot's gradient loop)"
                                                 : ""));
    // The body's inputs: printed ones with their types, unused ones typed from their outer input.
    sc.graph = std::make_unique<GraphAssembler>();
    const std::vector<int> innerToOuter = debugprint::scanInnerToOuterInput(info);
    for (int k = 0; k < info.numInnerInputs(); ++k) {
        size_t j = 0;
        while (j < ev.innerInputs.size() && ev.innerInputs[j].k != k) ++j;
        if (j < ev.innerInputs.size()) {
            Entity& x = m_entities[static_cast<size_t>(nominalEntity[j])];
            const std::string rest = nominal(occ(x.def).head)->second;
            bindNominal(nominalEntity[j], section, sc.graph->addInput(*ev.innerInputs[j].type, rest.empty() || rest.front() == '<' ? std::string() : rest));
            continue;
        }
        const Type& o = inputs[static_cast<size_t>(innerToOuter[static_cast<size_t>(k)])]->type();
        Type t = o;
        if (k < info.innerInUntraced() && !o.isScalarType() && o.ndim() >= 1) t.shape.erase(t.shape.begin());
        note(headerLine, "Scan " + idName(e.id) + ": inner input *" + std::to_string(k) + " is not printed (unused); typed " +
                             t.toString() + " from its outer input");
        sc.graph->addInput(t);
    }
    sc.layout = info;
    sc.prepared = true;
    return section;
}

OpPtr Builder::scanOp(Entity& e, std::string* why) {
    if (e.section < 0) {
        *why = "its inner graph is not printed";
        return nullptr;
    }
    const int s = m_scopes[static_cast<size_t>(e.section)].aliasOf >= 0 ? m_scopes[static_cast<size_t>(e.section)].aliasOf : e.section;
    Scope& sc = m_scopes[static_cast<size_t>(s)];
    if (!sc.unbuildable.empty()) {
        *why = sc.unbuildable;
        return nullptr;
    }
    if (!sc.shared) sc.shared = std::shared_ptr<const Graph>(sc.graph->finish());
    auto name = parseScanName(baseName(e));
    auto inplace = name ? inplaceStates(name->inplace, sc.layout.nTracedStates()) : std::nullopt;
    if (!inplace) {
        *why = "cannot read the inplace states of " + baseName(e);
        return nullptr;
    }
    try {
        return makeScan(sc.layout, sc.shared, name->name, *inplace);
    } catch (const std::exception& ex) {
        *why = ex.what();
        return nullptr;
    }
}

} // namespace tl::dpimport
