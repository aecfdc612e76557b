// The leaves of an imported dprint listing: outer inputs and constants, their types
// from the listing's annotations (or guessed, and then noted), and the nominal
// variables inner graphs bind to them.
#include "io/DPrintImportBuilder.h"

#include "io/DPrintVocab.h"
#include "ops/Opaque.h"

#include <algorithm>

namespace tl::dpimport {

Type Builder::leafType(const Occ& o, const std::string& what, bool* guessed) {
    *guessed = false;
    if (o.attrs.type) return *o.attrs.type;
    *guessed = true;
    if (o.attrs.shape) {
        note(o.line, what + ": dtype not printed; taken as float64");
        return Type::tensor(DType::Float64, *o.attrs.shape);
    }
    note(o.line, what + ": type not printed; taken as a float64 scalar (0-d)");
    return Type::tensor(DType::Float64, {});
}

Variable* Builder::leafVar(Entity& e) {
    if (e.var) return e.var;
    const Occ& o = occ(e.def);
    Scope& sc = m_scopes[static_cast<size_t>(e.scope)];
    GraphAssembler& g = *sc.graph;
    if (!o.attrs.unsupportedType.empty()) {
        note(o.line, "'" + o.head + "' has the PyTensor type " + o.attrs.unsupportedType +
                         ", which tensorlens cannot represent: imported as an opaque int8 scalar");
        Node* n = g.addNode(makeOpaque(o.head, {Type::tensor(DType::Int8, {})}), {});
        m_leafStandIns.insert(n);
        m_guessed.insert(n->output(0));
        return e.var = n->output(0);
    }
    if (Variable* c = indexConstant(o, g)) return e.var = c;
    if (auto lit = parseLiteral(o.head)) return e.var = makeConstant(o, *lit, sc, g);
    const std::string& h = o.head;
    if (sc.kind != ScopeKind::Outer) {
        // Inner graphs have no named inputs: a node whose inputs a depth limit cut off.
        bool guessed = false;
        Type t = leafType(o, "'" + h + "'", &guessed);
        note(o.line, "'" + h + "' in an inner graph is neither an inner input nor a constant: taken as a node whose inputs "
                     "are not printed, imported as opaque");
        if (sc.kind == ScopeKind::CompositeBody) sc.unbuildable = "its body is not fully printed";
        Node* n = g.addNode(makeOpaque(h, {t}), {});
        m_leafStandIns.insert(n);
        if (guessed) m_guessed.insert(n->output(0));
        return e.var = n->output(0);
    }
    bool guessed = false;
    Type t;
    std::string name;
    if (h.size() > 2 && h.front() == '<' && h.back() == '>') {
        bool unsupported = false;
        auto parsed = parseTypeText(std::string_view(h).substr(1, h.size() - 2), o.line, &unsupported);
        if (!parsed) fail(o.line, "an input of the unsupported type " + h);
        t = *parsed;
    } else if (auto given = m_inputTypes.find(h); given != m_inputTypes.end() && !o.attrs.type) {
        name = h;
        t = given->second;
        if (o.attrs.shape && o.attrs.shape->size() != static_cast<size_t>(t.ndim()))
            fail(o.line, "input " + h + " is printed with shape=" + Type::shapeString(*o.attrs.shape) + " but its given value has " +
                             std::to_string(t.ndim()) + " dims");
        if (o.attrs.shape) t.shape = *o.attrs.shape;
        note(o.line, "input " + h + ": type not printed; taken as " + t.toString() + " from its given value");
    } else {
        name = h;
        t = leafType(o, "input " + h, &guessed);
    }
    e.var = g.addInput(t, name);
    if (guessed) m_guessed.insert(e.var);
    return e.var;
}

bool Builder::isConstantLeaf(const Entity& e) const {
    if (e.apply || e.def < 0) return false;
    const Occ& o = occ(e.def);
    const std::string& h = o.head;
    // As indexConstant reads them: a bare `NoneConst` only with its NoneTypeT printed.
    const bool none = h == "NoneConst{None}" || (h == "NoneConst" && o.attrs.type && o.attrs.type->isNoneType());
    return none || h.rfind("SliceConstant{", 0) == 0 || parseLiteral(h).has_value();
}

Variable* Builder::constantIn(Entity& e, int scope) {
    if (scope == e.scope) return leafVar(e);
    auto [it, fresh] = m_constantCopies.try_emplace({m_byId.at(e.id), scope}, nullptr);
    if (!fresh) return it->second;
    const Occ& o = occ(e.def);
    Scope& sc = m_scopes[static_cast<size_t>(scope)];
    if (Variable* c = indexConstant(o, *sc.graph)) return it->second = c;
    auto lit = parseLiteral(o.head);
    if (!lit) fail(o.line, "[id " + debugprint::idLetters(e.id) + "] is no constant but is used in another graph");
    return it->second = makeConstant(o, *lit, sc, *sc.graph);
}

Variable* Builder::makeConstant(const Occ& o, const Literal& lit, Scope& scope, GraphAssembler& g) {
    const ScopeKind kind = scope.kind;
    // A Composite cannot hold an opaque node: its body is unreadable (its name may still say it).
    if (lit.elided && kind == ScopeKind::CompositeBody)
        scope.unbuildable = "its body holds the constant " + o.head + ", and its values are elided in the listing";
    Type t;
    bool guessed = false;
    if (o.attrs.type) {
        t = *o.attrs.type;
    } else if (!lit.shape.empty()) {
        t = Type::tensor(literalDefaultDType(lit), o.attrs.shape ? *o.attrs.shape : lit.shape);
        guessed = true;
    } else if (kind == ScopeKind::CompositeBody) {
        t = Type::scalar(literalDefaultDType(lit));
        guessed = true;
    } else {
        // PyTensor's typing of Python numbers by their use: ScalarConstants for
        // Subtensor indices, int64 for allocation dims, the smallest int otherwise.
        std::string user;
        int pos = -1;
        if (o.parent >= 0) {
            int k = -1;
            user = stripOutputIndex(occ(o.parent).head, &k);
            const auto& sib = occ(o.parent).children;
            pos = static_cast<int>(std::find_if(sib.begin(), sib.end(), [&](int c) { return occ(c).line == o.line; }) - sib.begin());
        }
        const bool sub = user.rfind("Subtensor{", 0) == 0, inc = user.rfind("SetSubtensor{", 0) == 0 || user.rfind("IncSubtensor{", 0) == 0;
        if ((sub && pos >= 1) || (inc && pos >= 2) || user == "MakeSlice") t = Type::scalar(DType::Int64);
        else if (user.rfind("AllocEmpty{", 0) == 0 || (user == "Alloc" && pos >= 1)) t = Type::tensor(DType::Int64, {});
        else t = Type::tensor(lit.style == Literal::Style::Int ? smallestIntDType(lit) : literalDefaultDType(lit), {});
        guessed = true;
        if (o.attrs.shape && !o.attrs.shape->empty())
            fail(o.line, "the constant " + o.head + " is printed with shape=" + Type::shapeString(*o.attrs.shape) + " but is a single value");
    }
    if (guessed)
        note(o.line, "constant " + o.head + ": type not printed; taken as " + t.toString() +
                         (lit.shape.empty() && kind != ScopeKind::CompositeBody ? " (by its use)" : ""));
    if (lit.elided) {
        note(o.line, "constant " + o.head + ": its values are elided in the listing; imported as an opaque node (not executed)");
        Node* n = g.addNode(makeOpaque(o.head, {t}), {});
        m_leafStandIns.insert(n);
        m_guessed.insert(n->output(0));
        return n->output(0);
    }
    if (lit.rounded)
        note(o.line, "constant " + o.head + ": NumPy prints arrays with 8 decimals, so its values may be rounded");
    StaticShape shape = t.shape;
    if (!lit.shape.empty()) {
        if (t.isScalarType() || lit.shape.size() != t.shape.size())
            fail(o.line, "the constant " + o.head + " has " + std::to_string(lit.shape.size()) + " dims, its type " + t.toString() + " " +
                             std::to_string(t.isScalarType() ? 0 : t.ndim()));
        for (size_t i = 0; i < shape.size(); ++i) {
            if (shape[i] != kUnknownDim && shape[i] != lit.shape[i])
                fail(o.line, "the constant " + o.head + " has shape " + Type::shapeString(lit.shape) + ", its type says " + t.toString());
            shape[i] = lit.shape[i];
        }
    } else if (!t.isScalarType() && t.ndim() != 0) {
        fail(o.line, "the constant " + o.head + " is a single value, its type " + t.toString() + " is not 0-d");
    }
    NDArray value;
    try {
        value = literalValue(lit, t.dtype, shape);
    } catch (const std::exception& ex) {
        fail(o.line, "the constant " + o.head + " does not fit " + t.toString() + ": " + ex.what());
    }
    Variable* v = nullptr;
    try {
        v = g.addConstant(std::move(value), t, lit.name);
    } catch (const std::exception& ex) {
        fail(o.line, "the constant " + o.head + ": " + ex.what());
    }
    if (guessed) m_guessed.insert(v);
    return v;
}

} // namespace tl::dpimport
