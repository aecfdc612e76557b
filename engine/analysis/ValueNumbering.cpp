#include "analysis/ValueNumbering.h"

#include "analysis/GraphEquality.h"

#include <functional>

namespace tl {

namespace {

size_t mix(size_t h, uint64_t v) { return h ^ (std::hash<uint64_t>{}(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

} // namespace

bool ValueNumbering::mergeable(const Node& n) {
    const OpKind k = n.op().kind();
    return k != OpKind::AllocEmpty && k != OpKind::Opaque && n.op().destroyMap().empty();
}

uint64_t ValueNumbering::numberConstant(const Variable* v) {
    auto& bucket = m_constants[constantHash(*v)];
    for (const ConstantEntry& e : bucket)
        if (constantsEqual(*e.rep, *v)) return e.number;
    const uint64_t n = m_next++;
    bucket.push_back({v, n});
    return n;
}

void ValueNumbering::numberNode(const Node* n) {
    std::vector<uint64_t> ins;
    ins.reserve(n->inputs().size());
    for (Variable* in : n->inputs()) ins.push_back(m_number.at(in));
    if (!mergeable(*n)) {
        m_representative[n] = n;
        for (Variable* o : n->outputs()) m_number[o] = m_next++;
        return;
    }
    size_t h = n->op().cachedHash();
    for (uint64_t x : ins) h = mix(h, x);
    h = mix(h, static_cast<uint64_t>(n->numOutputs()));
    auto& bucket = m_nodes[h];
    for (const NodeEntry& e : bucket) {
        if (e.inputs != ins || e.rep->numOutputs() != n->numOutputs() || !e.rep->op().equals(n->op())) continue;
        m_representative[n] = e.rep;
        for (int k = 0; k < n->numOutputs(); ++k) m_number[n->output(k)] = e.firstOutput + static_cast<uint64_t>(k);
        return;
    }
    const uint64_t first = m_next;
    m_next += static_cast<uint64_t>(n->numOutputs());
    bucket.push_back({n, std::move(ins), first});
    m_representative[n] = n;
    for (int k = 0; k < n->numOutputs(); ++k) m_number[n->output(k)] = first + static_cast<uint64_t>(k);
}

uint64_t ValueNumbering::number(const Variable* v) {
    if (auto it = m_number.find(v); it != m_number.end()) return it->second;
    // Post-order over the unnumbered ancestors: a node is numbered once all its inputs are.
    std::vector<std::pair<const Variable*, bool>> stack{{v, false}};
    while (!stack.empty()) {
        auto [x, expanded] = stack.back();
        stack.pop_back();
        if (m_number.count(x)) continue;
        if (x->isConstant()) {
            m_number[x] = numberConstant(x);
            continue;
        }
        const Node* owner = x->owner();
        if (!owner) {
            m_number[x] = m_next++;
            continue;
        }
        if (expanded) {
            if (!m_number.count(x)) numberNode(owner);
            continue;
        }
        stack.push_back({x, true});
        for (Variable* in : owner->inputs())
            if (!m_number.count(in)) stack.push_back({in, false});
    }
    return m_number.at(v);
}

const Node* ValueNumbering::representative(const Node* n) const {
    auto it = m_representative.find(n);
    return it == m_representative.end() ? n : it->second;
}

} // namespace tl
