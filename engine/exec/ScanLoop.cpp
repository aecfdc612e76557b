// Scan's loop, as PyTensor's Scan.perform (docs/semantics.md#scan-execution). Everything the
// step loop touches is prepared before it: row views whose offsets move, raw
// row pointers, lent rows; a step allocates nothing in the steady state.
#include "exec/ScanLoop.h"

#include "exec/ExecContext.h"
#include "exec/Executor.h"
#include "exec/ScanBuffer.h"
#include "exec/ScanElemwiseStep.h"
#include "ir/Graph.h"

#include <algorithm>
#include <memory>

namespace tl {

namespace {

int64_t pyMod(int64_t a, int64_t b) {
    const int64_t r = a % b;
    return r < 0 ? r + b : r;
}

int64_t readCount(const NDArray& a, const std::string& what) {
    if (!a.valid() || a.size() != 1 || !(isInteger(a.dtype()) || a.dtype() == DType::Bool))
        throw ExecError(what + " must be one integer");
    return a.itemInt();
}

// `a` holds rows of inner type `t`; ExecError naming `what` otherwise.
void checkRows(const NDArray& a, const Type& t, const std::string& what) {
    bool ok = a.valid() && a.dtype() == t.dtype && a.ndim() == t.ndim() + 1;
    for (int d = 0; ok && d < t.ndim(); ++d)
        if (t.shape[d] != kUnknownDim && t.shape[d] != a.dim(d + 1)) ok = false;
    if (!ok)
        throw ExecError(what + ": expected rows of " + t.toString() + ", got " +
                        (a.valid() ? std::string(dtypeName(a.dtype())) + " array of shape " + shapeToString(a.shape())
                                   : std::string("no array")));
}

void checkValue(const NDArray& a, const Type& t, const std::string& what) {
    bool ok = a.valid() && a.dtype() == t.dtype && a.ndim() == t.ndim();
    for (int d = 0; ok && d < t.ndim(); ++d)
        if (t.shape[d] != kUnknownDim && t.shape[d] != a.dim(d)) ok = false;
    if (!ok)
        throw ExecError(what + ": expected " + t.toString() + ", got " +
                        (a.valid() ? std::string(dtypeName(a.dtype())) + " array of shape " + shapeToString(a.shape())
                                   : std::string("no array")));
}

// An inner input reading row (pos + tap) mod store of a buffer; the row advances
// with pos, so the loop steps it instead of dividing.
struct TapSlot {
    NDArray* slot;
    ScanBuffer* buffer;
    int64_t row;
};

struct SeqSlot {
    NDArray* slot;
    int64_t base, stride0;
};

// An array `cell` may be refilled with `like`'s contents instead of allocating anew.
bool refillable(const NDArray& cell, DType dtype, const Shape& shape) {
    return cell.valid() && !cell.storage()->isLent() && cell.storage().use_count() == 1 && cell.dtype() == dtype &&
           cell.shape() == shape && cell.offset() == 0 && cell.isContiguous();
}

// Empties the inner graph's borrowed slots however perform exits: lent rows must not
// outlive the buffers they point into.
struct ReleaseBorrowed {
    CompiledGraph& fn;
    ~ReleaseBorrowed() { fn.releaseBorrowed(); }
};

// The direct step (exec/ScanElemwiseStep.h) for a loop without mit_mot, untraced
// states or a condition, once its buffers are bound. A new state goes straight into
// its row where preallocation would lend that row: it keeps a row for the taps it
// must not overwrite, or its reuse of the oldest tap's row was granted.
std::unique_ptr<ScanElemwiseStep> planDirectStep(CompiledGraph& fn, const ScanInfo& I, const std::vector<ScanBuffer>& buf,
                                                 const std::vector<int>& rowReuseIndex) {
    const int T = I.nTracedStates();
    std::vector<const NDArray*> targets(I.numInnerOutputs(), nullptr), rowsOf(I.numInnerInputs(), nullptr);
    for (int s = 0; s < T + I.nNitSot; ++s) {
        const ScanBuffer& b = buf[s];
        const bool own = s >= T || b.store > b.initRows ||
                         (b.store == b.initRows && rowReuseIndex[s] >= 0 && fn.rowReuseGranted(rowReuseIndex[s]));
        if (own) targets[b.innerOut] = b.array;
        if (s < T)
            for (int k = 0; k < static_cast<int>(I.stateTaps(s).size()); ++k) rowsOf[I.innerInTap(s, k)] = b.array;
    }
    return ScanElemwiseStep::plan(fn, targets, rowsOf);
}

} // namespace

void runScanLoop(ExecContext& ctx, const ScanOp& op, std::span<const NDArray> inputs, std::span<NDArray> outputs) {
    const ScanInfo& I = op.info();
    const int T = I.nTracedStates();
    const auto& innerIns = op.inner()->inputs();
    const auto& innerOuts = op.inner()->outputs();
    if (static_cast<int>(inputs.size()) != I.numOuterInputs() || static_cast<int>(outputs.size()) != I.numOuterOutputs())
        throw ExecError(op.name() + ": wrong number of inputs or outputs");

    // 1. n_steps and sequences.
    const int64_t nSteps = readCount(inputs[0], "n_steps");
    if (nSteps < 0) throw ExecError("Scan was asked to run for negative number of step " + std::to_string(nSteps));
    for (int k = 0; k < I.nSeqs; ++k) {
        const NDArray& seq = inputs[I.outerInSeqs() + k];
        checkRows(seq, innerIns[k]->type(), "sequence " + std::to_string(k));
        if (seq.dim(0) < nSteps)
            throw ExecError("sequence " + std::to_string(k) + " has shape " + shapeToString(seq.shape()) +
                            " but the Scan's required number of steps is " + std::to_string(nSteps));
    }

    // 2. Trace buffers: the outer buffer itself when inplace, else a copy.
    for (int s = 0; s < T; ++s) {
        const NDArray& in = inputs[I.outerInMitMot() + s];
        const std::string what = std::string("outer_in_") + scanCategoryName(I.stateCategory(s)) + "-" +
                                 std::to_string(I.indexInCategory(s));
        checkRows(in, innerIns[I.innerInTap(s, 0)]->type(), what);
        NDArray& out = outputs[s];
        if (op.isInplace(s)) out = in;
        else if (refillable(out, in.dtype(), in.shape())) out.assign(in);
        else out = in.copy();
    }
    for (int k = 0; k < I.nUntraced; ++k)
        checkValue(inputs[I.outerInUntraced() + k], innerIns[I.innerInUntraced() + k]->type(),
                   "untraced state " + std::to_string(k));
    for (int k = 0; k < I.nNonSeqs; ++k)
        checkValue(inputs[I.outerInNonSeqs() + k], innerIns[I.innerInNonSeqs() + k]->type(),
                   "non_sequence " + std::to_string(k));

    if (nSteps == 0) {
        for (int k = 0; k < I.nNitSot; ++k) {
            // PyTensor gives an empty array here; its rows keep the step's static shape where known.
            Shape shape{0};
            for (int64_t d : innerOuts[I.innerOutNitSot() + k]->type().shape) shape.push_back(d == kUnknownDim ? 0 : d);
            outputs[T + k] = NDArray::empty(innerOuts[I.innerOutNitSot() + k]->type().dtype, shape);
        }
        for (int k = 0; k < I.nUntraced; ++k) outputs[T + I.nNitSot + k] = inputs[I.outerInUntraced() + k].copy();
        return;
    }

    std::vector<ScanBuffer> buf(T + I.nNitSot);
    for (int s = 0; s < T; ++s) {
        ScanBuffer& b = buf[s];
        b.bind(outputs[s]);
        b.store = outputs[s].dim(0);
        const auto taps = I.stateTaps(s);
        const int minTap = *std::min_element(taps.begin(), taps.end());
        b.initRows = -minTap;
        if (b.store <= 0)
            throw ExecError(std::string("the buffer of ") + scanCategoryName(I.stateCategory(s)) + "-" +
                            std::to_string(I.indexInCategory(s)) + " has no rows");
        b.pos = pyMod(-minTap, b.store);
        b.innerOut = I.innerOutState(s);
    }
    for (int k = 0; k < I.nNitSot; ++k) {
        ScanBuffer& b = buf[T + k];
        b.store = readCount(inputs[I.outerInNitSot() + k], "nit_sot-" + std::to_string(k) + " rows");
        if (b.store <= 0)
            throw ExecError("nit_sot-" + std::to_string(k) + " is asked to keep " + std::to_string(b.store) + " rows");
        b.array = &outputs[T + k];
        b.innerOut = I.innerOutNitSot() + k;
    }

    // 3. Inner input slots, bound once; the loop only moves their offsets.
    // States proven safe to write over their oldest tap (reuseProvenSafe): the inner plan
    // orders the tap's other readers first and grants each pair it can (docs/semantics.md#exact-buffer-sizing).
    std::vector<std::pair<int, int>> rowReuse;
    std::vector<int> rowReuseIndex(T, -1);
    for (int s = I.nMitMot(); s < T; ++s)
        if (s < static_cast<int>(op.reuseProvenSafe().size()) && op.reuseProvenSafe()[s]) {
            rowReuseIndex[s] = static_cast<int>(rowReuse.size());
            rowReuse.emplace_back(I.innerOutState(s), I.innerInTap(s, I.oldestTapIndex(s)));
        }
    CompiledGraph& fn = ctx.innerGraph(op.inner(), rowReuse);
    ReleaseBorrowed releaseAtExit{fn};
    for (int k = 0; k < I.nNonSeqs; ++k) fn.inputSlot(I.innerInNonSeqs() + k) = inputs[I.outerInNonSeqs() + k];
    std::vector<SeqSlot> seqSlots;
    for (int k = 0; k < I.nSeqs; ++k) {
        const NDArray& seq = inputs[I.outerInSeqs() + k];
        NDArray& slot = fn.inputSlot(k);
        slot = rowView(seq, 0);
        seqSlots.push_back({&slot, seq.offset(), seq.strides()[0]});
    }
    std::vector<TapSlot> tapSlots;
    for (int s = 0; s < T; ++s) {
        const auto taps = I.stateTaps(s);
        for (size_t k = 0; k < taps.size(); ++k) {
            NDArray& slot = fn.inputSlot(I.innerInTap(s, static_cast<int>(k)));
            slot = rowView(outputs[s], 0);
            tapSlots.push_back({&slot, &buf[s], pyMod(buf[s].pos + taps[k], buf[s].store)});
        }
    }
    std::vector<NDArray*> untracedSlots;
    std::vector<NDArray> held(I.nUntraced);
    for (int k = 0; k < I.nUntraced; ++k) {
        untracedSlots.push_back(&fn.inputSlot(I.innerInUntraced() + k));
        held[k] = inputs[I.outerInUntraced() + k];
    }

    // Preallocation: lend buffer rows as the inner outputs' storage where writing there
    // cannot destroy a tap another inner node still reads (docs/semantics.md#preallocation).
    const bool prealloc = ctx.options().scanPreallocate;
    for (int s = I.nMitMot(); s < T + I.nNitSot; ++s) {
        ScanBuffer& b = buf[s];
        const bool traced = s < T;
        b.cell = fn.outputCell(b.innerOut);
        const Type& outType = innerOuts[b.innerOut]->type();
        b.lend = prealloc && b.cell && !fn.outputAliasesInput(b.innerOut) && outType.ndim() >= 1 &&
                 (!traced || b.store > b.initRows ||
                  (b.store == b.initRows && rowReuseIndex[s] >= 0 && fn.rowReuseGranted(rowReuseIndex[s])));
        if (traced && b.lend) b.lend = b.rowContiguous && outputs[s].dtype() == outType.dtype;
    }
    // Outputs that may alias an inner input are copied aside before any buffer is written,
    // so a later write cannot change what an earlier output still has to deliver.
    std::vector<NDArray> staged(innerOuts.size());
    std::vector<int> aliasing;
    for (int j = 0; j < static_cast<int>(innerOuts.size()); ++j)
        if (fn.outputAliasesInput(j) && !(I.asWhile && j == I.numInnerOutputs() - 1)) aliasing.push_back(j);
    auto out = [&](int j) -> const NDArray& { return staged[j].valid() ? staged[j] : fn.output(j); };

    // 4. The loop. After the first step a step that is one elementwise call over the
    // rows may skip the executor (exec/ScanElemwiseStep.h); the first has set up every
    // buffer and shown the kernel accepts these inputs.
    int64_t i = 0;
    bool more = true;
    ExecStats& stats = ctx.stats();
    const int condOut = I.asWhile ? I.numInnerOutputs() - 1 : -1;
    std::unique_ptr<ScanElemwiseStep> direct;
    std::vector<void*> directRows(innerOuts.size());
    while (i < nSteps && more) {
        for (SeqSlot& q : seqSlots) q.slot->setOffset(q.base + i * q.stride0);
        for (TapSlot& t : tapSlots) {
            t.slot->setOffset(t.buffer->base + t.row * t.buffer->stride0);
            t.row = t.row + 1 == t.buffer->store ? 0 : t.row + 1;
        }
        if (i == 1 && prealloc && I.nMitMot() == 0 && I.nUntraced == 0 && !I.asWhile)
            direct = planDirectStep(fn, I, buf, rowReuseIndex);
        if (direct) {
            for (ScanBuffer& b : buf) directRows[b.innerOut] = b.row(b.pos);
            direct->run(directRows.data());
            ++stats.scanSteps;
            ++stats.scanDirectSteps;
            stats.scanRowsInPlace += buf.size();
            for (ScanBuffer& b : buf) b.pos = b.pos + 1 == b.store ? 0 : b.pos + 1;
            ++i;
            continue;
        }
        for (int k = 0; k < I.nUntraced; ++k) *untracedSlots[k] = held[k];
        for (int s = I.nMitMot(); s < T + I.nNitSot; ++s) {
            ScanBuffer& b = buf[s];
            if (!b.lend || (s >= T && i == 0)) continue;
            void* row = b.row(b.pos);
            if (b.lentRaw && b.cell->storage().get() == b.lentRaw) b.lentRaw->relend(row);
            else {
                *b.cell = rowView(*b.array, b.pos).lend();
                b.lentRaw = b.cell->storage().get();
            }
        }

        try {
            fn.execute(ctx);
        } catch (const ExecError& e) {
            throw ExecError("step " + std::to_string(i) + ": " + e.what());
        }
        ++stats.scanSteps;
        if (condOut >= 0) more = fn.output(condOut).item() == 0;

        // Stage aliasing outputs first, then write.
        for (int j : aliasing) {
            const NDArray& v = fn.output(j);
            NDArray& st = staged[j];
            if (refillable(st, v.dtype(), v.shape())) st.assign(v);
            else st = v.copy();
        }

        for (int s = 0; s < I.nMitMot(); ++s) {
            ScanBuffer& b = buf[s];
            const auto& outTaps = I.mitMotOutTaps[s];
            for (size_t k = 0; k < outTaps.size(); ++k) {
                int64_t r = outTaps[k] + b.pos;
                if (r < 0) r += b.store;
                if (r < 0 || r >= b.store)
                    throw ExecError("mit_mot-" + std::to_string(s) + " output tap " + std::to_string(outTaps[k]) +
                                    " writes row " + std::to_string(outTaps[k] + b.pos) + " of a " +
                                    std::to_string(b.store) + "-row buffer");
                b.write(r, out(b.innerOut + static_cast<int>(k)), i, b.innerOut + static_cast<int>(k));
                ++stats.scanRowsCopied;
            }
        }
        for (int s = I.nMitMot(); s < T + I.nNitSot; ++s) {
            ScanBuffer& b = buf[s];
            if (b.lend && b.lentRaw) {
                // A lent storage has offset 0: its data is the row it was lent.
                if (b.cell->storage().get() == b.lentRaw && b.lentRaw->data() == b.row(b.pos)) {
                    ++stats.scanRowsInPlace;
                    continue;
                }
                // The kernel did not write into the lent row; after a few misses stop lending.
                b.lentRaw = nullptr;
                if (++b.lendFailures >= 3) b.lend = false;
            }
            const NDArray& v = out(b.innerOut);
            if (s >= T && i == 0) {
                // The scan allocates a nit_sot's trace once it knows the row shape.
                Shape shape{b.store};
                shape.insert(shape.end(), v.shape().begin(), v.shape().end());
                const DType dt = innerOuts[b.innerOut]->type().dtype;
                if (!refillable(*b.array, dt, shape)) *b.array = NDArray::empty(dt, shape);
                b.bind(*b.array);
                if (b.lend) b.lend = b.rowContiguous;
            }
            b.write(b.pos, v, i, b.innerOut);
            ++stats.scanRowsCopied;
        }
        for (int k = 0; k < I.nUntraced; ++k) {
            const int j = I.innerOutUntraced() + k;
            NDArray* cell = fn.outputCell(j);
            if (cell) {
                // Double-buffer: the array the step read comes back as the kernel's cell,
                // free to be reused next step once the input slot lets go of it.
                NDArray produced = std::move(*cell);
                if (i > 0) *cell = std::move(held[k]);
                held[k] = std::move(produced);
            } else if (fn.outputAliasesInput(j)) {
                held[k] = out(j).copy();  // it may sit in a buffer row the loop overwrites
            } else {
                held[k] = out(j);
            }
        }
        for (ScanBuffer& b : buf) b.pos = b.pos + 1 == b.store ? 0 : b.pos + 1;
        ++i;
    }

    // 5. Oldest row first in wrapped buffers; unused rows of an early stop zeroed and trimmed.
    for (int s = I.nMitMot(); s < T + I.nNitSot; ++s) {
        ScanBuffer& b = buf[s];
        const int64_t written = i + b.initRows;
        if (b.store < written) {
            b.rotateToOldestFirst();
        } else if (b.store > written) {
            b.zeroRowsFrom(written);
            if (i < nSteps) {
                NDArray& a = *b.array;
                Shape shape = a.shape();
                shape[0] = std::max<int64_t>(0, b.store - (nSteps - i));
                a = a.view(std::move(shape), a.strides(), a.offset());
            }
        }
    }
    for (int k = 0; k < I.nUntraced; ++k) outputs[T + I.nNitSot + k] = std::move(held[k]);
}

} // namespace tl
