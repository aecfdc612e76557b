#include "model/NodeRef.h"

#include <charconv>

namespace tl {

NodeRef NodeRef::parent() const {
    if (path.size() < 2) return {};
    return NodeRef(std::vector<NodeId>(path.begin(), path.end() - 1));
}

NodeRef NodeRef::child(NodeId id) const {
    NodeRef r = *this;
    r.path.push_back(id);
    return r;
}

std::string NodeRef::key() const {
    std::string k;
    for (size_t i = 0; i < path.size(); ++i) {
        if (i) k += '/';
        k += 'n';
        k += std::to_string(path[i]);
    }
    return k;
}

std::optional<NodeRef> NodeRef::fromKey(const std::string& key) {
    NodeRef r;
    size_t i = 0;
    while (i < key.size()) {
        if (key[i] != 'n') return std::nullopt;
        ++i;
        NodeId id = 0;
        const char* begin = key.data() + i;
        const char* end = key.data() + key.size();
        auto [p, ec] = std::from_chars(begin, end, id);
        if (ec != std::errc() || p == begin) return std::nullopt;
        r.path.push_back(id);
        i = static_cast<size_t>(p - key.data());
        if (i == key.size()) break;
        if (key[i] != '/') return std::nullopt;
        ++i;
    }
    if (r.path.empty()) return std::nullopt;
    return r;
}

std::string NodeRef::label() const {
    std::string s;
    for (size_t i = 0; i < path.size(); ++i) s += (i ? " / #" : "#") + std::to_string(path[i]);
    return s;
}

const Graph* graphHolding(const Graph& g, const NodeRef& ref) {
    const Graph* cur = &g;
    for (size_t i = 0; i + 1 < ref.path.size(); ++i) {
        const Node* n = cur->findNode(ref.path[i]);
        if (!n) return nullptr;
        // The op keeps its body alive and is itself kept by the node: the pointer
        // stays valid as long as `g` holds the node.
        const std::shared_ptr<const Graph> body = n->op().innerGraph();
        if (!body) return nullptr;
        cur = body.get();
    }
    return cur;
}

const Node* resolveNode(const Graph& g, const NodeRef& ref) {
    if (!ref.valid()) return nullptr;
    const Graph* holder = graphHolding(g, ref);
    return holder ? holder->findNode(ref.leaf()) : nullptr;
}

std::vector<NodeRef> outerRefs(const std::vector<NodeId>& ids) {
    std::vector<NodeRef> out;
    out.reserve(ids.size());
    for (NodeId id : ids) out.push_back(NodeRef::outer(id));
    return out;
}

} // namespace tl
