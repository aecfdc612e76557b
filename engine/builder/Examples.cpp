#include "builder/Examples.h"

#include <stdexcept>

namespace tl {

const std::vector<Example>& examples() {
    static const std::vector<Example> kAll = [] {
        std::vector<Example> all = seedExamples();
        for (Example& e : oracleExamples()) all.push_back(std::move(e));
        return all;
    }();
    return kAll;
}

const Example* findExample(const std::string& name) {
    for (const Example& e : examples())
        if (e.name == name) return &e;
    return nullptr;
}

std::unique_ptr<Graph> buildExample(const std::string& name) {
    const Example* e = findExample(name);
    if (!e) throw std::invalid_argument("no built-in example named '" + name + "' (see `tensorlens example --list`)");
    GraphBuilder b;
    std::vector<Var> outs = e->build(b);
    return b.finish(outs);
}

NDArray linspace(double start, double stop, int64_t n) {
    std::vector<double> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
        v[i] = n == 1 ? start : start + (stop - start) * static_cast<double>(i) / static_cast<double>(n - 1);
    // numpy sets the last element to stop exactly.
    if (n > 1) v[n - 1] = stop;
    return NDArray::fromVector(DType::Float64, {n}, v);
}

} // namespace tl
