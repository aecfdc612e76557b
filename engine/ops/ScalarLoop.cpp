#include "ops/ScalarLoop.h"

#include "ir/Op.h"
#include "ops/ArrayOpUtil.h"
#include "ops/ElemwiseLoop.h"
#include "ops/ScalarProgram.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace tl {

ScalarLoop::ScalarLoop(CompositePtr body, bool isWhile, std::string className)
    : m_body(std::move(body)), m_while(isWhile), m_class(std::move(className)) {
    if (!m_body) throw std::invalid_argument("ScalarLoop: no body");
    if (m_class.empty()) throw std::invalid_argument("ScalarLoop: an empty class name");
    const int outs = m_body->numOutputs();
    m_states = outs - (m_while ? 1 : 0);
    if (m_states < 0 || (m_while && outs < 1)) throw std::invalid_argument("ScalarLoop: a while loop's body must give its until condition");
    if (m_body->numInputs() < m_states)
        throw std::invalid_argument("ScalarLoop: the body updates " + std::to_string(m_states) + " states but takes " +
                                    std::to_string(m_body->numInputs()) + " inputs");
    for (int i = 0; i < m_states; ++i)
        if (m_body->inputDType(i) != m_body->outputDType(i))
            throw std::invalid_argument("ScalarLoop: state " + std::to_string(i) + " is " + std::string(dtypeName(m_body->inputDType(i))) +
                                        " but its update is " + std::string(dtypeName(m_body->outputDType(i))));
    if (m_while && m_body->outputDType(outs - 1) != DType::Bool)
        throw std::invalid_argument("ScalarLoop: the until condition must be bool, got " +
                                    std::string(dtypeName(m_body->outputDType(outs - 1))));
    m_signature = (m_while ? "while:" : "for:") + m_class + ":" + m_body->signature();
}


namespace {

int64_t stepsAt(const NDArray& a, int64_t i) {
    return dispatchDType(a.dtype(), [&](auto t) -> int64_t {
        using T = decltype(t);
        return static_cast<int64_t>(a.data<T>()[i]);
    });
}

} // namespace

void ScalarLoop::run(std::span<const NDArray> inputs, std::span<NDArray> outputs, const Shape& shape) const {
    const int nIn = numInputs(), nOut = numOutputs(), k = m_states;
    if (static_cast<int>(inputs.size()) != nIn || static_cast<int>(outputs.size()) < nOut)
        throw ExecError("Scalarloop: " + std::to_string(inputs.size()) + " inputs, expected " + std::to_string(nIn));
    // Every input as a contiguous array of the loop's shape. An output that overwrites an
    // input (inplace, same shape) is written block by block after that block's steps, and
    // every block reads only its own elements, so the input needs no copy.
    std::vector<NDArray> full(static_cast<size_t>(nIn));
    for (int i = 0; i < nIn; ++i) {
        const NDArray& a = inputs[static_cast<size_t>(i)];
        full[static_cast<size_t>(i)] =
            shapesEqual(a.shape(), shape) && a.isContiguous() ? a : arrayop::broadcastView(a, shape, "Scalarloop").copy();
    }
    int64_t total = 1;
    for (int64_t d : shape) total *= d;
    const ScalarProgram& prog = m_body->program();
    ProgramWorkspace& ws = ProgramWorkspace::local();
    ws.bind(prog, k + nOut);  // extra blocks: the carried states, then the body's outputs
    std::vector<const void*> in(static_cast<size_t>(prog.numInputs()));
    std::vector<void*> out(static_cast<size_t>(nOut));
    for (int o = 0; o < nOut; ++o) out[static_cast<size_t>(o)] = ws.extraBlock(k + o);
    std::array<int64_t, kBlockSize> remaining{};
    std::array<bool, kBlockSize> done{};
    for (int64_t start = 0; start < total; start += kBlockSize) {
        const int64_t n = std::min<int64_t>(kBlockSize, total - start);
        int64_t active = 0;
        for (int64_t e = 0; e < n; ++e) {
            remaining[static_cast<size_t>(e)] = stepsAt(full[0], start + e);
            if (!m_while && remaining[static_cast<size_t>(e)] < 0)
                throw ExecError("Scalarloop: n_steps is " + std::to_string(remaining[static_cast<size_t>(e)]) +
                                ": a loop without an until condition needs n_steps >= 0");
            done[static_cast<size_t>(e)] = true;  // a while loop that never runs is done
            active += remaining[static_cast<size_t>(e)] > 0;
        }
        for (int j = 0; j < prog.numInputs(); ++j) {
            const NDArray& a = full[static_cast<size_t>(j + 1)];
            const size_t size = dtypeSize(a.dtype());
            const std::byte* src = static_cast<const std::byte*>(a.rawData()) + static_cast<size_t>(start) * size;
            if (j < k) {
                std::memcpy(ws.extraBlock(j), src, static_cast<size_t>(n) * size);
                in[static_cast<size_t>(j)] = ws.extraBlock(j);
            } else {
                in[static_cast<size_t>(j)] = src;  // a constant: read in place every step
            }
        }
        // Each step runs the body on the whole block; only elements still running take
        // its updates, so an element stops exactly after its own n_steps (or its until).
        while (active > 0) {
            prog.runBlock(ws, in.data(), out.data(), n);
            const bool* until = m_while ? static_cast<const bool*>(out[static_cast<size_t>(k)]) : nullptr;
            for (int64_t e = 0; e < n; ++e) {
                int64_t& left = remaining[static_cast<size_t>(e)];
                if (left <= 0) continue;
                for (int j = 0; j < k; ++j) {
                    const size_t size = dtypeSize(prog.inputDType(j));
                    std::memcpy(static_cast<std::byte*>(ws.extraBlock(j)) + static_cast<size_t>(e) * size,
                                static_cast<const std::byte*>(out[static_cast<size_t>(j)]) + static_cast<size_t>(e) * size, size);
                }
                --left;
                if (until) {
                    done[static_cast<size_t>(e)] = until[e];
                    if (until[e]) left = 0;
                }
                active -= left == 0;
            }
        }
        for (int j = 0; j < k; ++j) {
            const size_t size = dtypeSize(prog.inputDType(j));
            std::memcpy(static_cast<std::byte*>(outputs[static_cast<size_t>(j)].rawData()) + static_cast<size_t>(start) * size,
                        ws.extraBlock(j), static_cast<size_t>(n) * size);
        }
        if (m_while) {
            bool* dst = outputs[static_cast<size_t>(k)].data<bool>() + start;
            for (int64_t e = 0; e < n; ++e) dst[e] = done[static_cast<size_t>(e)];
        }
    }
}

} // namespace tl
