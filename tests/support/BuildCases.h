#pragma once
// Data-driven rewrite tests: each QTest row holds a function that builds its graph.
#include "builder/GraphBuilder.h"

#include <QMetaType>

#include <functional>
#include <memory>
#include <vector>

namespace tl::test {

/// A test graph as a function of a builder (the graph's outputs).
using BuildFn = std::function<std::vector<Var>(GraphBuilder&)>;

/// The graph `f` builds.
inline std::unique_ptr<Graph> buildGraph(const BuildFn& f) {
    GraphBuilder b;
    std::vector<Var> outs = f(b);
    return b.finish(outs);
}

} // namespace tl::test

Q_DECLARE_METATYPE(tl::test::BuildFn)
