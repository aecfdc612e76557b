#pragma once
// Control flow with inner graphs in the builder, as PyTensor builds it:
//   ifelse(c, then, else)                 ifElse(c, {then...}, {else...})   one IfElse node (lazy)
//   OpFromGraph([a, b], [f(a, b)], name=) graphOp({ta, tb}, body, "name")   then applyGraphOp(op, {x, W})
// A graph op's body sees placeholders of the given types and returns its outputs; it
// must not use variables of an enclosing graph (PyTensor would make them implicit
// inputs; here they must be explicit).
#include "builder/GraphBuilder.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tl {

/// pytensor.ifelse.ifelse(condition, then_branch, else_branch, name): IfElse(n_outs).
/// The condition is a 0-d value (a ScalarType becomes a 0-d tensor first); each pair
/// must agree in dtype and rank. Throws std::invalid_argument otherwise.
std::vector<Var> ifElse(Var condition, const std::vector<Var>& thenBranch, const std::vector<Var>& elseBranch,
                        std::optional<std::string> name = std::nullopt);
Var ifElse(Var condition, Var thenValue, Var elseValue, std::optional<std::string> name = std::nullopt);

/// The body of a graph op: given its placeholders, the outputs.
using GraphOpBody = std::function<std::vector<Var>(GraphBuilder&, const std::vector<Var>&)>;

/// OpFromGraph(inputs, outputs, name=name, inline=inlineGraph): an op whose inner graph
/// is `body` applied to placeholders of `inputTypes`.
OpPtr graphOp(const std::vector<Type>& inputTypes, const GraphOpBody& body, std::optional<std::string> name = std::nullopt,
              bool inlineGraph = false);
/// op(*inputs) for a graph op: one node, its outputs.
std::vector<Var> applyGraphOp(const OpPtr& op, const std::vector<Var>& inputs);

} // namespace tl
