// runReduction (ops/ReduceKernel.h): the loop over the broadcast input. Dimensions
// of size 1 are dropped and neighbours that are both reduced or both kept, and
// contiguous in every input, are merged, so `sum(x, axis=1)` of a (1000, 10000)
// matrix is 1000 rows of 10000 and `sum(x)` one row of 1e7. The innermost
// dimension is walked in blocks of kBlockSize: gathered (or read in place when it
// is contiguous and of the right dtype), mapped, then folded.
#include "ops/ReduceKernel.h"

#include "core/ThreadPool.h"
#include "ir/Op.h"
#include "ops/ArrayOpUtil.h"
#include "ops/ElemwiseLoop.h"
#include "ops/ReduceFold.h"
#include "ops/ScalarKernels.h"

#include <algorithm>
#include <cstring>

namespace tl {

namespace {

// A full reduction of a row longer than this folds fixed chunks of it into
// partial results (possibly on several threads) and then the partials in order.
constexpr int64_t kReduceChunk = int64_t{1} << 16;

// vmath::foldProductOfCall on blocks of the accumulator dtype (float32 or float64).
bool foldProductOfCall(vmath::Fn f, DType acc, const std::array<const void*, 2>& ops, std::byte* accRow, int64_t n) {
    if (acc == DType::Float64)
        return vmath::foldProductOfCall(f, static_cast<const double*>(ops[0]), static_cast<const double*>(ops[1]),
                                        reinterpret_cast<double*>(accRow), n);
    if (acc == DType::Float32)
        return vmath::foldProductOfCall(f, static_cast<const float*>(ops[0]), static_cast<const float*>(ops[1]),
                                        reinterpret_cast<float*>(accRow), n);
    return false;
}

struct Dim {
    int64_t size;
    bool reduced;
    std::vector<int64_t> strides;  // per input, in elements (0 where it broadcasts)
    int64_t accStride;             // 0 on reduced dims
};

// The dims of the walk, outermost first, size-1 dims dropped and mergeable neighbours merged.
std::vector<Dim> walkDims(const Shape& shape, const std::vector<bool>& reduced, std::span<const NDArray> inputs,
                          const Shape& outShape) {
    const Strides outStrides = NDArray::contiguousStrides(outShape);
    std::vector<Dim> dims;
    for (int d = 0, k = 0; d < static_cast<int>(shape.size()); ++d) {
        Dim dim{shape[d], reduced[d], {}, 0};
        if (!reduced[d]) dim.accStride = outStrides[k++];
        for (const NDArray& a : inputs) dim.strides.push_back(a.dim(d) == 1 ? 0 : a.strides()[d]);
        if (dim.size == 1) continue;
        if (!dims.empty()) {
            Dim& prev = dims.back();
            bool merge = prev.reduced == dim.reduced && prev.accStride == dim.accStride * dim.size;
            for (size_t i = 0; merge && i < inputs.size(); ++i) merge = prev.strides[i] == dim.strides[i] * dim.size;
            if (merge) {
                prev.size *= dim.size;
                prev.strides = dim.strides;
                prev.accStride = dim.accStride;
                continue;
            }
        }
        dims.push_back(std::move(dim));
    }
    return dims;
}

// 64-byte aligned scratch blocks of kBlockSize elements of up to 8 bytes.
class Scratch {
public:
    Scratch(size_t blocks, size_t pointers) : m_storage(blocks * kBytes + 64), m_pointers(pointers) {
        const auto addr = reinterpret_cast<uintptr_t>(m_storage.data());
        m_base = m_storage.data() + ((64 - addr % 64) % 64);
    }
    void* block(size_t k) { return m_base + k * kBytes; }
    /// Room for one pointer per input.
    const void** pointers() { return m_pointers.data(); }

private:
    static constexpr size_t kBytes = static_cast<size_t>(kBlockSize) * 8;
    std::vector<std::byte> m_storage;
    std::vector<const void*> m_pointers;
    std::byte* m_base;
};

} // namespace

void runReduction(const ReducePlan& plan, std::span<const NDArray> inputs, const std::vector<int>& axes, NDArray& out) {
    if (inputs.size() != plan.inputDTypes.size())
        throw ExecError(plan.opName + ": " + std::to_string(inputs.size()) + " inputs, expected " +
                        std::to_string(plan.inputDTypes.size()));
    const int nd = inputs[0].ndim();
    for (const NDArray& a : inputs)
        if (a.ndim() != nd) throw ExecError(plan.opName + ": inputs of different ranks");
    const Shape shape = inputs.size() == 1 ? inputs[0].shape() : broadcastShapes(inputs, plan.opName);
    std::vector<bool> reduced(static_cast<size_t>(nd), false);
    for (int a : axes) reduced[static_cast<size_t>(a)] = true;
    Shape outShape;
    int64_t outSize = 1, reducedSize = 1;
    for (int d = 0; d < nd; ++d) {
        if (reduced[d]) reducedSize *= shape[d];
        else {
            outShape.push_back(shape[d]);
            outSize *= shape[d];
        }
    }
    if (reducedSize == 0 && outSize > 0) {
        if (plan.refuseEmpty || !plan.foldCode)
            throw ExecError(plan.opName + ": zero-size input (shape " + shapeToString(shape) +
                            ") along a reduced axis; this reduction has no identity");
    }
    NDArray result = arrayop::reuseOrEmpty(out, plan.outDType, outShape);
    const size_t accBytes = dtypeSize(plan.accDType);
    std::vector<std::byte> accStorage;
    void* acc = result.rawData();
    if (plan.accDType != plan.outDType) {
        accStorage.resize(static_cast<size_t>(std::max<int64_t>(outSize, 1)) * accBytes);
        acc = accStorage.data();
    }
    const FoldKernels fold = plan.foldCode ? reduceFoldKernels(*plan.foldCode, plan.accDType) : FoldKernels{};
    std::vector<bool> seen;  // the combine path: which outputs hold a first element already
    if (fold.fill) fold.fill(acc, outSize);
    else seen.assign(static_cast<size_t>(outSize), false);

    const std::vector<Dim> dims = walkDims(shape, reduced, inputs, outShape);
    const int64_t total = outSize * reducedSize;
    if (total > 0) {
        const size_t k = inputs.size();
        // Per input the dtype the map reads; without a map, input 0 in the accumulator dtype (bool first for All/Any).
        std::vector<DType> want(k);
        for (size_t i = 0; i < k; ++i) want[i] = plan.map ? plan.map->inputDType(static_cast<int>(i)) : (plan.asBool ? DType::Bool : plan.accDType);
        std::vector<GatherFn> gather(k);
        for (size_t i = 0; i < k; ++i) gather[i] = gatherKernel(inputs[i].dtype(), want[i]);
        const BlockFn boolToAcc = plan.asBool && plan.accDType != DType::Bool ? convertBlockKernel(DType::Bool, plan.accDType) : nullptr;
        const bool foldsProducts = fold.allProducts && plan.map && plan.map->endsInProduct() &&
                                   plan.map->outputDType(0) == plan.accDType;
        const int nw = static_cast<int>(dims.size());
        const int64_t inner = nw ? dims.back().size : 1;
        const bool innerReduced = nw ? dims.back().reduced : true;
        // One block of the innermost dimension: elements [j0, j0 + n) of the row at
        // `base` (per input, in elements), gathered, mapped and folded into the
        // accumulator row `accRow`. Scratch and workspace belong to the calling thread.
        auto foldBlock = [&](Scratch& scratch, ProgramWorkspace* ws, const int64_t* base, int64_t accBase, std::byte* accRow,
                             int64_t j0, int64_t n) {
            const void** src = scratch.pointers();
            for (size_t i = 0; i < k; ++i) {
                const int64_t stride = nw ? dims.back().strides[i] : 0;
                const std::byte* p = static_cast<const std::byte*>(inputs[i].storage()->data()) +
                                     (base[i] + j0 * stride) * static_cast<int64_t>(dtypeSize(inputs[i].dtype()));
                if (stride == 1 && inputs[i].dtype() == want[i]) {
                    src[i] = p;
                } else {
                    gather[i](p, stride, scratch.block(i), n);
                    src[i] = scratch.block(i);
                }
            }
            void* mapped = scratch.block(k);
            void* accBlock = scratch.block(k + 1);
            const void* m = src[0];
            if (plan.map && foldsProducts && innerReduced) {
                // sum(f(x) * y): the fold multiplies as it adds; the products are never
                // stored, nor f's values when f is the vectorised call just before the
                // product. A block with lanes SLEEF is not trusted with (an argument
                // past exp's band) is computed the two-pass way, which fixes those lanes.
                if (const std::optional<vmath::Fn> call = plan.map->productCall()) {
                    const auto ops = plan.map->runBlockToProductCall(*ws, src, n);
                    if (foldProductOfCall(*call, plan.accDType, ops, accRow, n)) return;
                }
                const auto factors = plan.map->runBlockToProduct(*ws, src, n);
                fold.allProducts(accRow, factors[0], factors[1], n);
                return;
            }
            if (plan.map) {
                void* outs[1] = {mapped};
                plan.map->runBlock(*ws, src, outs, n);
                m = mapped;
            } else if (boolToAcc) {
                BlockInstr conv;
                conv.fn = boolToAcc;
                conv.dst = 1;
                conv.src[0] = 0;
                void* slots[2] = {const_cast<void*>(m), accBlock};
                boolToAcc(conv, slots, n);
                m = accBlock;
            }
            if (fold.into) {
                if (innerReduced) fold.all(accRow, m, n);
                else fold.into(accRow + j0 * static_cast<int64_t>(accBytes), m, n);
                return;
            }
            // The Composite itself, element by element, from the first element of each output.
            for (int64_t j = 0; j < n; ++j) {
                const int64_t o = accBase + (innerReduced ? 0 : j0 + j);
                std::byte* ao = static_cast<std::byte*>(acc) + o * static_cast<int64_t>(accBytes);
                const void* mj = static_cast<const std::byte*>(m) + j * static_cast<int64_t>(accBytes);
                if (!seen[static_cast<size_t>(o)]) {
                    std::memcpy(ao, mj, accBytes);
                    seen[static_cast<size_t>(o)] = true;
                    continue;
                }
                alignas(8) std::byte next[8];
                const void* ins[2] = {ao, mj};
                void* outs[1] = {next};
                ProgramWorkspace& cws = ProgramWorkspace::local();
                cws.bind(*plan.combine, 0);
                plan.combine->runBlock(cws, ins, outs, 1);
                std::memcpy(ao, next, accBytes);
            }
        };
        std::vector<int64_t> base(k);
        for (size_t i = 0; i < k; ++i) base[i] = inputs[i].offset();
        if (nw == 1 && innerReduced && fold.into && inner > kReduceChunk) {
            // One long row folded into one value: partial results of fixed chunks (the
            // same for any thread count), folded in chunk order, so the sum is
            // bit-identical however many threads computed the partials.
            const int64_t chunks = (inner + kReduceChunk - 1) / kReduceChunk;
            std::vector<std::byte> partials(static_cast<size_t>(chunks) * accBytes);
            fold.fill(partials.data(), chunks);
            ThreadPool::instance().parallelFor(chunks, [&](int64_t c) {
                Scratch scratch(k + 2, k);
                ProgramWorkspace* ws = nullptr;
                if (plan.map) {
                    ws = &ProgramWorkspace::local();
                    ws->bind(*plan.map, 0);
                }
                std::byte* partial = partials.data() + c * static_cast<int64_t>(accBytes);
                const int64_t end = std::min(inner, (c + 1) * kReduceChunk);
                for (int64_t j0 = c * kReduceChunk; j0 < end; j0 += kBlockSize)
                    foldBlock(scratch, ws, base.data(), 0, partial, j0, std::min(kBlockSize, end - j0));
            });
            fold.all(acc, partials.data(), chunks);
        } else {
            // Rows [r0, r1) of the outermost walk dim (all of it when there is one dim)
            // and columns [c0, c1) of the innermost, on the calling thread.
            auto walk = [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
                Scratch scratch(k + 2, k);
                ProgramWorkspace* ws = nullptr;
                if (plan.map) {
                    ws = &ProgramWorkspace::local();
                    ws->bind(*plan.map, 0);
                }
                std::vector<int64_t> at = base;
                std::vector<int64_t> idx(static_cast<size_t>(std::max(nw - 1, 0)), 0);
                int64_t accBase = 0;
                if (nw >= 2) {
                    for (size_t i = 0; i < k; ++i) at[i] += r0 * dims[0].strides[i];
                    accBase = r0 * dims[0].accStride;
                    idx[0] = r0;
                }
                while (true) {
                    std::byte* accRow = static_cast<std::byte*>(acc) + accBase * static_cast<int64_t>(accBytes);
                    for (int64_t j0 = c0; j0 < c1; j0 += kBlockSize)
                        foldBlock(scratch, ws, at.data(), accBase, accRow, j0, std::min(kBlockSize, c1 - j0));
                    // Next outer index.
                    int d = nw - 2;
                    for (; d >= 0; --d) {
                        const Dim& dim = dims[static_cast<size_t>(d)];
                        for (size_t i = 0; i < k; ++i) at[i] += dim.strides[i];
                        accBase += dim.accStride;
                        if (++idx[static_cast<size_t>(d)] < (d == 0 ? r1 : dim.size)) break;
                        for (size_t i = 0; i < k; ++i) at[i] -= dim.strides[i] * dim.size;
                        accBase -= dim.accStride * dim.size;
                        idx[static_cast<size_t>(d)] = 0;
                    }
                    if (d < 0) break;
                }
            };
            // Large work on several threads, split where no two threads fold into the
            // same output: by rows when the outermost dim is kept, else by columns when
            // the innermost is kept. Each output then sees the same folds in the same
            // order as on one thread, so the split never changes a bit.
            ThreadPool& pool = ThreadPool::instance();
            const int64_t rows = nw >= 2 ? dims[0].size : 1;
            const bool parallel = fold.into && total >= kReduceChunk && pool.threads() > 1;
            if (parallel && nw >= 2 && !dims[0].reduced) {
                const int64_t perTask = std::max<int64_t>(1, kReduceChunk / std::max<int64_t>(1, total / rows));
                pool.parallelFor((rows + perTask - 1) / perTask, [&](int64_t t) {
                    walk(t * perTask, std::min(rows, (t + 1) * perTask), 0, inner);
                });
            } else if (parallel && !innerReduced && inner >= 2 * kBlockSize) {
                const int64_t sweeps = std::max<int64_t>(1, total / inner);
                const int64_t blocks = std::max<int64_t>(1, kReduceChunk / (sweeps * kBlockSize));
                const int64_t perTask = blocks * kBlockSize;
                pool.parallelFor((inner + perTask - 1) / perTask, [&](int64_t t) {
                    walk(0, rows, t * perTask, std::min(inner, (t + 1) * perTask));
                });
            } else {
                walk(0, rows, 0, inner);
            }
        }
    }
    if (acc != result.rawData() && outSize > 0)
        gatherKernel(plan.accDType, plan.outDType)(acc, 1, result.rawData(), outSize);
    out = result;
}

} // namespace tl
