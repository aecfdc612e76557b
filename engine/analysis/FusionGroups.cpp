#include "analysis/FusionGroups.h"

#include "ops/Elemwise.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

// The partition is built in one walk in topological order, on the graph as it
// will be once every group is contracted to one node: a group depends on
// whatever any of its members depends on. Each node outside a group keeps
// `deps`, the groups it depends on; each group keeps `gdeps`, the groups its
// members depend on (never itself).
// - A node may join group G unless one of its producers (outside G) depends on
//   G: G would then both feed and read that producer (a cycle).
// - Groups merge through a node joining several only when neither depends on
//   the other.
// - Once something outside G has read a member, G is "frozen": it may still
//   grow, but not gain dependencies, so every set computed downstream of G
//   stays complete (otherwise two groups could each feed the other through
//   members that are not connected among themselves).
// - A group that can no longer grow (no unvisited reader of its members, no
//   shared input with an unvisited reader) is "sealed" and dropped from every
//   set: sets hold only open groups, so the walk is linear on chains, on stages
//   separated by reductions, and on scan bodies.

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
    // A ScalarLoop stays its own node, as in PyTensor: a Composite holds no loop.
    if (!e || e->isScalarLoop() || !e->inplacePattern().empty() || n.numOutputs() == 0) return std::nullopt;
    Pattern p, q;
    for (int k = 0; k < n.numOutputs(); ++k) {
        if (!tensorPattern(n.output(k)->type(), k == 0 ? p : q)) return std::nullopt;
        if (k > 0 && q != p) return std::nullopt;
    }
    return p;
}

class Partitioner {
public:
    Partitioner(const Graph& g, bool siblings) : m_siblings(siblings), m_topo(g.toposort()) {
        // Per-node and per-variable state in plain vectors indexed by slot (the graph
        // is not edited while the partition is built): no hashing, and no larger
        // than the graph.
        m_index.assign(g.numNodes(), -1);
        m_vars.resize(g.numVariables());
        for (size_t i = 0; i < m_topo.size(); ++i) m_index[m_topo[i]->slot()] = static_cast<int>(i);
        // Dead nodes (no graph output needs them) are invisible: they are never fused
        // and their reads freeze or hold open no group. Marked in one sweep against
        // the topological order (a node's readers come after it) rather than a search
        // from the outputs: the sweep's next node never waits on the last one's loads,
        // which on a graph larger than the cache is most of a search's time.
        m_needed.assign(m_topo.size(), 0);
        for (const Variable* o : g.outputs())
            if (o->owner()) m_needed[indexOf(o->owner())] = 1;
        for (size_t i = m_topo.size(); i-- > 0;)
            if (m_needed[i])
                for (const Variable* v : m_topo[i]->inputs())
                    if (v->owner()) m_needed[indexOf(v->owner())] = 1;
        m_groupOf.assign(m_topo.size(), -1);
        m_deps.resize(m_topo.size());
    }

