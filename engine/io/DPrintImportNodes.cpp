// Apply entities -> nodes: Scan (layout, body, inplace states), Composite (body
// from its section or its name), every other family through DPrintImportOps, and
// Opaque for what cannot be rebuilt. Printed output types win over inferred ones
// (an imported graph prints what it was printed with).
#include "io/DPrintImportBuilder.h"
#include "ops/Reduce.h"
#include "io/JsonNestedComposite.h"

#include "io/DPrintVocab.h"
#include "ops/Elemwise.h"
#include "ops/Opaque.h"
#include "ops/ScalarOp.h"
#include "ops/ScanOp.h"

#include <algorithm>

namespace tl::dpimport {

using debugprint::aliasMapText;
using debugprint::idLetters;

namespace {

std::string idName(int64_t id) { return "[id " + idLetters(id) + "]"; }

} // namespace

int Builder::numPrintedOutputs(const Entity& e) const {
    int n = 1;
    for (int i : e.occs) {
        if (occ(i).header) continue;
        int k = -1;
        stripOutputIndex(occ(i).head, &k);
        n = std::max(n, k + 1);
    }
    return n;
}

std::vector<std::optional<Type>> Builder::printedOutputTypes(const Entity& e, int n, const std::vector<Type>* inferred,
                                                             bool* guessed) {
    std::vector<std::optional<Type>> out(static_cast<size_t>(n));
    *guessed = false;
    for (int i : e.occs) {
        const Occ& o = occ(i);
        if (o.header) continue;
        int k = -1;
        stripOutputIndex(o.head, &k);
        k = std::max(k, 0);
        if (k >= n) continue;
        auto& slot = out[static_cast<size_t>(k)];
        if (o.attrs.type) {
            slot = *o.attrs.type;
        } else if (o.attrs.shape && !slot) {
            if (inferred && static_cast<size_t>(k) < inferred->size()) {
                Type t = (*inferred)[static_cast<size_t>(k)];
                if (!(t.isScalarType() && o.attrs.shape->empty())) t = Type::tensor(t.dtype, *o.attrs.shape);
                slot = t;
            } else {
                slot = Type::tensor(DType::Float64, *o.attrs.shape);
                *guessed = true;
            }
        }
    }
    return out;
}

int Builder::prepareBody(Entity& e, const std::vector<Variable*>& inputs) {
    if (e.section < 0) return -1;
    if (occ(e.def).children.empty()) {
        m_scopes[static_cast<size_t>(e.section)].unbuildable = "its inputs are not printed";
        return -1;
    }
    int s = e.section;
    const Scope& own = m_scopes[static_cast<size_t>(s)];
    if (own.aliasOf >= 0) {
        // The body repeats another node's (a shared inner graph): build that one once.
        const Scope& target = m_scopes[static_cast<size_t>(own.aliasOf)];
        const int line = occ(m_l.sections[static_cast<size_t>(s)].header).line;
        if (target.kind != own.kind) fail(line, "the inner graph repeats one of another kind");
        if (target.built || !target.unbuildable.empty()) return -1;
        if (target.prepared) fail(line, "an inner graph that contains itself");
        s = own.aliasOf;
    }
    if (own.kind == ScopeKind::ScanBody) return prepareScanBody(e, inputs, s);
    if (own.kind == ScopeKind::CompositeBody) return prepareCompositeBody(e, inputs, s);
    if (own.kind == ScopeKind::GraphOpBody) return prepareGraphOpBody(e, inputs, s);
    return -1;
}

int Builder::prepareCompositeBody(Entity& e, const std::vector<Variable*>& inputs, int section) {
    Scope& sc = m_scopes[static_cast<size_t>(section)];
    sc.graph = std::make_unique<GraphAssembler>();
    std::vector<Type> types;
    for (Variable* v : inputs) types.push_back(Type::scalar(v->type().dtype));
    if (baseName(e).rfind("CAReduce{", 0) == 0 && !inputs.empty()) {
        // A fused reduction's body has the accumulator as i0: its printed type, or PyTensor's acc_dtype.
        std::optional<Type> acc;
        for (int ei : m_scopeEntities[static_cast<size_t>(section)]) {
            const Occ& o = occ(m_entities[static_cast<size_t>(ei)].def);
            if (!m_entities[static_cast<size_t>(ei)].apply && o.head == "i0" && o.attrs.type) acc = *o.attrs.type;
        }
        types.insert(types.begin(), acc ? *acc : Type::scalar(ReduceOp(ReduceKind::Sum, std::nullopt).accumulatorDType(
                                                        std::vector<DType>{inputs[0]->type().dtype})));
    }
    std::vector<Variable*> ins;
    for (const Type& t : types) ins.push_back(sc.graph->addInput(t));
    for (int ei : m_scopeEntities[static_cast<size_t>(section)]) {
        Entity& x = m_entities[static_cast<size_t>(ei)];
        const Occ& o = occ(x.def);
        if (x.apply || o.head.size() < 2 || o.head[0] != 'i' || o.head.find_first_not_of("0123456789", 1) != std::string::npos ||
            o.head.size() > 7)
            continue;
        const size_t k = std::stoul(o.head.substr(1));
        if (k >= ins.size())
            fail(o.line, o.head + " but " + idName(e.id) + " has " + std::to_string(ins.size()) + " inputs");
        if (o.attrs.type && !(*o.attrs.type == ins[k]->type()))
            fail(o.line, o.head + " is printed as " + o.attrs.type->toString() + " but input " + std::to_string(k) + " of " +
                             idName(e.id) + " is " + ins[k]->type().toString());
        x.var = ins[k];
    }
    sc.prepared = true;
    return section;
}

OpPtr Builder::compositeOp(Entity& e, const std::vector<Variable*>& inputs, std::string* why) {
    const Occ& d = occ(e.def);
    InplacePattern inplace;
    if (d.attrs.destroy)
        for (const auto& [o, ins] : *d.attrs.destroy)
            if (ins.size() == 1) inplace[o] = ins[0];
    std::vector<DType> dtypes;
    for (Variable* v : inputs) dtypes.push_back(v->type().dtype);
    std::unique_ptr<Graph> fromName;
    const Graph* body = compositeBody(e, baseName(e), dtypes, &fromName, why);
    if (!body) return nullptr;
    try {
        OpPtr op = makeCompositeElemwise(*body, inplace);
        if (op->name() != baseName(e)) note(d.line, idName(e.id) + ": its body prints as " + op->name() + ", not " + baseName(e));
        return op;
    } catch (const std::exception& ex) {
        *why = ex.what();
        return nullptr;
    }
}

const Graph* Builder::compositeBody(Entity& e, const std::string& name, const std::vector<DType>& dtypes,
                                    std::unique_ptr<Graph>* fromName, std::string* why) {
    if (e.section >= 0) {
        const Scope& owner = m_scopes[static_cast<size_t>(e.section)];
        const Scope& sc = m_scopes[static_cast<size_t>(owner.aliasOf >= 0 ? owner.aliasOf : e.section)];
        if (sc.unbuildable.empty()) return &sc.graph->graph();
        // A printed body that cannot be read (a constant the listing elides) may still be
        // rebuilt from the Composite's name, which prints constants in full.
        std::string detail;
        if (name.find("...") == std::string::npos) *fromName = compositeGraphFromName(name, dtypes, &detail);
        if (!*fromName) {
            *why = sc.unbuildable;
            return nullptr;
        }
        note(occ(e.def).line, idName(e.id) + ": its printed body cannot be read (" + sc.unbuildable + "); rebuilt from its name");
        return fromName->get();
    }
    std::string detail;
    *fromName = compositeGraphFromName(name, dtypes, &detail);
    if (!*fromName) {
        *why = "its body is not printed and " + detail;
        return nullptr;
    }
    note(occ(e.def).line, idName(e.id) + ": the Composite body is not printed; rebuilt from its name" +
                              (detail.empty() ? std::string() : " (constants: " + detail + ")"));
    return fromName->get();
}

OpPtr Builder::careduceCompositeOp(Entity& e, const std::vector<Variable*>& inputs, std::string* why) {
    const Occ& d = occ(e.def);
    const std::string base = baseName(e);
    // CAReduce{<Composite name>, <axes>}: the Composite's name may hold ", " itself, so the axes come from the end.
    size_t at = base.rfind(", axis=");
    if (at == std::string::npos) at = base.rfind(", axes=");
    std::optional<std::vector<int>> axes;
    if (at == std::string::npos || !parseReduceAxes(std::string_view(base).substr(at + 2, base.size() - at - 3), &axes)) {
        *why = "cannot read the axes of " + base;
        return nullptr;
    }
    const std::string compositeName = base.substr(9, at - 9);
    // The fused Composite's first input is the accumulator, then one per reduced input.
    std::vector<DType> dtypes;
    for (Variable* v : inputs) dtypes.push_back(v->type().dtype);
    dtypes.insert(dtypes.begin(), ReduceOp(ReduceKind::Sum, std::nullopt).accumulatorDType(std::vector<DType>{dtypes.at(0)}));
    std::unique_ptr<Graph> fromName;
    const Graph* body = compositeBody(e, compositeName, dtypes, &fromName, why);
    if (!body) return nullptr;
    try {
        auto composite = std::make_shared<const Composite>(*body);
        // The output dtype: as printed, else what the Sum or Prod PyTensor fused gave.
        ReduceParams params;
        bool guessed = false;
        auto printed = printedOutputTypes(e, 1, nullptr, &guessed);
        params.dtype = printed[0] && !guessed ? printed[0]->dtype : reduceOutputDType(ReduceKind::Sum, inputs.at(0)->type().dtype);
        OpPtr op = makeCAReduce(composite, std::move(axes), params);
        if (op->name() != base) note(d.line, idName(e.id) + ": its body prints as " + op->name() + ", not " + base);
        return op;
    } catch (const std::exception& ex) {
        *why = ex.what();
        return nullptr;
    }
}

OpPtr Builder::opaqueFor(Entity& e, const std::vector<Variable*>& inputs, const std::string& why) {
    const Occ& d = occ(e.def);
    const int n = numPrintedOutputs(e);
    bool guessed = false;
    auto printed = printedOutputTypes(e, n, nullptr, &guessed);
    std::vector<Type> types;
    std::string missing;
    for (int k = 0; k < n; ++k) {
        if (printed[static_cast<size_t>(k)]) types.push_back(*printed[static_cast<size_t>(k)]);
        else {
            types.push_back(Type::tensor(DType::Float64, {}));
            missing += (missing.empty() ? "" : ", ") + std::to_string(k);
        }
    }
    auto valid = [&](const std::optional<AliasMap>& m) {
        AliasMap r;
        if (!m) return r;
        for (const auto& [o, ins] : *m)
            for (int i : ins)
                if (o < n && i < static_cast<int>(inputs.size())) r[o].push_back(i);
        return r;
    };
    note(d.line, idName(e.id) + " " + baseName(e) + ": imported as an opaque node (drawn, not executed): " + why +
                     (missing.empty() ? std::string() : "; output types not printed for " + missing + ", taken as float64 0-d") +
                     (e.section >= 0 ? "; its inner graph is not imported" : std::string()));
    return makeOpaque(baseName(e), std::move(types), valid(d.attrs.destroy), valid(d.attrs.view));
}

bool Builder::inlineComposite(Entity& e, const std::vector<Variable*>& inputs, std::string* why) {
    std::vector<DType> dtypes;
    for (Variable* v : inputs) dtypes.push_back(v->type().dtype);
    std::unique_ptr<Graph> fromName;
    const Graph* body = compositeBody(e, baseName(e), dtypes, &fromName, why);
    if (!body) return false;
    std::vector<Type> types;
    for (const Variable* v : body->outputs()) types.push_back(v->type());
    try {
        e.inlined = inlineNestedComposite(graphOf(e.scope), *body, inputs, types, {});
    } catch (const std::exception& ex) {
        *why = ex.what();
        return false;
    }
    return true;
}

void Builder::makeNode(Entity& e, const std::vector<Variable*>& inputs) {
    const Occ& d = occ(e.def);
    const std::string base = baseName(e);
    std::string why;
    OpPtr op;
    if (d.repeat) {
        why = "its inputs are not printed (stop_on_name)";
    } else if (m_scopes[static_cast<size_t>(e.scope)].kind == ScopeKind::CompositeBody && base.rfind("Composite{", 0) == 0) {
        if (inlineComposite(e, inputs, &why)) return;
        m_scopes[static_cast<size_t>(e.scope)].unbuildable = "its nested " + base + " cannot be read: " + why;
    } else if (m_scopes[static_cast<size_t>(e.scope)].kind == ScopeKind::CompositeBody) {
        op = scalarOpFromName(base);
        if (!op) {
            why = "tensorlens has no scalar op " + base;
            m_scopes[static_cast<size_t>(e.scope)].unbuildable = "its body uses the scalar op " + base + ", which tensorlens lacks";
        }
    } else if (base == "Scalarloop") {
        // dprint prints a ScalarLoop's inner inputs as `<float64>`, not `*k-`: which is which
        // state or constant is not in the listing.
        why = "a ScalarLoop's inner inputs print without their positions, so its body cannot be read back";
    } else if (base.rfind("Scan{", 0) == 0) {
        op = scanOp(e, &why);
    } else if (base.rfind("Composite{", 0) == 0) {
        op = compositeOp(e, inputs, &why);
    } else if (base.rfind("CAReduce{Composite{", 0) == 0) {
        op = careduceCompositeOp(e, inputs, &why);
    } else if (isGraphOpName(base) && e.section >= 0) {
        // An OpFromGraph subclass tensorlens has as an op of its own (AllocDiag) is that op,
        // its printed inner graph PyTensor's definition of it; any other runs its body.
        op = base.find("{self.") != std::string::npos ? opFromName(base, inputs, d.attrs.destroy, &why) : nullptr;
        if (op) {
            note(d.line, idName(e.id) + " " + base + ": imported as tensorlens's op; its printed inner graph is not needed");
            return addNode(e, op, inputs, false);
        }
        why.clear();
        op = graphOpFor(e, &why);
    } else {
        op = opFromName(base, inputs, d.attrs.destroy, &why);
    }
    if (op && e.section >= 0 && !op->innerGraph()) {
        op = nullptr;
        why = "it has an inner graph but tensorlens's op has none";
    }
    addNode(e, op ? op : opaqueFor(e, inputs, why), inputs, !op);
}

void Builder::addNode(Entity& e, OpPtr op, const std::vector<Variable*>& inputs, bool opaque) {
    const Occ& d = occ(e.def);
    GraphAssembler& g = graphOf(e.scope);
    std::vector<const Type*> types;
    std::vector<const NDArray*> consts;
    bool guessedIn = false;
    for (Variable* v : inputs) {
        types.push_back(&v->type());
        consts.push_back(v->isConstant() ? &v->constantValue() : nullptr);
        guessedIn |= m_guessed.count(v) > 0;
    }
    // A body typed by guesses (a constant whose dtype was not printed) types the node by guesses too.
    if (e.section >= 0 && !guessedIn) {
        const Scope& own = m_scopes[static_cast<size_t>(e.section)];
        const Scope& body = m_scopes[static_cast<size_t>(own.aliasOf >= 0 ? own.aliasOf : e.section)];
        if (const Graph* bg = body.shared ? body.shared.get() : body.graph ? &body.graph->graph() : nullptr) {
            for (const Variable* c : bg->constants()) guessedIn |= m_guessed.count(c) > 0;
            for (const Node* n : bg->nodes())
                for (const Variable* v : n->outputs()) guessedIn |= m_guessed.count(v) > 0;
        }
    }
    std::vector<Type> inferred;
    try {
        inferred = op->inferTypesWithConstants(types, consts);
    } catch (const std::exception& ex) {
        if (!d.children.empty() && (!guessedIn || opaque)) fail(d.line, baseName(e) + " " + idName(e.id) + ": " + ex.what());
        if (d.children.empty() && !opaque)
            return addNode(e, opaqueFor(e, inputs, "its inputs are not printed (a depth limit?)"), inputs, true);
        return addNode(e, opaqueFor(e, inputs, std::string("its inputs' types (partly not printed) do not fit: ") + ex.what()),
                       inputs, true);
    }
    bool guessedOut = false;
    auto printed = printedOutputTypes(e, static_cast<int>(inferred.size()), &inferred, &guessedOut);
    // A reduction's `dtype` is not in its printed name, only in its printed output type.
    if (const auto* red = dynamic_cast<const ReduceOp*>(op.get());
        red && !opaque && red->reduceKind() != ReduceKind::CAReduce && !red->reduceParams().dtype && printed[0] &&
        printed[0]->dtype != inferred[0].dtype) {
        ReduceParams params = red->reduceParams();
        params.dtype = printed[0]->dtype;
        return addNode(e, makeReduce(red->reduceKind(), red->axes(), params), inputs, false);
    }
    std::vector<Type> declared;
    for (size_t k = 0; k < inferred.size(); ++k) declared.push_back(printed[k] ? *printed[k] : inferred[k]);
    Node* n = nullptr;
    try {
        n = g.addNode(op, inputs, std::nullopt, &declared);
    } catch (const std::exception& ex) {
        if (!guessedIn || opaque) fail(d.line, ex.what());
        return addNode(e, opaqueFor(e, inputs, std::string("its inputs' types (partly not printed) do not fit: ") + ex.what()),
                       inputs, true);
    }
    e.node = n;
    for (int i : e.occs) {
        const Occ& o = occ(i);
        if (o.header) continue;
        int k = -1;
        stripOutputIndex(o.head, &k);
        k = std::max(k, 0);
        if (k >= n->numOutputs())
            fail(o.line, idName(e.id) + " has " + std::to_string(n->numOutputs()) + " outputs; there is no ." + std::to_string(k));
        if (o.attrs.name && m_scopes[static_cast<size_t>(e.scope)].kind != ScopeKind::CompositeBody)
            g.setVariableName(n->output(k), *o.attrs.name);
        if (guessedIn && !o.attrs.type) m_guessed.insert(n->output(k));
    }
    // An opaque node's unprinted output types are placeholders (opaqueFor) as much as
    // anything computed from guessed inputs.
    if (guessedIn || opaque)
        for (Variable* v : n->outputs())
            if (!printed[static_cast<size_t>(v->outputIndex())] || guessedOut) m_guessed.insert(v);
    if (!opaque) {
        if (d.attrs.destroy && *d.attrs.destroy != op->destroyMap())
            note(d.line, idName(e.id) + ": printed d=" + aliasMapText(*d.attrs.destroy) + " but the op destroys " +
                             aliasMapText(op->destroyMap()));
        if (d.attrs.view && *d.attrs.view != op->viewMap())
            note(d.line, idName(e.id) + ": printed v=" + aliasMapText(*d.attrs.view) + " but the op views " + aliasMapText(op->viewMap()));
    }
}

} // namespace tl::dpimport
