#include "analysis/GraphEquality.h"

#include <nlohmann/json.hpp>

#include <cstring>
#include <functional>
#include <string_view>

namespace tl {

namespace {
inline void mix(size_t& h, size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }

size_t typeHash(const Type& t) {
    size_t h = static_cast<size_t>(t.kind) * 31 + static_cast<size_t>(t.dtype);
    for (int64_t d : t.shape) mix(h, static_cast<size_t>(d));
    return h;
}

/// `use` applied to the elements of `a` in C order as raw bytes: a's own storage
/// unless `a` is strided. No NDArray handle is copied on the common path: merge
/// hashes every constant of a graph, and a handle copy costs a reference-count
/// round trip and a shape allocation.
template <class Use>
auto withCOrderBytes(const NDArray& a, Use&& use) {
    if (a.isContiguous()) return use(a.rawData());
    const NDArray copy = a.copy();
    return use(copy.rawData());
}
} // namespace

bool constantsEqual(const Variable& a, const Variable& b) {
    if (&a == &b) return true;
    if (!a.isConstant() || !b.isConstant() || !(a.type() == b.type())) return false;
    const NDArray& va = a.constantValue();
    const NDArray& vb = b.constantValue();
    if (va.dtype() != vb.dtype() || va.shape() != vb.shape()) return false;
    const size_t bytes = va.nbytes();
    if (bytes == 0) return true;
    return withCOrderBytes(va, [&](const void* da) {
        return withCOrderBytes(vb, [&](const void* db) { return std::memcmp(da, db, bytes) == 0; });
    });
}

size_t constantHash(const Variable& c) {
    size_t h = typeHash(c.type());
    if (!c.isConstant()) return h;
    const NDArray& v = c.constantValue();
    for (int64_t d : v.shape()) mix(h, static_cast<size_t>(d));
    mix(h, withCOrderBytes(v, [&](const void* data) {
            return std::hash<std::string_view>{}(std::string_view(static_cast<const char*>(data), v.nbytes()));
        }));
    return h;
}

// ---- StructuralNumbering ----------------------------------------------------------

StructuralNumbering::StructuralNumbering() = default;
StructuralNumbering::~StructuralNumbering() = default;

size_t StructuralNumbering::NodeKeyHash::operator()(const NodeKey& k) const {
    size_t h = std::hash<int64_t>{}(k.opClass);
    for (int64_t i : k.inputs) mix(h, std::hash<int64_t>{}(i));
    return h;
}

void StructuralNumbering::setInputClass(const Variable& v, int64_t cls) { m_classOfInput[&v] = cls; }

int64_t StructuralNumbering::numberOf(const Variable& v) const {
    auto it = m_numbers.find(&v);
    return it == m_numbers.end() ? -1 : it->second;
}

int64_t StructuralNumbering::constantNumber(const Variable& c) {
    const size_t h = constantHash(c);
    auto [lo, hi] = m_constants.equal_range(h);
    for (auto it = lo; it != hi; ++it)
        if (constantsEqual(*it->second.first, c)) return it->second.second;
    const int64_t n = m_next++;
    m_constants.emplace(h, std::make_pair(&c, n));
    return n;
}

int64_t StructuralNumbering::inputNumber(const Variable& v) {
    auto cls = m_classOfInput.find(&v);
    if (cls == m_classOfInput.end()) return m_next++;
    auto key = std::make_pair(cls->second, v.type().toString());
    auto it = m_inputClasses.find(key);
    if (it != m_inputClasses.end()) return it->second;
    const int64_t n = m_next++;
    m_inputClasses.emplace(std::move(key), n);
    return n;
}

void StructuralNumbering::number(const Graph& g) {
    for (Variable* in : g.inputs())
        if (!m_numbers.count(in)) m_numbers[in] = inputNumber(*in);
    for (Node* node : g.toposort()) {
        NodeKey key{opClass(node->opPtr()), {}};
        key.inputs.reserve(node->inputs().size());
        for (Variable* in : node->inputs()) {
            auto it = m_numbers.find(in);
            int64_t n;
            if (it != m_numbers.end()) n = it->second;
            else if (in->isConstant()) n = m_numbers[in] = constantNumber(*in);
            else n = m_numbers[in] = inputNumber(*in);  // an input toposort reached first
            key.inputs.push_back(n);
        }
        auto [it, fresh] = m_nodes.emplace(std::move(key), m_next);
        if (fresh) m_next += node->numOutputs();
        for (int k = 0; k < node->numOutputs(); ++k) m_numbers[node->output(k)] = it->second + k;
    }
    // Outputs that are constants or inputs were numbered above unless unused by any node.
    for (Variable* out : g.outputs()) {
        if (m_numbers.count(out)) continue;
        m_numbers[out] = out->isConstant() ? constantNumber(*out) : inputNumber(*out);
    }
}

int64_t StructuralNumbering::opClass(const OpPtr& op) {
    // Only ops with inner graphs are remembered per object: comparing those is what
    // costs; for the others a lookup by their cached hash is as cheap as the memo.
    const bool remember = op->innerGraph() != nullptr;
    if (remember)
        if (auto memo = m_opClassMemo.find(op.get()); memo != m_opClassMemo.end()) return memo->second.second;
    const size_t h = opHash(*op);
    auto [lo, hi] = m_opReps.equal_range(h);
    int64_t cls = -1;
    for (auto it = lo; it != hi && cls < 0; ++it)
        if (opsEquivalent(*it->second.first, *op)) cls = it->second.second;
    if (cls < 0) {
        cls = m_nextOpClass++;
        m_opReps.emplace(h, std::make_pair(op, cls));
    }
    if (remember) m_opClassMemo.emplace(op.get(), std::make_pair(op, cls));
    return cls;
}

bool StructuralNumbering::opsEquivalent(const Op& a, const Op& b) {
    if (&a == &b) return true;
    auto ia = a.innerGraph(), ib = b.innerGraph();
    if (!ia && !ib) return a.equals(b);
    if (!ia || !ib || a.kind() != b.kind()) return false;
    if (!(a.params() == b.params())) return false;
    return graphsEqual(ia, ib);
}

size_t StructuralNumbering::opHash(const Op& op) {
    // Both kinds of hash are pure functions of the op's value: remembered on the op,
    // so later passes (and other numberings) do not rehash a 5,000-op Composite.
    if (const size_t known = op.rememberedStructuralHash()) return known;
    auto inner = op.innerGraph();
    if (!inner) return op.cachedHash();
    size_t h = static_cast<size_t>(op.kind());
    mix(h, std::hash<std::string>{}(op.params().dump()));
    mix(h, graphHash(inner));
    if (h == 0) h = 1;  // as remembered
    op.rememberStructuralHash(h);
    return h;
}

bool StructuralNumbering::graphsEqual(const std::shared_ptr<const Graph>& a, const std::shared_ptr<const Graph>& b) {
    if (a == b) return true;
    if (!a || !b) return false;
    auto key = a.get() < b.get() ? std::make_pair(a.get(), b.get()) : std::make_pair(b.get(), a.get());
    auto it = m_graphEqualMemo.find(key);
    if (it != m_graphEqualMemo.end()) return it->second;
    m_keepAlive.push_back(a);
    m_keepAlive.push_back(b);
    const bool eq = graphsStructurallyEqual(*a, *b);
    m_graphEqualMemo.emplace(key, eq);
    return eq;
}

size_t StructuralNumbering::graphHash(const std::shared_ptr<const Graph>& g) {
    auto it = m_graphHashMemo.find(g.get());
    if (it != m_graphHashMemo.end()) return it->second;
    m_keepAlive.push_back(g);
    const size_t h = graphHashOf(*g);
    m_graphHashMemo.emplace(g.get(), h);
    return h;
}

size_t StructuralNumbering::graphHashOf(const Graph& g) {
    // Per-variable hashes in topological order: inputs by position and type, constants
    // by value, node outputs by op, input hashes and output index.
    std::unordered_map<const Variable*, size_t> hv;
    for (size_t i = 0; i < g.inputs().size(); ++i) {
        size_t h = 0x51ed27 + i;
        mix(h, typeHash(g.inputs()[i]->type()));
        hv[g.inputs()[i]] = h;
    }
    auto hashOf = [&](const Variable* v) -> size_t {
        auto it = hv.find(v);
        if (it != hv.end()) return it->second;
        const size_t h = v->isConstant() ? constantHash(*v) : typeHash(v->type());
        hv[v] = h;
        return h;
    };
    for (Node* node : g.toposort()) {
        size_t h = opHash(node->op());
        for (Variable* in : node->inputs()) mix(h, hashOf(in));
        for (int k = 0; k < node->numOutputs(); ++k) {
            size_t hk = h;
            mix(hk, static_cast<size_t>(k) + 1);
            hv[node->output(k)] = hk;
        }
    }
    size_t h = g.inputs().size();
    for (Variable* out : g.outputs()) mix(h, hashOf(out));
    return h;
}

bool graphsStructurallyEqual(const Graph& a, const Graph& b) {
    if (&a == &b) return true;
    if (a.inputs().size() != b.inputs().size() || a.outputs().size() != b.outputs().size()) return false;
    for (size_t i = 0; i < a.inputs().size(); ++i)
        if (!(a.inputs()[i]->type() == b.inputs()[i]->type())) return false;
    StructuralNumbering vn;
    for (size_t i = 0; i < a.inputs().size(); ++i) {
        vn.setInputClass(*a.inputs()[i], static_cast<int64_t>(i));
        vn.setInputClass(*b.inputs()[i], static_cast<int64_t>(i));
    }
    vn.number(a);
    vn.number(b);
    for (size_t j = 0; j < a.outputs().size(); ++j) {
        if (!(a.outputs()[j]->type() == b.outputs()[j]->type())) return false;
        if (vn.numberOf(*a.outputs()[j]) != vn.numberOf(*b.outputs()[j])) return false;
    }
    return true;
}

size_t structuralHash(const Graph& g) {
    StructuralNumbering vn;
    return vn.graphHashOf(g);
}

} // namespace tl
