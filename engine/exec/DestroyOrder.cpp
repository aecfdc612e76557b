#include "exec/DestroyOrder.h"

#include "ir/Op.h"

namespace tl {

namespace {

// The input output `k` aliases through `map`, or -1.
int aliasedInput(const AliasMap& map, int k) {
    auto it = map.find(k);
    return it == map.end() || it->second.empty() ? -1 : it->second.front();
}

} // namespace

const Variable* aliasRoot(const std::unordered_map<const Variable*, const Variable*>& parent, const Variable* v) {
    for (auto it = parent.find(v); it != parent.end(); it = parent.find(v)) v = it->second;
    return v;
}

DestroyOrder planDestroyOrder(const Graph& g, const std::vector<const Node*>& topo,
                              const std::unordered_set<const Node*>& needed,
                              const std::vector<std::pair<int, int>>& rowReuse) {
    DestroyOrder out;
    auto isNeeded = [&](const Node* n) { return n && needed.count(n) != 0; };

    // Aliasing. viewParent follows view_map only: as in PyTensor's DestroyHandler, the
    // output of a destroyer starts a new value even though it reuses the memory.
    // memParent follows both maps: which memory a variable really sits in.
    std::unordered_map<const Variable*, const Variable*> viewParent;
    std::unordered_map<const Variable*, std::vector<const Variable*>> viewChildren;
    for (const Node* n : topo) {
        const AliasMap vm = n->op().viewMap(), dm = n->op().destroyMap();
        for (int k = 0; k < n->numOutputs(); ++k) {
            int vi = aliasedInput(vm, k), di = aliasedInput(dm, k);
            if (vi >= 0 && vi < n->numInputs()) {
                viewParent[n->output(k)] = n->input(vi);
                viewChildren[n->input(vi)].push_back(n->output(k));
            }
            int mi = vi >= 0 ? vi : di;
            if (mi >= 0 && mi < n->numInputs()) out.memParent[n->output(k)] = n->input(mi);
        }
    }
    auto viewTree = [&](const Variable* root) {
        std::vector<const Variable*> tree{root};
        for (size_t i = 0; i < tree.size(); ++i) {
            auto it = viewChildren.find(tree[i]);
            if (it != viewChildren.end()) tree.insert(tree.end(), it->second.begin(), it->second.end());
        }
        return tree;
    };

    // Destroyers: every other reader of a destroyed value's view tree runs first.
    std::unordered_set<const Variable*> destroyedRoots;
    auto reaches = [&](const Node* from, const std::unordered_set<const Node*>& targets) {
        // Most destroyers have no other reader: nothing to find, no walk.
        if (targets.empty()) return false;
        std::vector<const Node*> stack{from};
        std::unordered_set<const Node*> seen{from};
        while (!stack.empty()) {
            const Node* n = stack.back();
            stack.pop_back();
            if (n != from && targets.count(n)) return true;
            auto push = [&](const Node* m) {
                if (isNeeded(m) && seen.insert(m).second) stack.push_back(m);
            };
            for (Variable* o : n->outputs())
                for (const Client& c : o->clients()) push(c.node);
            auto it = out.runBefore.find(n);
            if (it != out.runBefore.end())
                for (const Node* m : it->second) push(m);
        }
        return false;
    };
    for (const Node* d : topo) {
        for (auto& [k, ins] : d->op().destroyMap()) {
            for (int i : ins) {
                if (i < 0 || i >= d->numInputs()) continue;
                const Variable* root = aliasRoot(viewParent, d->input(i));
                bool protect = !root->owner() || destroyedRoots.count(root) != 0;
                std::unordered_set<const Node*> readers;
                for (const Variable* a : viewTree(root))
                    for (const Client& c : a->clients()) {
                        if (c.isGraphOutput()) protect = true;
                        else if (c.node != d && isNeeded(c.node)) readers.insert(c.node);
                    }
                for (int j = 0; j < d->numInputs() && !protect; ++j)
                    if (j != i && aliasRoot(viewParent, d->input(j)) == root) protect = true;
                if (!protect && reaches(d, readers)) protect = true;
                if (protect) {
                    out.copyInputs[d].push_back(i);
                    continue;
                }
                destroyedRoots.insert(root);
                for (const Node* r : readers) out.runBefore[r].push_back(d);
            }
        }
        if (out.copyInputs.count(d)) out.protectedDestroyers.push_back(d);
    }

    // Row reuse: output j's node may write over input i, ordered like a destroyer
    // after the real ones; refused rather than reordered when unsafe.
    const int numInputs = static_cast<int>(g.inputs().size());
    out.rowReuseGranted.assign(rowReuse.size(), 0);
    for (size_t k = 0; k < rowReuse.size(); ++k) {
        const auto [j, i] = rowReuse[k];
        if (j < 0 || j >= static_cast<int>(g.outputs().size()) || i < 0 || i >= numInputs) continue;
        const Node* w = g.outputs()[j]->owner();
        const Variable* in = g.inputs()[i];
        if (!isNeeded(w) || destroyedRoots.count(in)) continue;
        bool ok = true;
        std::unordered_set<const Node*> readers;
        for (const Variable* a : viewTree(in))
            for (const Client& c : a->clients()) {
                if (c.isGraphOutput()) ok = false;
                else if (!isNeeded(c.node)) continue;
                else if (c.node != w) readers.insert(c.node);
                else if (a != in || w->op().kind() != OpKind::Elemwise) ok = false;
            }
        if (!ok || reaches(w, readers)) continue;
        destroyedRoots.insert(in);
        for (const Node* r : readers) out.runBefore[r].push_back(w);
        out.rowReuseGranted[k] = 1;
    }
    return out;
}

} // namespace tl
