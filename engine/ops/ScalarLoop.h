#pragma once
// ScalarLoop: PyTensor's pytensor.scalar.loop.ScalarLoop, a scalar function iterated
// per element, which PyTensor's special functions build for gradients that are series
// (gammainc, gammaincc, betainc, hyp2f1 in their first arguments). An Elemwise of it
// takes n_steps, then the initial states, then constants; its body (a scalar graph
// over states and constants) gives the updated states and, for a while loop, a
// boolean `until`. Per element:
//
//     for step in range(n_steps): state = body(state, constants)             (for)
//     done = True; for step in range(n_steps): *state, done = body(...);
//                                              if done: break               (while)
//
// and the outputs are the final states (and `done`). A for loop with n_steps < 0 is
// an error, as in PyTensor; a while loop with n_steps <= 0 returns its initial states
// and done = True.
#include "ops/Composite.h"

#include <memory>
#include <span>
#include <string>

namespace tl {

class ScalarLoop {
public:
    /// `body`: inputs are the states then the constants, outputs the updated states (each
    /// of its state's dtype) then, when `isWhile`, a bool `until`. `className` is what
    /// PyTensor's op class was called (its printed name is always "Scalarloop").
    /// Throws std::invalid_argument naming what does not fit.
    ScalarLoop(CompositePtr body, bool isWhile, std::string className = "ScalarLoop");

    const CompositePtr& body() const { return m_body; }
    bool isWhile() const { return m_while; }
    const std::string& className() const { return m_class; }
    int numStates() const { return m_states; }
    /// n_steps, the states, the constants.
    int numInputs() const { return m_body->numInputs() + 1; }
    int numOutputs() const { return m_body->numOutputs(); }
    /// The body's signature and the loop's kind: equal for equal loops.
    const std::string& signature() const { return m_signature; }

    /// Runs every element of `inputs` (n_steps first) broadcast to `shape` into
    /// `outputs` (allocated to `shape` with the body's output dtypes; one may share an
    /// input's storage at the same elements: each element's inputs are read before its
    /// outputs are written).
    /// Throws ExecError for a for loop with n_steps < 0.
    void run(std::span<const NDArray> inputs, std::span<NDArray> outputs, const Shape& shape) const;

private:
    CompositePtr m_body;
    bool m_while;
    std::string m_class;
    int m_states = 0;
    std::string m_signature;  // what equals and hash compare, made once
};

using ScalarLoopPtr = std::shared_ptr<const ScalarLoop>;

} // namespace tl
