#pragma once
// Helpers of the fusion, inplace and scan-inner suites: building Composites from
// scalar lambdas, counting Elemwise nodes and scalar ops inside Composites.
#include "builder/GraphBuilder.h"
#include "builder/Math.h"
#include "ops/Elemwise.h"
#include "ops/ScalarOp.h"
#include "analysis/DestroyChecker.h"

#include <algorithm>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tl::test {

using ScalarFn = std::function<std::vector<Var>(const std::vector<Var>&)>;

/// Elemwise{Composite} of `nin` float64 inputs computing f's outputs.
inline OpPtr compositeOp(int nin, const ScalarFn& f) {
    GraphBuilder sb;
    std::vector<Var> ins;
    for (int i = 0; i < nin; ++i) ins.push_back(sb.placeholder(Type::scalar(DType::Float64)));
    std::unique_ptr<Graph> g = sb.finish(f(ins));
    return makeCompositeElemwise(*g);
}

inline const Elemwise* asElemwise(const Node* n) { return dynamic_cast<const Elemwise*>(&n->op()); }

inline int countElemwise(const Graph& g) {
    int c = 0;
    for (const Node* n : g.nodes()) c += asElemwise(n) != nullptr;
    return c;
}

inline int countComposites(const Graph& g) {
    int c = 0;
    for (const Node* n : g.nodes())
        if (const Elemwise* e = asElemwise(n)) c += e->isComposite();
    return c;
}

/// How many times scalar op `code` is applied: plain Elemwise nodes plus the nodes
/// inside every Composite.
inline int scalarOpCount(const Graph& g, ScalarOpCode code) {
    int c = 0;
    for (const Node* n : g.nodes()) {
        const Elemwise* e = asElemwise(n);
        if (!e) continue;
        if (!e->isComposite()) {
            c += e->scalarOp() == code;
            continue;
        }
        for (const Node* m : e->composite()->graph()->nodes())
            if (const auto* s = dynamic_cast<const ScalarOp*>(&m->op())) c += s->code() == code;
    }
    return c;
}

/// The printed names and destroy maps of every destroying node, sorted and joined
/// by "; ": "Add d={0: [0]}; Sin d={0: [0]}".
inline std::string destroyersText(const Graph& g) {
    std::vector<std::string> items;
    for (const Node* n : g.nodes())
        if (!n->op().destroyMap().empty()) items.push_back(n->op().name() + " d=" + aliasMapText(n->op().destroyMap()));
    std::sort(items.begin(), items.end());
    std::string s;
    for (const std::string& i : items) s += (s.empty() ? "" : "; ") + i;
    return s;
}

} // namespace tl::test
