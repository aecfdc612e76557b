// The dprint importer's advanced indexing and control flow: the printed names of
// AdvancedSubtensor1, AdvancedSubtensor, AdvancedIncSubtensor1{inplace,inc},
// AdvancedIncSubtensor / AdvancedSetSubtensor, MakeSlice and if{...}; the index
// constants `SliceConstant{1, 3, None} <slice>` and `NoneConst{None} <NoneTypeT>`;
// and OpFromGraph nodes (`residual_layer{inline=False}`), whose body is the inner
// graph printed under "Inner graphs:" with `*k-<Type>` inputs.
#include "io/DPrintImportBuilder.h"

#include "io/DPrintVocab.h"
#include "ir/SliceValue.h"
#include "ops/AdvancedIncSubtensor.h"
#include "ops/AdvancedSubtensor.h"
#include "ops/IfElse.h"
#include "ops/MakeSlice.h"
#include "ops/OpFromGraph.h"

#include <algorithm>
#include <limits>

namespace tl::dpimport {

using debugprint::idLetters;

namespace {

std::string idName(int64_t id) { return "[id " + idLetters(id) + "]"; }

bool destroysFirstInput(const std::optional<AliasMap>& destroy, std::string* why) {
    if (!destroy || destroy->empty()) return false;
    if (*destroy != AliasMap{{0, {0}}}) {
        *why = "an advanced increment destroys its first input only, the listing says d=" + debugprint::aliasMapText(*destroy);
        throw std::invalid_argument(*why);
    }
    return true;
}

std::optional<int64_t> parseBound(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    if (s.empty() || s.size() > 20) return std::nullopt;
    bool neg = s.front() == '-';
    if (neg) s.remove_prefix(1);
    if (s.empty()) return std::nullopt;
    int64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        if (v > (std::numeric_limits<int64_t>::max() - 9) / 10) return std::nullopt;
        v = v * 10 + (c - '0');
    }
    return neg ? -v : v;
}

// "SliceConstant{1, 3, None}" -> its bounds.
std::optional<SliceBounds> parseSliceConstant(const std::string& head) {
    const std::string pre = "SliceConstant{";
    if (head.rfind(pre, 0) != 0 || head.back() != '}') return std::nullopt;
    std::string_view body(head);
    body = body.substr(pre.size(), body.size() - pre.size() - 1);
    SliceBounds b;
    std::optional<int64_t>* parts[3] = {&b.start, &b.stop, &b.step};
    for (int k = 0; k < 3; ++k) {
        const size_t c = body.find(',');
        if ((k < 2) != (c != std::string_view::npos)) return std::nullopt;
        std::string_view item = body.substr(0, c);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        if (item != "None") {
            *parts[k] = parseBound(item);
            if (!*parts[k]) return std::nullopt;
        }
        body = c == std::string_view::npos ? std::string_view() : body.substr(c + 1);
    }
    if (b.step && *b.step == 0) return std::nullopt;
    return b;
}

} // namespace

bool isGraphOpName(const std::string& name) {
    for (std::string_view tail : {std::string_view("{inline=False}"), std::string_view("{inline=True}")})
        if (name.size() > tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0) return true;
    // OpFromGraph subclasses print their attributes as `{self.x=...}` (Einsum, AllocDiag).
    const size_t brace = name.find("{self.");
    return brace != std::string::npos && brace > 0 && name.back() == '}' && name.find('{') == brace;
}

OpPtr indexingOpFromName(std::string_view base, std::optional<std::string_view> params, const std::vector<Variable*>& in,
                         const std::optional<AliasMap>& destroy, std::string* why) {
    const std::string_view p = params.value_or(std::string_view());
    if (!params && base == "AdvancedSubtensor1") return makeAdvancedSubtensor1();
    if (!params && base == "AdvancedSubtensor") return makeAdvancedSubtensor();
    if (!params && base == "MakeSlice") return makeMakeSlice();
    if (!params && (base == "AdvancedIncSubtensor" || base == "AdvancedSetSubtensor"))
        // ignore_duplicates is not printed; PyTensor's inc_subtensor leaves it off.
        return makeAdvancedIncSubtensor(destroysFirstInput(destroy, why), base == "AdvancedSetSubtensor", false);
    if (params && base == "AdvancedIncSubtensor1") {
        const size_t comma = p.find(',');
        if (comma == std::string_view::npos) return nullptr;
        const std::string_view a = p.substr(0, comma), m = p.substr(comma + 1);
        if ((a != "inplace" && a != "no_inplace") || (m != "inc" && m != "set")) return nullptr;
        return makeAdvancedIncSubtensor1(a == "inplace", m == "set");
    }
    if (params && base == "if") {
        // if{}, if{inplace}, if{name}, if{name,inplace}; n_outs from the inputs.
        if (in.size() < 3 || in.size() % 2 == 0) {
            *why = "an IfElse takes a condition and two values per output, the listing shows " + std::to_string(in.size()) +
                   " inputs";
            return nullptr;
        }
        std::string_view rest = p;
        bool asView = false;
        if (rest == "inplace" || (rest.size() > 8 && rest.substr(rest.size() - 8) == ",inplace")) {
            asView = true;
            rest = rest.size() == 7 ? std::string_view() : rest.substr(0, rest.size() - 8);
        }
        std::optional<std::string> name;
        if (!rest.empty()) name = std::string(rest);
        return makeIfElse(static_cast<int>((in.size() - 1) / 2), asView, std::move(name));
    }
    return nullptr;
}

