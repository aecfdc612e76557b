#include "rewrite/FusionGroups.h"

#include "ops/Elemwise.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

// The partition is built in one walk in topological order. Every node gets a
// "taint": the groups it depends on other than its own (through any path).
// A node may join group G when no producer has G in its taint: a producer
// outside G that depends on G would make the contracted group both feed and
// read that producer (a cycle). Two groups may merge (through a node joining
// both) when neither group's members depend on the other. A group that can
// no longer grow (no unprocessed consumer of its members, no shared input with
// an unprocessed reader) is "sealed" and dropped from every taint, so taints
// stay as small as the number of groups still open: linear on chains, on
// stages separated by reductions, and on scan bodies.

namespace tl {

namespace {

using Pattern = std::vector<char>;  // per dim: 1 when statically broadcastable

bool tensorPattern(const Type& t, Pattern& out) {
    if (t.isScalarType()) return false;
    out.assign(t.shape.size(), 0);
    for (size_t d = 0; d < t.shape.size(); ++d) out[d] = t.shape[d] == 1;
    return true;
}

std::optional<Pattern> fusionPattern(const Node& n) {
    const auto* e = dynamic_cast<const Elemwise*>(&n.op());
    if (!e || !e->inplacePattern().empty() || n.numOutputs() == 0) return std::nullopt;
    Pattern p, q;
    for (int k = 0; k < n.numOutputs(); ++k) {
        if (!tensorPattern(n.output(k)->type(), k == 0 ? p : q)) return std::nullopt;
        if (k > 0 && q != p) return std::nullopt;
    }
    return p;
}

int nodeClients(const Variable& v) {
    int c = 0;
    for (const Client& cl : v.clients()) c += cl.node != nullptr;
    return c;
}

class Partitioner {
public:
    Partitioner(const Graph& g, bool siblings) : m_siblings(siblings), m_topo(g.toposort()) {
        // Ids are dense (never reused, below the next id): plain vectors, no hashing.
        // A loaded graph may hold negative ids; the vectors then start lower.
        for (const Node* n : m_topo) {
            m_nodeBase = std::min(m_nodeBase, n->id());
            for (const auto* list : {&n->inputs(), &n->outputs()})
                for (const Variable* v : *list) m_varBase = std::min(m_varBase, v->id());
        }
        m_index.assign(static_cast<size_t>(g.nextNodeId() - m_nodeBase), -1);
        m_vars.resize(static_cast<size_t>(g.nextVarId() - m_varBase));
        for (size_t i = 0; i < m_topo.size(); ++i) m_index[static_cast<size_t>(m_topo[i]->id() - m_nodeBase)] = static_cast<int>(i);
        m_groupOf.assign(m_topo.size(), -1);
        m_taint.resize(m_topo.size());
    }

    std::vector<FusionGroup> run() {
        for (size_t i = 0; i < m_topo.size(); ++i) visit(static_cast<int>(i));
        std::unordered_map<int, size_t> slot;
        std::vector<FusionGroup> groups;
        for (size_t i = 0; i < m_topo.size(); ++i) {
            if (m_groupOf[i] < 0) continue;
            auto [it, fresh] = slot.emplace(find(m_groupOf[i]), groups.size());
            if (fresh) groups.emplace_back();
            groups[it->second].members.push_back(m_topo[i]);
        }
        std::vector<FusionGroup> out;
        for (FusionGroup& g : groups)
            if (g.members.size() >= 2) out.push_back(std::move(g));
        auto last = [&](const FusionGroup& g) { return indexOf(g.members.back()); };
        std::sort(out.begin(), out.end(), [&](const FusionGroup& a, const FusionGroup& b) { return last(a) < last(b); });
        return out;
    }

private:
    struct VarState {
        int processed = 0;   // clients already visited
        int group = -1;      // the last group that read this variable
        bool counted = false;  // counted in that group's m_interest
    };

    int find(int g) {
        int r = g;
        while (m_parent[r] != r) r = m_parent[r];
        while (m_parent[g] != r) {
            const int next = m_parent[g];
            m_parent[g] = r;
            g = next;
        }
        return r;
    }
    int indexOf(const Node* n) const { return m_index[static_cast<size_t>(n->id() - m_nodeBase)]; }
    VarState& state(const Variable* v) { return m_vars[static_cast<size_t>(v->id() - m_varBase)]; }
    bool sealed(int root) const { return m_pending[root] == 0 && m_interest[root] == 0; }
    // Roots of the open groups in s, sorted and unique.
    void canon(std::vector<int>& s) {
        for (int& g : s) g = find(g);
        s.erase(std::remove_if(s.begin(), s.end(), [&](int g) { return sealed(g); }), s.end());
        std::sort(s.begin(), s.end());
        s.erase(std::unique(s.begin(), s.end()), s.end());
    }
    static bool has(const std::vector<int>& sorted, int g) { return std::binary_search(sorted.begin(), sorted.end(), g); }

