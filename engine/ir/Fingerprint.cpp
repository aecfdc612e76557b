#include "ir/Fingerprint.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>

namespace tl {

namespace {
inline void mix(uint64_t& h, uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }
inline void mixString(uint64_t& h, const std::string& s) { mix(h, std::hash<std::string>{}(s)); }
void mixType(uint64_t& h, const Type& t) {
    mix(h, static_cast<uint64_t>(t.kind));
    mix(h, static_cast<uint64_t>(t.dtype));
    for (int64_t d : t.shape) mix(h, static_cast<uint64_t>(d));
}
} // namespace

uint64_t fingerprint(const Op& op) {
    uint64_t h = static_cast<uint64_t>(op.kind());
    mixString(h, op.params().dump());
    if (auto inner = op.innerGraph()) mix(h, fingerprint(*inner));
    return h;
}

uint64_t fingerprint(const Graph& g) {
    uint64_t h = 0;
    for (Variable* in : g.inputs()) {
        mix(h, static_cast<uint64_t>(in->id()));
        mixType(h, in->type());
    }
    for (Variable* c : g.constants()) {
        mix(h, static_cast<uint64_t>(c->id()));
        mixType(h, c->type());
        for (double v : c->constantValue().toDoubles()) mix(h, std::hash<double>{}(v));
    }
    std::vector<Node*> nodes(g.nodes().begin(), g.nodes().end());
    std::sort(nodes.begin(), nodes.end(), [](Node* a, Node* b) { return a->id() < b->id(); });
    for (Node* n : nodes) {
        mix(h, static_cast<uint64_t>(n->id()));
        mix(h, fingerprint(n->op()));
        for (Variable* v : n->inputs()) mix(h, static_cast<uint64_t>(v->id()));
        for (Variable* o : n->outputs()) {
            mix(h, static_cast<uint64_t>(o->id()));
            mixType(h, o->type());
        }
    }
    for (Variable* o : g.outputs()) mix(h, static_cast<uint64_t>(o->id()));
    return h;
}

} // namespace tl
