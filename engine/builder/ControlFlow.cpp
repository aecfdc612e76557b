#include "builder/ControlFlow.h"

#include "ops/IfElse.h"
#include "ops/OpFromGraph.h"
#include "ops/TensorScalar.h"

#include <stdexcept>

namespace tl {

std::vector<Var> ifElse(Var condition, const std::vector<Var>& thenBranch, const std::vector<Var>& elseBranch,
                        std::optional<std::string> name) {
    if (thenBranch.size() != elseBranch.size())
        throw std::invalid_argument("The number of values on the `then` branch must match the `else` branch: got " +
                                    std::to_string(thenBranch.size()) + " for `then`, and " +
                                    std::to_string(elseBranch.size()) + " for `else`.");
    if (thenBranch.empty()) throw std::invalid_argument("ifelse needs at least one value per branch");
    GraphBuilder& b = condition.builder();
    Var c = b.capture(condition);
    if (c.type().isScalarType()) c = b.apply1(makeTensorFromScalar(), {c});  // as_tensor_variable
    if (c.ndim() != 0) throw std::invalid_argument("The condition argument must be a truthy scalar value, got " + c.type().toString());
    std::vector<Var> ins{c};
    ins.insert(ins.end(), thenBranch.begin(), thenBranch.end());
    ins.insert(ins.end(), elseBranch.begin(), elseBranch.end());
    try {
        return b.apply(makeIfElse(static_cast<int>(thenBranch.size()), false, std::move(name)), std::move(ins));
    } catch (const GraphError& e) {
        throw std::invalid_argument(e.what());
    }
}

Var ifElse(Var condition, Var thenValue, Var elseValue, std::optional<std::string> name) {
    return ifElse(std::move(condition), std::vector<Var>{std::move(thenValue)}, std::vector<Var>{std::move(elseValue)},
                  std::move(name))
        .at(0);
}

OpPtr graphOp(const std::vector<Type>& inputTypes, const GraphOpBody& body, std::optional<std::string> name, bool inlineGraph) {
    GraphBuilder inner;
    std::vector<Var> args;
    for (const Type& t : inputTypes) args.push_back(inner.placeholder(t));
    std::vector<Var> outs = body(inner, args);
    if (outs.empty()) throw std::invalid_argument("OpFromGraph: the body returned no outputs");
    for (const Var& o : outs)
        if (!o.valid() || &o.get()->graph() != &inner.graph())
            throw std::invalid_argument("OpFromGraph: an output is not a variable of the body (use the placeholders it is given)");
    std::shared_ptr<const Graph> g = inner.finish(outs);
    return makeOpFromGraph(std::move(g), std::move(name), inlineGraph);
}

std::vector<Var> applyGraphOp(const OpPtr& op, const std::vector<Var>& inputs) {
    if (inputs.empty()) throw std::invalid_argument("applyGraphOp needs the op's inputs");
    try {
        return inputs[0].builder().apply(op, inputs);
    } catch (const GraphError& e) {
        throw std::invalid_argument(e.what());
    }
}

} // namespace tl
