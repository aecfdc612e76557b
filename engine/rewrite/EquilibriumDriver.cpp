#include "rewrite/EquilibriumDriver.h"

#include "rewrite/Pipeline.h"

#include <algorithm>
#include <deque>

namespace tl {

namespace {
// Collects the nodes a rewrite touched so they are offered again: what it created,
// what now reads something else, and, for the kinds in `siblingKinds` (those with a
// rewrite whose match looks at the other readers of its inputs), every other reader of
// a value that gained a reader.
class TouchedNodes : public RewriteListener {
public:
    explicit TouchedNodes(const std::vector<char>& siblingKinds)
        : m_siblingKinds(siblingKinds),
          m_watchSiblings(std::find(siblingKinds.begin(), siblingKinds.end(), 1) != siblingKinds.end()) {}
    std::vector<NodeId> nodes;
    void nodeCreated(const Node& n) override {
        nodes.push_back(n.id());
        if (m_watchSiblings)
            for (const Variable* v : n.inputs()) addSiblings(*v, n);
    }
    void variableReplaced(const Variable&, const Variable& now) override { addClients(now); }
    void inputChanged(const Node& n, int, const Variable&, const Variable& now) override {
        nodes.push_back(n.id());
        if (m_watchSiblings) addSiblings(now, n);
    }
    void opChanged(const Node& n, const OpPtr&, const OpPtr&) override { nodes.push_back(n.id()); }

private:
    void addClients(const Variable& v) {
        for (const Client& c : v.clients())
            if (c.node) nodes.push_back(c.node->id());
        if (v.owner()) nodes.push_back(v.owner()->id());
    }
    void addSiblings(const Variable& v, const Node& reader) {
        for (const Client& c : v.clients())
            if (c.node && c.node != &reader && m_siblingKinds[static_cast<size_t>(c.node->kind())]) nodes.push_back(c.node->id());
    }
    const std::vector<char>& m_siblingKinds;
    bool m_watchSiblings;
};
// Which node ids are in the worklist: one byte per id between the lowest id seen
// and the highest (ids are dense: never reused, handed out in increasing order).
class QueuedIds {
public:
    explicit QueuedIds(const Graph& g) {
        for (const Node* n : g.nodes()) m_base = std::min(m_base, n->id());
        m_marks.assign(static_cast<size_t>(g.nextNodeId() - m_base), 0);
    }
    /// True when `id` was not queued yet (it is now).
    bool insert(NodeId id) {
        if (id < m_base) {
            m_marks.insert(m_marks.begin(), static_cast<size_t>(m_base - id), 0);
            m_base = id;
        }
        const size_t k = static_cast<size_t>(id - m_base);
        if (k >= m_marks.size()) m_marks.resize(std::max(k + 1, m_marks.size() * 2), 0);
        if (m_marks[k]) return false;
        m_marks[k] = 1;
        return true;
    }
    void erase(NodeId id) {
        const size_t k = static_cast<size_t>(id - m_base);
        if (id >= m_base && k < m_marks.size()) m_marks[k] = 0;
    }

private:
    NodeId m_base = 0;
    std::vector<char> m_marks;
};
} // namespace

EquilibriumDriver::EquilibriumDriver(std::string name, std::vector<std::string> tags,
                                     std::vector<const NodeRewrite*> rewrites, int maxRewrites)
    : m_name(std::move(name)), m_tags(std::move(tags)), m_rewrites(rewrites), m_enabled(std::move(rewrites)),
      m_maxRewrites(maxRewrites) {}

bool EquilibriumDriver::run(Rewriter& rewriter, const RewriteOptions& options) {
    const Graph& g = rewriter.graph();
    m_fired = 0;
    m_converged = true;
    // Rewrites by root kind, so each node only meets the rewrites that can fire on it.
    std::vector<std::vector<const NodeRewrite*>> byKind(kNumOpKinds);
    std::vector<char> siblingKinds(kNumOpKinds, 0);
    for (const NodeRewrite* r : m_enabled)
        for (OpKind k : r->rootKinds()) {
            byKind[static_cast<int>(k)].push_back(r);
            if (r->matchReadsSiblings()) siblingKinds[static_cast<size_t>(k)] = 1;
        }

    // Only a node of a root kind can start a rewrite, and only a rewrite makes new
    // nodes: a graph without such nodes is left as it is without a walk.
    bool anyRoot = false;
    for (int k = 0; k < kNumOpKinds && !anyRoot; ++k)
        anyRoot = !byKind[k].empty() && g.countOfKind(static_cast<OpKind>(k)) > 0;
    if (!anyRoot) return false;

    std::deque<NodeId> work;
    QueuedIds queued(g);
    for (Node* n : g.toposort()) {
        if (byKind[static_cast<int>(n->kind())].empty()) continue;  // it would meet no rewrite
        work.push_back(n->id());
        queued.insert(n->id());
    }
    TouchedNodes touched(siblingKinds);
    ScopedListener listening(rewriter, &touched);
    bool changed = false;
    while (!work.empty()) {
        NodeId id = work.front();
        work.pop_front();
        queued.erase(id);
        Node* node = g.findNode(id);
        if (!node) continue;  // erased by an earlier rewrite
        for (const NodeRewrite* r : byKind[static_cast<int>(node->kind())]) {
            MatchResult m = r->match(*node, options);
            if (!m) {
                if (!m.whyNot().empty()) rewriter.notifyMatchFailure(r->name(), *node, [&] { return std::string(m.whyNot()); });
                continue;
            }
            if (m_fired >= m_maxRewrites) {
                m_converged = false;
                return changed;
            }
            touched.nodes.clear();
            try {
                RewriteScope step(rewriter, r->name(), node);
                r->apply(rewriter, *node, *m.match, options);
                step.setChanged();
            } catch (const std::exception& e) {
                // Which rewrite, at which node: what a user reporting it needs (the
                // node may be gone by now; its id is not).
                const Node* at = g.findNode(id);
                throw PipelineError("rewrite " + std::string(r->name()) + " at " +
                                    (at ? at->label() : "node " + std::to_string(id)) + ": " + e.what());
            }
            ++m_fired;
            changed = true;
            for (NodeId t : touched.nodes)
                if (queued.insert(t)) work.push_back(t);
            break;  // the node may be gone or different: offer it again if it was touched
        }
    }
    return changed;
}

} // namespace tl
