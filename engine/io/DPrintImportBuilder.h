#pragma once
// The graph builder of the dprint importer (see io/DPrintImportInternal.h). An
// entity is one [id X]: an Apply node or a leaf (input, constant, inner input).
// A scope is one graph: the outer listing (scope 0) or the body printed in
// inner-graph section s (scope s). Building runs on an explicit stack: an Apply
// entity first needs its input entities, then (Scan, Composite) its body scope,
// then becomes a node; a scope needs the entities of its outputs. Nothing recurses
// on graph depth or on the nesting of inner graphs.
#include "io/DPrintImport.h"
#include "io/DPrintImportInternal.h"
#include "ir/GraphAssembler.h"
#include "ops/Composite.h"

#include <map>
#include <unordered_map>
#include <unordered_set>

namespace tl::dpimport {

struct Entity {
    int64_t id = -1;
    std::vector<int> occs;  ///< every occurrence, in text order (headers included)
    int def = -1;           ///< the defining occurrence: the first one that is no header
    bool apply = false;
    int scope = 0;          ///< scope it belongs to (the section of `def`)
    int section = -1;       ///< the inner-graph section it heads, if any
    int state = 0;          ///< 0 not built, 1 in progress, 2 built
    Node* node = nullptr;   ///< Apply entities
    Variable* var = nullptr;  ///< leaves
    std::vector<Variable*> inlined;  ///< a Composite nested in a Composite body: its outputs, copied into that body
};

enum class ScopeKind { Outer, ScanBody, CompositeBody, GraphOpBody, OtherBody };

struct Scope {
    ScopeKind kind = ScopeKind::Outer;
    int owner = -1;          ///< entity whose body this is (-1 for the outer graph)
    int aliasOf = -1;        ///< a section that repeats another section's body
    std::unique_ptr<GraphAssembler> graph;
    std::shared_ptr<const Graph> shared;  ///< the finished body (Scan), shared between owners
    bool prepared = false, built = false;
    std::string unbuildable;  ///< why the body cannot become an executable op (unknown scalar op, ...)
    ScanInfo layout;          ///< Scan bodies: the layout the owner inferred
    bool inProgress = false;
};

class Builder {
public:
    Builder(Listing& listing, DPrintImport& out, const DPrintInputTypes& inputTypes);
    void run();

private:
    // ---- DPrintImportBuild.cpp
    void classify();
    void detectOptions();
    void createOuterInputs();
    void buildAll();
    bool stepScope(int s, int& stage);
    Variable* inputVar(int occ);                  ///< the variable an input line shows (leaves built on demand)
    Variable* leafVar(Entity& e);
    /// A constant leaf in `scope`: PyTensor shares one constant object between graphs
    /// (an outer constant reused in a loop body its gradient built), so it has a copy per body.
    Variable* constantIn(Entity& e, int scope);
    /// True for a leaf that prints a constant (literal, SliceConstant, NoneConst).
    bool isConstantLeaf(const Entity& e) const;
    Variable* makeConstant(const Occ& o, const Literal& lit, Scope& scope, GraphAssembler& g);
    Type leafType(const Occ& o, const std::string& what, bool* guessed);
    Entity& entityOf(int occ) { return m_entities[static_cast<size_t>(m_byId.at(m_l.occs[static_cast<size_t>(occ)].id))]; }
    const Occ& occ(int i) const { return m_l.occs[static_cast<size_t>(i)]; }
    GraphAssembler& graphOf(int scope);
    void note(int line, const std::string& text);

    // ---- DPrintImportNodes.cpp
    /// Before the node: prepares the body scope it needs; returns the scope to build first, or -1.
    int prepareBody(Entity& e, const std::vector<Variable*>& inputs);
    void makeNode(Entity& e, const std::vector<Variable*>& inputs);
    int prepareScanBody(Entity& e, const std::vector<Variable*>& inputs, int section);
    int prepareCompositeBody(Entity& e, const std::vector<Variable*>& inputs, int section);
    OpPtr scanOp(Entity& e, std::string* why);
    // ---- DPrintImportGraphOps.cpp
    /// SliceConstant{...} and NoneConst{None} leaves, or null for any other leaf.
    Variable* indexConstant(const Occ& o, GraphAssembler& g);
    int prepareGraphOpBody(Entity& e, const std::vector<Variable*>& inputs, int section);
    OpPtr graphOpFor(Entity& e, std::string* why);
    OpPtr compositeOp(Entity& e, const std::vector<Variable*>& inputs, std::string* why);
    /// CAReduce{Composite{...}, axis=1}: its body (or its name) plus an accumulator input.
    OpPtr careduceCompositeOp(Entity& e, const std::vector<Variable*>& inputs, std::string* why);
    /// A Composite's body: its printed inner graph, else rebuilt from `name` for inputs of
    /// `dtypes` (kept in *fromName); null with *why when neither is possible.
    const Graph* compositeBody(Entity& e, const std::string& name, const std::vector<DType>& dtypes,
                               std::unique_ptr<Graph>* fromName, std::string* why);
    void addNode(Entity& e, OpPtr op, const std::vector<Variable*>& inputs, bool opaque);
    OpPtr opaqueFor(Entity& e, const std::vector<Variable*>& inputs, const std::string& why);
    /// A Composite inside a Composite's body: its body copied in (no scalar op holds a
    /// graph). False, with *why, when its body cannot be had.
    bool inlineComposite(Entity& e, const std::vector<Variable*>& inputs, std::string* why);
    std::vector<std::optional<Type>> printedOutputTypes(const Entity& e, int numOutputs, const std::vector<Type>* inferred,
                                                        bool* guessed);
    int numPrintedOutputs(const Entity& e) const;
    std::string baseName(const Entity& e) const;

    Listing& m_l;
    DPrintImport& m_out;
    const DPrintInputTypes& m_inputTypes;
    std::vector<Entity> m_entities;
    std::unordered_map<int64_t, int> m_byId;
    std::vector<Scope> m_scopes;  ///< [0] outer, [s] section s
    std::unordered_set<const Variable*> m_guessed;  ///< variables whose type the listing did not fully print
    /// Opaque nodes standing for leaves (an elided constant, an input of a type tensorlens
    /// lacks): PyTensor's topological indices do not count them.
    std::unordered_set<const Node*> m_leafStandIns;
    std::vector<std::vector<int>> m_scopeEntities;  ///< entities belonging to each scope
    /// `*k-<Type>` inner inputs shown in each section. PyTensor's NominalVariable is one
    /// object per (k, type), so one [id X] may stand for inputs of several bodies.
    std::vector<std::vector<int>> m_sectionNominals;
    std::map<std::pair<int, int>, Variable*> m_nominalVars;  ///< (entity, section) -> that body's input
    std::map<std::pair<int, int>, Variable*> m_constantCopies;  ///< (entity, scope) -> a shared constant's copy there
    /// A nominal leaf's variable in the body of `section`, or null.
    Variable* nominalVar(int entity, int section) const;
    void bindNominal(int entity, int section, Variable* v);
    std::unordered_set<int64_t> m_unprintedLinks;   ///< `-> [id X]` targets the listing does not show
    std::unordered_set<int> m_orphanSections;        ///< inner graphs of nodes a depth limit cut off
};

} // namespace tl::dpimport
