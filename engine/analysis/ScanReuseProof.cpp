#include "analysis/ScanReuseProof.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace tl {

namespace {

// The input `v` is at in the node's view_map for some output, or -1.
bool isViewOf(const Node& n, int outIndex) {
    auto vm = n.op().viewMap();
    auto it = vm.find(outIndex);
    return it != vm.end() && !it->second.empty();
}

// `v` and every variable that is a view of it (transitively).
std::vector<const Variable*> viewTree(const Variable* v) {
    std::vector<const Variable*> out{v};
    for (size_t i = 0; i < out.size(); ++i)
        for (const Client& c : out[i]->clients()) {
            if (!c.node) continue;
            for (const auto& [o, ins] : c.node->op().viewMap())
                if (std::find(ins.begin(), ins.end(), c.index) != ins.end()) out.push_back(c.node->output(o));
        }
    return out;
}

} // namespace

std::vector<ReuseProof> proveRowReuse(const Graph& inner, const ScanInfo& info, const std::vector<bool>& candidate) {
    const int T = info.nTracedStates();
    std::vector<ReuseProof> result(T);
    // Orders already promised: reader -> writers that must wait for it.
    std::unordered_map<const Node*, std::vector<const Node*>> extraSucc;
    std::unordered_map<const Variable*, int> outputCount;
    for (const Variable* o : inner.outputs()) ++outputCount[o];

    // One of `targets` reachable from `from` through data and promised edges, or null.
    auto reaches = [&](const Node* from, const std::unordered_set<const Node*>& targets) -> const Node* {
        std::vector<const Node*> stack{from};
        std::unordered_set<const Node*> seen{from};
        while (!stack.empty()) {
            const Node* n = stack.back();
            stack.pop_back();
            if (n != from && targets.count(n)) return n;
            auto push = [&](const Node* m) {
                if (m && seen.insert(m).second) stack.push_back(m);
            };
            for (const Variable* o : n->outputs())
                for (const Client& c : o->clients()) push(c.node);
            if (auto it = extraSucc.find(n); it != extraSucc.end())
                for (const Node* m : it->second) push(m);
        }
        return nullptr;
    };

    for (int s = info.nMitMot(); s < T && s < static_cast<int>(candidate.size()); ++s) {
        if (!candidate[s]) continue;
        ReuseProof& p = result[s];
        const Variable* tap = inner.inputs()[info.innerInTap(s, info.oldestTapIndex(s))];
        const Variable* out = inner.output(info.innerOutState(s));
        const Node* w = out->owner();
        if (!w || isViewOf(*w, out->outputIndex()) || !w->op().destroyMap().empty() || outputCount[out] > 1) {
            p.safe = true;
            p.why = "the new value is not a fresh array of its own, so it is copied in after the step";
            continue;
        }
        std::unordered_set<const Node*> readers;
        std::string blocked;
        for (const Variable* a : viewTree(tap)) {
            for (const Client& c : a->clients()) {
                if (c.isGraphOutput()) {
                    blocked = "the oldest tap is itself an inner output, read after the step";
                } else if (!c.node->op().destroyMap().empty()) {
                    blocked = c.node->label() + " destroys the oldest tap";
                } else if (c.node != w) {
                    readers.insert(c.node);
                } else if (a != tap) {
                    blocked = "the writer " + w->label() + " reads the oldest tap through a view";
                } else if (w->op().kind() != OpKind::Elemwise) {
                    blocked = "the writer " + w->label() + " reads the oldest tap and is not elementwise";
                } else {
                    for (const Variable* o : w->outputs())
                        if (o->type().shape != tap->type().shape)
                            blocked = "the writer " + w->label() + " broadcasts the oldest tap";
                }
                if (!blocked.empty()) break;
            }
            if (!blocked.empty()) break;
        }
        if (const Node* late = blocked.empty() ? reaches(w, readers) : nullptr)
            blocked = late->label() + " reads the oldest tap but needs the result of its writer " + w->label();
        if (!blocked.empty()) {
            p.why = blocked;
            continue;
        }
        for (const Node* r : readers) extraSucc[r].push_back(w);
        p.safe = true;
        const bool writerReads = std::any_of(tap->clients().begin(), tap->clients().end(),
                                             [&](const Client& c) { return c.node == w; });
        if (readers.empty()) p.why = writerReads ? "the only reader of the oldest tap is its writer " + w->label() + ", elementwise"
                                                 : "nothing reads the oldest tap";
        else
            p.why = std::to_string(readers.size()) + " other reader(s) of the oldest tap run before the writer " + w->label() +
                    (writerReads ? ", which reads it elementwise" : "");
    }
    return result;
}

} // namespace tl
