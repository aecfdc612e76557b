#include "ops/ElemwiseLoop.h"

#include "core/StreamStore.h"
#include "core/ThreadPool.h"
#include "ir/Op.h"
#include "ops/ScalarProgram.h"

#include <algorithm>
#include <cstring>

namespace tl {

namespace {

// Contiguous work is split across threads from this many elements on (a few
// hundred microseconds of exp: far above the pool's hand-off cost, far above any
// Scan step's rows), in chunks of whole blocks.
constexpr int64_t kParallelElements = int64_t{1} << 16;
constexpr int64_t kParallelChunk = int64_t{1} << 14;

struct ByteRange {
    const std::byte* lo = nullptr;
    const std::byte* hi = nullptr;  // one past the last byte
};

ByteRange rangeOf(const NDArray& a) {
    if (a.size() == 0) return {};
    int64_t minOff = 0, maxOff = 0;
    for (int d = 0; d < a.ndim(); ++d) {
        const int64_t span = (a.dim(d) - 1) * a.strides()[d];
        (span < 0 ? minOff : maxOff) += span;
    }
    const auto es = static_cast<int64_t>(dtypeSize(a.dtype()));
    const auto* base = static_cast<const std::byte*>(a.rawData());
    return {base + minOff * es, base + (maxOff + 1) * es};
}

bool overlaps(const ByteRange& a, const ByteRange& b) { return a.lo && b.lo && a.lo < b.hi && b.lo < a.hi; }

// Input `in`, broadcast to `shape`, addresses exactly the elements of `out` in the
// same positions (the inplace case): reading a block before writing it is safe.
bool sameLayout(const NDArray& in, const NDArray& out) {
    if (in.rawData() != out.rawData() || in.dtype() != out.dtype() || in.ndim() != out.ndim()) return false;
    for (int d = 0; d < out.ndim(); ++d) {
        if (out.dim(d) == 1) continue;
        if (in.dim(d) != out.dim(d) || in.strides()[d] != out.strides()[d]) return false;
    }
    return true;
}

std::byte* byteAt(const NDArray& a, int64_t elemOffset) {
    return static_cast<std::byte*>(a.rawData()) + elemOffset * static_cast<int64_t>(dtypeSize(a.dtype()));
}

// Contiguous, same shape, the program's dtypes, outputs either disjoint from the
// inputs or the same arrays: one flat loop of blocks, no per-row work. Kept lean:
// a Scan step calls it once per step on a handful of elements.
bool runFast(const ScalarProgram& prog, std::span<const NDArray> inputs, std::span<NDArray> outputs, const Shape& shape,
             int64_t total) {
    const size_t nin = inputs.size(), nout = outputs.size();
    if (nin > kMaxContiguousOperands || nout > kMaxContiguousOperands) return false;
    const std::byte* inBase[kMaxContiguousOperands];
    std::byte* outBase[kMaxContiguousOperands];
    int64_t inSize[kMaxContiguousOperands], outSize[kMaxContiguousOperands];
    for (size_t i = 0; i < nin; ++i) {
        const NDArray& a = inputs[i];
        if (a.dtype() != prog.inputDType(static_cast<int>(i)) || !shapesEqual(a.shape(), shape) || !a.isContiguous()) return false;
        inSize[i] = static_cast<int64_t>(dtypeSize(a.dtype()));
        inBase[i] = static_cast<std::byte*>(a.storage()->data()) + a.offset() * inSize[i];
    }
    bool aliased[kMaxContiguousOperands] = {};
    for (size_t o = 0; o < nout; ++o) {
        const NDArray& out = outputs[o];
        if (out.dtype() != prog.outputDType(static_cast<int>(o)) || !shapesEqual(out.shape(), shape) || !out.isContiguous()) return false;
        outSize[o] = static_cast<int64_t>(dtypeSize(out.dtype()));
        outBase[o] = static_cast<std::byte*>(out.storage()->data()) + out.offset() * outSize[o];
        const std::byte* lo = outBase[o];
        const std::byte* hi = lo + total * outSize[o];
        for (size_t i = 0; i < nin; ++i) {
            if (!(inBase[i] < hi && lo < inBase[i] + total * inSize[i])) continue;
            if (inBase[i] != outBase[o] || inSize[i] != outSize[o]) return false;  // another layout: strided path
            aliased[o] = true;
        }
    }
    runContiguousElementwise(prog, std::span<const std::byte* const>(inBase, nin), std::span<std::byte* const>(outBase, nout),
                             aliased, total);
    return true;
}

struct Operand {
    std::byte* base = nullptr;
    int64_t elemSize = 0;
    DType dtype = DType::Float64;
    Strides strides;  // per collapsed dim, in elements
};

void runStrided(const ScalarProgram& prog, std::span<const NDArray> inputs, std::span<NDArray> outputs,
                const Shape& shape) {
    const size_t nin = inputs.size(), nout = outputs.size();
    std::vector<NDArray> ins(inputs.begin(), inputs.end());
    std::vector<bool> aliased(nout, false);
    for (size_t o = 0; o < nout; ++o) {
        const ByteRange ro = rangeOf(outputs[o]);
        for (size_t i = 0; i < nin; ++i) {
            if (!overlaps(ro, rangeOf(ins[i]))) continue;
            if (sameLayout(ins[i], outputs[o])) aliased[o] = true;
            else ins[i] = ins[i].copy();  // another layout of the same bytes: read a snapshot
        }
    }
    // Dimensions of the iteration: drop size-1 dims, then merge neighbours that are
    // contiguous with each other in every operand.
    std::vector<int> dims;
    for (int d = 0; d < static_cast<int>(shape.size()); ++d)
        if (shape[d] != 1) dims.push_back(d);
    std::vector<Operand> ops(nin + nout);
    auto strideOf = [&](size_t k, int d) -> int64_t {
        if (k < nin) return ins[k].dim(d) == 1 ? 0 : ins[k].strides()[d];
        return outputs[k - nin].strides()[d];
    };
    Shape cshape;
    for (size_t j = 0; j < dims.size(); ++j) {
        const int d = dims[j];
        bool merge = !cshape.empty();
        for (size_t k = 0; merge && k < ops.size(); ++k) merge = ops[k].strides.back() == strideOf(k, d) * shape[d];
        if (merge) {
            cshape.back() *= shape[d];
            for (size_t k = 0; k < ops.size(); ++k) ops[k].strides.back() = strideOf(k, d);
        } else {
            cshape.push_back(shape[d]);
            for (size_t k = 0; k < ops.size(); ++k) ops[k].strides.push_back(strideOf(k, d));
        }
    }
    if (cshape.empty()) {  // a single element
        cshape.push_back(1);
        for (auto& op : ops) op.strides.push_back(0);
    }
    for (size_t k = 0; k < ops.size(); ++k) {
        const NDArray& a = k < nin ? ins[k] : outputs[k - nin];
        ops[k].base = byteAt(a, 0);
        ops[k].dtype = a.dtype();
        ops[k].elemSize = static_cast<int64_t>(dtypeSize(a.dtype()));
    }
    const int nd = static_cast<int>(cshape.size());
    const int64_t inner = cshape[nd - 1];

    ProgramWorkspace& ws = ProgramWorkspace::local();
    ws.bind(prog, static_cast<int>(nin + nout));
    std::vector<GatherFn> gather(nin, nullptr);
    std::vector<bool> direct(nin + nout, false);
    for (size_t i = 0; i < nin; ++i) {
        const DType want = prog.inputDType(static_cast<int>(i));
        direct[i] = ops[i].strides[nd - 1] == 1 && ops[i].dtype == want;
        gather[i] = gatherKernel(ops[i].dtype, want);
    }
    std::vector<ScatterFn> scatter(nout, nullptr);
    for (size_t o = 0; o < nout; ++o) {
        const DType have = prog.outputDType(static_cast<int>(o));
        direct[nin + o] = !aliased[o] && ops[nin + o].strides[nd - 1] == 1 && ops[nin + o].dtype == have;
        scatter[o] = scatterKernel(have, ops[nin + o].dtype);
    }
    std::vector<const void*> ip(nin);
    std::vector<void*> op(nout);
    std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
    std::vector<int64_t> rowOff(ops.size(), 0);
    while (true) {
        for (int64_t start = 0; start < inner; start += kBlockSize) {
            const int64_t n = std::min(kBlockSize, inner - start);
            for (size_t i = 0; i < nin; ++i) {
                const int64_t s = ops[i].strides[nd - 1];
                std::byte* p = ops[i].base + (rowOff[i] + start * s) * ops[i].elemSize;
                if (direct[i]) {
                    ip[i] = p;
                } else {
                    // A broadcast input (stride 0) holds one value per row: fill it once.
                    if (!(s == 0 && start > 0)) gather[i](p, s, ws.extraBlock(static_cast<int>(i)), s == 0 ? std::min(kBlockSize, inner) : n);
                    ip[i] = ws.extraBlock(static_cast<int>(i));
                }
            }
            for (size_t o = 0; o < nout; ++o)
                op[o] = direct[nin + o] ? ops[nin + o].base + (rowOff[nin + o] + start) * ops[nin + o].elemSize
                                        : ws.extraBlock(static_cast<int>(nin + o));
            prog.runBlock(ws, ip.data(), op.data(), n);
            for (size_t o = 0; o < nout; ++o) {
                if (direct[nin + o]) continue;
                const Operand& d = ops[nin + o];
                const int64_t s = d.strides[nd - 1];
                scatter[o](op[o], d.base + (rowOff[nin + o] + start * s) * d.elemSize, s, n);
            }
        }
        int axis = nd - 2;
        for (; axis >= 0; --axis) {
            for (size_t k = 0; k < ops.size(); ++k) rowOff[k] += ops[k].strides[axis];
            if (++idx[axis] < cshape[axis]) break;
            for (size_t k = 0; k < ops.size(); ++k) rowOff[k] -= ops[k].strides[axis] * cshape[axis];
            idx[axis] = 0;
        }
        if (axis < 0) return;
    }
}

} // namespace

void runContiguousElementwise(const ScalarProgram& prog, std::span<const std::byte* const> in, std::span<std::byte* const> out,
                              const bool* aliased, int64_t total) {
    const size_t nin = in.size(), nout = out.size();
    int64_t inSize[kMaxContiguousOperands], outSize[kMaxContiguousOperands];
    for (size_t i = 0; i < nin; ++i) inSize[i] = static_cast<int64_t>(dtypeSize(prog.inputDType(static_cast<int>(i))));
    // Outputs computed into a scratch block first: an aliased one (stored only after
    // every input element of the block was read) and a large one (then streamed past
    // the caches, core/StreamStore.h).
    bool streamed[kMaxContiguousOperands] = {};
    int numStaged = 0;
    bool anyStreamed = false;
    const bool streams = streamsLargeOutputs();
    for (size_t o = 0; o < nout; ++o) {
        outSize[o] = static_cast<int64_t>(dtypeSize(prog.outputDType(static_cast<int>(o))));
        streamed[o] = streams && static_cast<size_t>(total * outSize[o]) >= kStreamedOutputBytes;
        anyStreamed = anyStreamed || streamed[o];
        numStaged += aliased[o] || streamed[o] ? 1 : 0;
    }
    // Elements [begin, end) on the calling thread, with its own workspace.
    auto runRange = [&](int64_t begin, int64_t end) {
        ProgramWorkspace& ws = ProgramWorkspace::local();
        ws.bind(prog, numStaged);
        void* scratch[kMaxContiguousOperands];
        int k = 0;
        for (size_t o = 0; o < nout; ++o) scratch[o] = aliased[o] || streamed[o] ? ws.extraBlock(k++) : nullptr;
        const void* ip[kMaxContiguousOperands];
        void* op[kMaxContiguousOperands];
        for (int64_t start = begin; start < end; start += kBlockSize) {
            const int64_t n = std::min(kBlockSize, end - start);
            for (size_t i = 0; i < nin; ++i) ip[i] = in[i] + start * inSize[i];
            for (size_t o = 0; o < nout; ++o) op[o] = scratch[o] ? scratch[o] : out[o] + start * outSize[o];
            prog.runBlock(ws, ip, op, n);
            for (size_t o = 0; o < nout; ++o) {
                if (!scratch[o]) continue;
                std::byte* dst = out[o] + start * outSize[o];
                const auto bytes = static_cast<size_t>(n * outSize[o]);
                if (streamed[o]) streamBytes(dst, scratch[o], bytes);
                else std::memcpy(dst, scratch[o], bytes);
            }
        }
        // Before the pool reports this range done, or the caller reads the output.
        if (anyStreamed) streamFence();
    };
    // Elements are independent, so how the range is split never changes a result.
    if (total < kParallelElements || ThreadPool::instance().threads() == 1) {
        runRange(0, total);
        return;
    }
    ThreadPool& pool = ThreadPool::instance();
    const int64_t chunks = (total + kParallelChunk - 1) / kParallelChunk;
    pool.parallelFor(chunks, [&](int64_t c) { runRange(c * kParallelChunk, std::min(total, (c + 1) * kParallelChunk)); });
}

Shape broadcastShapes(std::span<const NDArray> inputs, const std::string& where) {
    if (inputs.empty()) return {};
    const int nd = inputs[0].ndim();
    auto describe = [&] {
        std::string s;
        for (size_t i = 0; i < inputs.size(); ++i) s += (i ? ", " : "") + shapeToString(inputs[i].shape());
        return s;
    };
    Shape out(static_cast<size_t>(nd), 1);
    for (const NDArray& a : inputs) {
        if (a.ndim() != nd) throw ExecError(where + ": inputs of different ranks: " + describe());
        for (int d = 0; d < nd; ++d) {
            const int64_t v = a.dim(d);
            if (v == 1) continue;
            if (out[d] == 1) out[d] = v;
            else if (out[d] != v)
                throw ExecError(where + ": shapes " + describe() + " do not broadcast (dim " + std::to_string(d) + ": " +
                                std::to_string(out[d]) + " vs " + std::to_string(v) + ")");
        }
    }
    return out;
}

void runElementwise(const ScalarProgram& program, std::span<const NDArray> inputs, std::span<NDArray> outputs) {
    if (outputs.empty()) return;
    const Shape& shape = outputs[0].shape();
    int64_t total = 1;
    for (int64_t d : shape) total *= d;
    if (total == 0) return;
    if (runFast(program, inputs, outputs, shape, total)) return;
    runStrided(program, inputs, outputs, shape);
}

} // namespace tl
