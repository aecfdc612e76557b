#include "exec/LazyBranches.h"

#include "ops/IfElse.h"

#include <unordered_set>

namespace tl {

namespace {

// The nodes among `within` that `roots` depend on (their owners and everything above).
std::unordered_set<const Node*> ancestors(const std::vector<const Variable*>& roots,
                                          const std::unordered_set<const Node*>& within) {
    std::unordered_set<const Node*> seen;
    std::vector<const Node*> stack;
    for (const Variable* v : roots)
        if (v->owner() && within.count(v->owner()) && seen.insert(v->owner()).second) stack.push_back(v->owner());
    while (!stack.empty()) {
        const Node* n = stack.back();
        stack.pop_back();
        for (const Variable* in : n->inputs())
            if (in->owner() && within.count(in->owner()) && seen.insert(in->owner()).second) stack.push_back(in->owner());
    }
    return seen;
}

} // namespace

void LazyBranches::analyse(const std::vector<const Node*>& topo) {
    const std::unordered_set<const Node*> within(topo.begin(), topo.end());
    for (const Node* x : topo) {
        if (x->op().kind() != OpKind::IfElse || x->numInputs() < 3) continue;
        const Variable* cond = x->input(0);
        const std::unordered_set<const Node*> condSide = ancestors({cond}, within);
        std::vector<const Variable*> branches(x->inputs().begin() + 1, x->inputs().end());
        for (const Node* n : ancestors(branches, within)) {
            if (condSide.count(n)) continue;  // needed for the condition, whichever branch is taken
            m_lazyNodes[n] = 1;
            if (cond->owner() && within.count(cond->owner())) m_orderings[cond->owner()].push_back(n);
        }
    }
}

void LazyBranches::bind(const std::vector<const Node*>& order, const std::function<uint32_t(const Variable*)>& slotOf) {
    if (!any()) return;
    std::unordered_map<const Node*, uint32_t> stepOf;
    for (size_t i = 0; i < order.size(); ++i) stepOf[order[i]] = static_cast<uint32_t>(i);
    m_steps.assign(order.size(), StepInfo{});
    for (size_t i = 0; i < order.size(); ++i) {
        const Node* n = order[i];
        StepInfo& s = m_steps[i];
        s.lazy = m_lazyNodes.count(n) != 0;
        for (const Variable* o : n->outputs())
            for (const Client& c : o->clients()) {
                if (c.isGraphOutput()) s.feedsOutput = true;
                else if (auto it = stepOf.find(c.node); it != stepOf.end()) s.uses.push_back({it->second, c.index});
            }
        if (const auto* ie = dynamic_cast<const IfElseOp*>(&n->op())) {
            s.ifElse = true;
            s.nOuts = ie->nOuts();
            s.condSlot = slotOf(n->input(0));
            auto it = stepOf.find(n->input(0)->owner());
            s.condStep = it == stepOf.end() ? -1 : static_cast<int64_t>(it->second);
        }
    }
    m_ran.assign(order.size(), 0);
    m_memo.assign(order.size(), 0);
}

void LazyBranches::beginRun() {
    if (!any()) return;
    std::fill(m_ran.begin(), m_ran.end(), 0);
    std::fill(m_memo.begin(), m_memo.end(), 0);
}

bool LazyBranches::edgeActive(size_t client, int position, const NDArray* values) const {
    const StepInfo& c = m_steps[client];
    if (!c.ifElse || position == 0) return true;
    // An IfElse whose condition is not known yet may still take this branch.
    if (c.condStep >= 0 && !m_ran[static_cast<size_t>(c.condStep)]) return true;
    const NDArray& cond = values[c.condSlot];
    if (!cond.valid() || cond.size() != 1) return true;
    const bool taken = cond.item() != 0.0;
    const bool thenSide = position <= c.nOuts;
    return thenSide == taken;
}

bool LazyBranches::skippable(size_t si, const NDArray* values) {
    if (!any() || !m_steps[si].lazy) return false;
    // need(n) = n feeds a graph output, or some use is active and its node is needed.
    // Iterative depth-first search over uses with memoised answers; an unknown
    // condition counts as taking both branches, so "not needed" is always definite.
    if (m_memo[si] == 0) {
        m_stack.assign(1, {static_cast<uint32_t>(si), 0});
        while (!m_stack.empty()) {
            auto [n, k] = m_stack.back();
            const StepInfo& s = m_steps[n];
            if (s.feedsOutput) {
                m_memo[n] = 1;
                m_stack.pop_back();
                continue;
            }
            bool decided = false, descended = false;
            for (; k < s.uses.size(); ++k) {
                const Use& u = s.uses[k];
                if (!edgeActive(u.step, u.position, values)) continue;
                if (m_memo[u.step] == 1) {
                    decided = true;
                    break;
                }
                if (m_memo[u.step] == 2) continue;
                m_stack.back().second = k;
                m_stack.push_back({u.step, 0});
                descended = true;
                break;
            }
            if (descended) continue;
            m_memo[n] = decided ? 1 : 2;
            m_stack.pop_back();
        }
    }
    return m_memo[si] == 2;
}

} // namespace tl
