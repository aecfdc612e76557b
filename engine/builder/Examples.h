#pragma once
// The built-in examples: the seed bug report's two programs and one per
// PyTensor reference case (tests/oracle/<case>), built with the builder API.
// resources/examples/<name>.json holds each one as shipped (a test checks they agree).
#include "builder/GraphBuilder.h"
#include "ir/Graph.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tl {

struct Example {
    std::string name;
    std::string description;
    /// Builds the graph's outputs in `b` (inputs named as in the reference case).
    std::function<std::vector<Var>(GraphBuilder& b)> build;
    /// Input values the reference case uses, by input name (empty: none recorded).
    std::function<std::map<std::string, NDArray>()> inputs;
};

/// Every built-in example, seed examples first.
const std::vector<Example>& examples();
/// The example of that name, or null.
const Example* findExample(const std::string& name);
/// Builds the named example's graph; std::invalid_argument for an unknown name.
std::unique_ptr<Graph> buildExample(const std::string& name);

/// Helpers for the example tables (ExamplesSeed.cpp, ExamplesOracle.cpp).
std::vector<Example> seedExamples();
std::vector<Example> oracleExamples();
/// numpy.linspace(start, stop, n) as a float64 vector.
NDArray linspace(double start, double stop, int64_t n);

} // namespace tl