Variable* Builder::indexConstant(const Occ& o, GraphAssembler& g) {
    const bool noneType = o.attrs.type && o.attrs.type->isNoneType();
    if (o.head == "NoneConst{None}" || (noneType && o.head == "NoneConst")) {
        Variable* v = g.addConstant(noneValue(), Type::none(), "NoneConst");
        return v;
    }
    if (o.head.rfind("SliceConstant{", 0) == 0) {
        auto b = parseSliceConstant(o.head);
        if (!b) fail(o.line, "cannot read the slice constant " + o.head + " (expected SliceConstant{start, stop, step})");
        if (o.attrs.type && !o.attrs.type->isSliceType())
            fail(o.line, "the slice constant " + o.head + " is printed with type " + o.attrs.type->toString());
        return g.addConstant(sliceValue(*b), Type::slice());
    }
    return nullptr;
}

int Builder::prepareGraphOpBody(Entity& e, const std::vector<Variable*>& inputs, int section) {
    Scope& sc = m_scopes[static_cast<size_t>(section)];
    const int headerLine = occ(m_l.sections[static_cast<size_t>(section)].header).line;
    // Inner inputs: the `*k-<Type>` leaves of the body, in k order; unprinted ones (unused)
    // are typed from the node's inputs.
    std::vector<int> byK(inputs.size(), -1);
    for (int ei : m_sectionNominals[static_cast<size_t>(section)]) {
        Entity& x = m_entities[static_cast<size_t>(ei)];
        const Occ& o = occ(x.def);
        if (x.apply || o.head.size() < 3 || o.head[0] != '*') continue;
        const size_t dash = o.head.find('-');
        if (dash == std::string::npos || dash == 1 || dash > 7) continue;
        int k = 0;
        for (size_t i = 1; i < dash; ++i) {
            if (o.head[i] < '0' || o.head[i] > '9') fail(o.line, "cannot read the inner input " + o.head);
            k = k * 10 + (o.head[i] - '0');
        }
        if (k >= static_cast<int>(inputs.size()))
            fail(o.line, o.head + " but " + idName(e.id) + " has " + std::to_string(inputs.size()) + " inputs");
        if (byK[static_cast<size_t>(k)] >= 0) fail(o.line, "two inner inputs *" + std::to_string(k));
        byK[static_cast<size_t>(k)] = ei;
    }
    sc.graph = std::make_unique<GraphAssembler>();
    for (size_t k = 0; k < inputs.size(); ++k) {
        const int ei = byK[k];
        if (ei < 0) {
            note(headerLine, idName(e.id) + ": inner input *" + std::to_string(k) + " is not printed (unused); typed " +
                                 inputs[k]->type().toString() + " from the node's input");
            sc.graph->addInput(inputs[k]->type());
            continue;
        }
        Entity& x = m_entities[static_cast<size_t>(ei)];
        const Occ& o = occ(x.def);
        const std::string rest = o.head.substr(o.head.find('-') + 1);
        std::optional<Type> t;
        if (rest.size() > 2 && rest.front() == '<' && rest.back() == '>') {
            bool unsupported = false;
            t = parseTypeText(std::string_view(rest).substr(1, rest.size() - 2), o.line, &unsupported);
        }
        if (!t) t = o.attrs.type;
        if (!t) t = inputs[k]->type();
        bindNominal(ei, section, sc.graph->addInput(*t));
    }
    sc.prepared = true;
    return section;
}

OpPtr Builder::graphOpFor(Entity& e, std::string* why) {
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
    if (!sc.graph && !sc.shared) {
        *why = "its inner graph could not be read";
        return nullptr;
    }
    // One body for every node printed with it, as those nodes share PyTensor's op.
    if (!sc.shared) sc.shared = std::shared_ptr<const Graph>(sc.graph->finish());
    const std::string base = baseName(e);
    const bool inl = base.size() >= 13 && base.compare(base.size() - 13, 13, "{inline=True}") == 0;
    std::optional<std::string> name = base.substr(0, base.rfind('{'));
    if (*name == "OpFromGraph") name.reset();
    static constexpr std::string_view kEinsum = "Einsum{";
    try {
        if (base.starts_with("Einsum{self.")) {
            // isGraphOpName has checked the name ends with the closing brace.
            const std::string_view attrs = std::string_view(base).substr(kEinsum.size(), base.size() - kEinsum.size() - 1);
            std::optional<EinsumSpec> spec = parseEinsumSpecText(attrs, why);
            return spec ? makeEinsum(sc.shared, std::move(*spec)) : nullptr;
        }
        return makeOpFromGraph(sc.shared, std::move(name), inl);
    } catch (const std::exception& ex) {
        *why = ex.what();
        return nullptr;
    }
}

} // namespace tl::dpimport