    int newGroup(Pattern p) {
        const int id = static_cast<int>(m_parent.size());
        m_parent.push_back(id);
        m_pending.push_back(0);
        m_interest.push_back(0);
        m_groupTaint.emplace_back();
        m_pattern.push_back(std::move(p));
        return id;
    }
    int merge(int a, int b) {
        a = find(a);
        b = find(b);
        if (a == b) return a;
        if (m_groupTaint[a].size() < m_groupTaint[b].size()) std::swap(a, b);
        m_parent[b] = a;
        m_pending[a] += m_pending[b];
        m_interest[a] += m_interest[b];
        m_groupTaint[a].insert(m_groupTaint[a].end(), m_groupTaint[b].begin(), m_groupTaint[b].end());
        std::vector<int>().swap(m_groupTaint[b]);
        canon(m_groupTaint[a]);
        return a;
    }
    bool shareable(const Variable& v, const Pattern& p) const {
        Pattern q;
        return m_siblings && !v.isConstant() && tensorPattern(v.type(), q) && q == p;
    }

    void visit(int i) {
        const Node& n = *m_topo[i];
        // What the producers depend on: `blocked` through paths that left a group,
        // `all` also counting the producers' own groups.
        std::vector<int> blocked, all;
        for (const Variable* v : n.inputs()) {
            if (!v->owner()) continue;
            const int j = indexOf(v->owner());
            blocked.insert(blocked.end(), m_taint[j].begin(), m_taint[j].end());
            if (m_groupOf[j] >= 0) all.push_back(m_groupOf[j]);
        }
        all.insert(all.end(), blocked.begin(), blocked.end());
        canon(blocked);
        canon(all);

        const std::optional<Pattern> pattern = fusionPattern(n);
        std::vector<int> candidates;
        if (pattern) {
            auto offer = [&](int g) {
                g = find(g);
                if (!sealed(g) && m_pattern[g] == *pattern &&
                    std::find(candidates.begin(), candidates.end(), g) == candidates.end())
                    candidates.push_back(g);
            };
            for (const Variable* v : n.inputs()) {
                if (v->owner() && m_groupOf[indexOf(v->owner())] >= 0) offer(m_groupOf[indexOf(v->owner())]);
                if (shareable(*v, *pattern) && state(v).group >= 0) offer(state(v).group);
            }
        }
        std::vector<int> chosen;
        for (int g : candidates) {
            if (has(blocked, g)) continue;
            canon(m_groupTaint[g]);
            bool ok = true;
            for (int h : chosen)
                if (has(m_groupTaint[g], h) || has(m_groupTaint[h], g)) ok = false;
            if (ok) chosen.push_back(g);
        }

        int group = -1;
        if (!chosen.empty()) {
            group = chosen[0];
            for (size_t k = 1; k < chosen.size(); ++k) group = merge(group, chosen[k]);
        } else if (pattern) {
            group = newGroup(*pattern);
        }
        m_groupOf[i] = group;

        canon(all);  // merges may have renamed groups
        if (group >= 0) {
            all.erase(std::remove(all.begin(), all.end(), group), all.end());
            std::vector<int>& gt = m_groupTaint[group];
            gt.insert(gt.end(), all.begin(), all.end());
            canon(gt);
            for (const Variable* o : n.outputs()) m_pending[group] += nodeClients(*o);
        }
        m_taint[i] = std::move(all);

        // The edges into n are now visited.
        for (const Variable* v : n.inputs()) {
            if (v->owner() && m_groupOf[indexOf(v->owner())] >= 0) --m_pending[find(m_groupOf[indexOf(v->owner())])];
            VarState& s = state(v);
            if (++s.processed == nodeClients(*v) && s.counted) {
                --m_interest[find(s.group)];
                s.counted = false;
            }
        }
        // A later reader of one of n's full-size inputs may join n's group as a sibling.
        if (group >= 0 && m_siblings)
            for (const Variable* v : n.inputs()) {
                if (!shareable(*v, *pattern)) continue;
                VarState& s = state(v);
                if (s.counted) --m_interest[find(s.group)];
                s.group = group;
                s.counted = s.processed < nodeClients(*v);
                if (s.counted) ++m_interest[group];
            }
    }

    bool m_siblings;
    std::vector<Node*> m_topo;
    NodeId m_nodeBase = 0;
    VarId m_varBase = 0;
    std::vector<int> m_index;                  // per node id: position in m_topo, or -1
    std::vector<int> m_groupOf;                // per node: raw group id, or -1
    std::vector<std::vector<int>> m_taint;     // per node
    std::vector<int> m_parent;                 // per group: union-find
    std::vector<int64_t> m_pending;            // unvisited node clients of the members' outputs
    std::vector<int64_t> m_interest;           // shared inputs whose readers are not all visited
    std::vector<std::vector<int>> m_groupTaint;  // union of the members' taints
    std::vector<Pattern> m_pattern;
    std::vector<VarState> m_vars;              // per variable id
};

} // namespace

bool isFuseableElemwise(const Node& n) { return fusionPattern(n).has_value(); }

std::vector<FusionGroup> findFusionGroups(const Graph& g, bool siblings) { return Partitioner(g, siblings).run(); }

} // namespace tl