    std::vector<FusionGroup> run() {
        for (size_t i = 0; i < m_topo.size(); ++i)
            if (m_needed[i]) visit(static_cast<int>(i));
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
    // Per variable: the last few groups that read it (sibling candidates for its later
    // readers), each counted in that group's m_interest while the variable has unvisited readers.
    static constexpr size_t kSiblingGroups = 4;
    struct VarState {
        int processed = 0;          // readers already visited
        int readers = -1;           // needed node clients, counted once (-1: not yet)
        std::vector<int> groups;    // most recent last
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
    // Counted once per variable: a broadcast constant read by every other node of a
    // chain would otherwise be recounted at each reader (quadratic).
    int nodeClients(const Variable& v) {
        int& c = state(&v).readers;
        if (c >= 0) return c;
        c = 0;
        for (const Client& cl : v.clients()) c += cl.node && m_needed[indexOf(cl.node)];
        return c;
    }
    int indexOf(const Node* n) const { return m_index[n->slot()]; }
    VarState& state(const Variable* v) { return m_vars[v->slot()]; }
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
        m_groupDeps.emplace_back();
        m_frozen.push_back(0);
        m_pattern.push_back(std::move(p));
        return id;
    }
    int merge(int a, int b) {
        a = find(a);
        b = find(b);
        if (a == b) return a;
        if (m_groupDeps[a].size() < m_groupDeps[b].size()) std::swap(a, b);
        m_parent[b] = a;
        m_pending[a] += m_pending[b];
        m_interest[a] += m_interest[b];
        m_frozen[a] = m_frozen[a] || m_frozen[b];
        m_groupDeps[a].insert(m_groupDeps[a].end(), m_groupDeps[b].begin(), m_groupDeps[b].end());
        std::vector<int>().swap(m_groupDeps[b]);
        canon(m_groupDeps[a]);
        m_groupDeps[a].erase(std::remove(m_groupDeps[a].begin(), m_groupDeps[a].end(), a), m_groupDeps[a].end());
        return a;
    }
    bool shareable(const Variable& v, const Pattern& p) const {
        Pattern q;
        return m_siblings && !v.isConstant() && tensorPattern(v.type(), q) && q == p;
    }

    // Sorted, canonical `a` contains every element of sorted, canonical `b`.
    static bool includes(const std::vector<int>& a, const std::vector<int>& b) {
        return std::includes(a.begin(), a.end(), b.begin(), b.end());
    }

    void visit(int i) {
        const Node& n = *m_topo[i];
        // `up`: what the producers depend on (a producer in a group: everything its
        // group depends on); `all`: also the producers' own groups.
        std::vector<int> up, all;
        for (const Variable* v : n.inputs()) {
            if (!v->owner()) continue;
            const int j = indexOf(v->owner());
            if (m_groupOf[j] >= 0) {
                const int g = find(m_groupOf[j]);
                all.push_back(g);
                up.insert(up.end(), m_groupDeps[g].begin(), m_groupDeps[g].end());
            } else {
                up.insert(up.end(), m_deps[j].begin(), m_deps[j].end());
            }
        }
        all.insert(all.end(), up.begin(), up.end());
        canon(up);
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
                if (shareable(*v, *pattern))
                    for (int g : state(v).groups) offer(g);
            }
        }
        // The candidates n joins together: none blocked, none depending on another, and no
        // frozen one gaining dependencies. A group dropped for the last reason is left out
        // and the choice redone (at most once per candidate).
        std::vector<int> chosen, excluded;
        for (bool redo = true; redo;) {
            chosen.clear();
            for (int g : candidates) {
                if (has(up, g) || std::find(excluded.begin(), excluded.end(), g) != excluded.end()) continue;
                canon(m_groupDeps[g]);
                bool ok = true;
                for (int h : chosen) ok &= !has(m_groupDeps[g], h) && !has(m_groupDeps[h], g);
                if (ok) chosen.push_back(g);
            }
            std::vector<int> combined = all;
            for (int h : chosen) combined.insert(combined.end(), m_groupDeps[h].begin(), m_groupDeps[h].end());
            canon(combined);
            for (int h : chosen) combined.erase(std::remove(combined.begin(), combined.end(), h), combined.end());
            redo = false;
            for (int h : chosen)
                if (m_frozen[h] && !includes(m_groupDeps[h], combined)) {
                    excluded.push_back(h);
                    redo = true;
                }
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
            std::vector<int>& gd = m_groupDeps[group];
            gd.insert(gd.end(), all.begin(), all.end());
            canon(gd);
            for (const Variable* o : n.outputs()) m_pending[group] += nodeClients(*o);
        } else {
            m_deps[i] = std::move(all);
        }

        // The edges into n are now visited; a group read from outside is frozen.
        for (const Variable* v : n.inputs()) {
            if (v->owner() && m_groupOf[indexOf(v->owner())] >= 0) {
                const int g = find(m_groupOf[indexOf(v->owner())]);
                --m_pending[g];
                if (g != group) m_frozen[g] = 1;
            }
            VarState& s = state(v);
            if (++s.processed == nodeClients(*v)) {
                for (int g : s.groups) --m_interest[find(g)];
                s.groups.clear();
            }
        }
        // A later reader of one of n's full-size inputs may join n's group as a sibling.
        if (group >= 0 && m_siblings)
            for (const Variable* v : n.inputs()) {
                if (!shareable(*v, *pattern)) continue;
                VarState& s = state(v);
                if (s.processed >= nodeClients(*v)) continue;  // no reader left to join
                auto same = [&](int g) { return find(g) == group; };
                if (std::any_of(s.groups.begin(), s.groups.end(), same)) continue;
                if (s.groups.size() == kSiblingGroups) {
                    --m_interest[find(s.groups.front())];
                    s.groups.erase(s.groups.begin());
                }
                s.groups.push_back(group);
                ++m_interest[group];
            }
    }

    bool m_siblings;
    std::vector<Node*> m_topo;
    std::vector<int> m_index;                  // per node slot: position in m_topo
    std::vector<char> m_needed;                // per node: some graph output depends on it
    std::vector<int> m_groupOf;                // per node: raw group id, or -1
    std::vector<std::vector<int>> m_deps;      // per node outside every group: the groups it depends on
    std::vector<int> m_parent;                 // per group: union-find
    std::vector<int64_t> m_pending;            // unvisited node clients of the members' outputs
    std::vector<int64_t> m_interest;           // shared inputs whose readers are not all visited
    std::vector<std::vector<int>> m_groupDeps;  // the groups the members depend on
    std::vector<char> m_frozen;                // read from outside: may not gain dependencies
    std::vector<Pattern> m_pattern;
    std::vector<VarState> m_vars;              // per variable slot
};

} // namespace

bool isFuseableElemwise(const Node& n) { return fusionPattern(n).has_value(); }

std::vector<FusionGroup> findFusionGroups(const Graph& g, bool siblings) { return Partitioner(g, siblings).run(); }

} // namespace tl
