#include "rewrite/ScanBufferReads.h"

#include "ops/Subtensor.h"
#include "rewrite/ScanRebuild.h"

#include <algorithm>
#include <optional>

namespace tl {

namespace {

// Rows of the raw output a chain has selected so far.
struct Rows {
    int64_t first, count, step;
};

// The axis-0 entry of a Subtensor node as constants: index value, or slice parts.
struct Entry0 {
    bool isIndex = false;
    std::optional<int64_t> index, start, stop, step;
};

// Bigger than any trace a buffer could hold; refusing such constants also keeps
// the row arithmetic (skip + start, -index) far from int64 overflow.
constexpr int64_t kMaxRowConstant = int64_t(1) << 31;

// Nullopt when a present part is not a constant within +-kMaxRowConstant.
std::optional<Entry0> entry0(const Node& n) {
    const auto& e = static_cast<const SubtensorOp&>(n.op()).entries();
    if (e.empty()) return std::nullopt;
    Entry0 r;
    int in = 1;
    auto next = [&](std::optional<int64_t>& slot) {
        slot = constantInt(n.input(in++));
        return slot.has_value() && *slot <= kMaxRowConstant && *slot >= -kMaxRowConstant;
    };
    if (e[0].kind == IndexEntry::Kind::Index) {
        r.isIndex = true;
        return next(r.index) ? std::optional<Entry0>(r) : std::nullopt;
    }
    if (e[0].hasStart && !next(r.start)) return std::nullopt;
    if (e[0].hasStop && !next(r.stop)) return std::nullopt;
    if (e[0].hasStep && !next(r.step)) return std::nullopt;
    return r;
}

// Python's slice.indices for a positive step over n rows: start, count and the
// clamped stop.
struct SliceRows {
    int64_t start, count, stop;
};
SliceRows sliceIndices(const Entry0& e, int64_t n, int64_t step) {
    auto clampBound = [&](std::optional<int64_t> v, int64_t dflt) {
        if (!v) return dflt;
        int64_t x = *v < 0 ? *v + n : *v;
        return std::clamp<int64_t>(x, 0, n);
    };
    const int64_t a = clampBound(e.start, 0), b = clampBound(e.stop, n);
    const int64_t count = b > a ? (b - a + step - 1) / step : 0;
    return {a, count, b};
}

bool isSubtensor(const Node* n) { return n && n->op().kind() == OpKind::Subtensor; }

// A node nothing uses (left behind by a builder; the rewriter prunes it with its source).
bool isDead(const Node& n) {
    return std::all_of(n.outputs().begin(), n.outputs().end(), [](const Variable* o) { return o->clients().empty(); });
}

bool hasLiveClient(const Variable& v) {
    return std::any_of(v.clients().begin(), v.clients().end(), [](const Client& c) { return !c.node || !isDead(*c.node); });
}

// A pure row slice whose every use is another Subtensor: looked through.
bool isChainLink(const Node& n) {
    const auto& e = static_cast<const SubtensorOp&>(n.op()).entries();
    if (e.size() != 1 || e[0].kind != IndexEntry::Kind::Slice) return false;
    const auto& cl = n.output(0)->clients();
    return std::all_of(cl.begin(), cl.end(), [](const Client& c) { return isSubtensor(c.node); });
}

// A client the read analyses can follow: a live Subtensor reading the output through
// its first input, with a constant first entry and a positive step. Otherwise why not
// (or `dead`: a leftover without readers, to be skipped).
struct ClientEntry {
    bool dead = false;
    std::optional<Entry0> entry;
    std::string whyNot;
};

ClientEntry understoodClient(const Client& c) {
    ClientEntry r;
    if (c.isGraphOutput()) r.whyNot = "it is a graph output";
    else if (isDead(*c.node)) r.dead = true;
    else if (!isSubtensor(c.node) || c.index != 0) r.whyNot = "it is read by " + c.node->label();
    else if (!(r.entry = entry0(*c.node))) r.whyNot = c.node->label() + " has a first index that is not a constant (within 2^31 rows)";
    else if (r.entry->step.value_or(1) <= 0) {
        r.entry.reset();
        r.whyNot = c.node->label() + " has a non-positive step";
    }
    return r;
}

} // namespace

OutputReads analyseReads(const Variable& out, int64_t length, int64_t maxFromEnd) {
    OutputReads r;
    if (!hasLiveClient(out)) {
        r.unused = true;
        return r;
    }
    const bool whileLoop = length == kUnknownDim;
    auto whole = [&](std::string why) {
        r.whole = true;
        r.why = std::move(why);
        r.reads.clear();
        return r;
    };
    // Explicit stack of (variable, rows it holds): chains are walked without recursion.
    // While loops track rows from the end only: `first` is the number of leading rows
    // skipped, which must leave room for the rows read.
    struct Item {
        const Variable* v;
        Rows rows;
        int64_t bound;  // one past the last raw row the chain's stops so far allow
    };
    std::vector<Item> stack{{&out, Rows{0, whileLoop ? 0 : length, 1}, length}};
    while (!stack.empty()) {
        Item it = stack.back();
        stack.pop_back();
        for (const Client& c : it.v->clients()) {
            const ClientEntry ce = understoodClient(c);
            if (ce.dead) continue;
            if (!ce.entry) return whole(ce.whyNot);
            const auto& e = ce.entry;
            const int64_t step = e->step.value_or(1);
            const bool link = isChainLink(*c.node);
            if (whileLoop) {
                // Understood: [a:] links with a >= 0, then [-j] or [-j:].
                if (link) {
                    if (e->stop || step != 1 || e->start.value_or(0) < 0)
                        return whole(c.node->label() + " does not count from the end of a while loop's trace");
                    stack.push_back({c.node->output(0), Rows{it.rows.first + e->start.value_or(0), 0, 1}, length});
                    continue;
                }
                int64_t j = 0;
                if (e->isIndex && *e->index < 0) j = -*e->index;
                else if (!e->isIndex && e->start && *e->start < 0 && !e->stop && step == 1) j = -*e->start;
                if (j == 0 || j + it.rows.first > maxFromEnd)
                    return whole(c.node->label() + " reads more of a while loop's trace than one step guarantees");
                r.reads.push_back({c.node, e->isIndex, true, -j, e->isIndex ? 1 : j, 1});
                continue;
            }
            const Rows& in = it.rows;
            Rows sel;
            int64_t bound = it.bound;
            if (e->isIndex) {
                int64_t i = *e->index < 0 ? *e->index + in.count : *e->index;
                if (i < 0 || i >= in.count) return whole(c.node->label() + " indexes out of range");
                sel = {in.first + i * in.step, 1, in.step};
                bound = sel.first + 1;
            } else {
                const SliceRows s = sliceIndices(*e, in.count, step);
                sel = {in.first + s.start * in.step, s.count, in.step * step};
                if (e->stop) bound = std::min(bound, in.first + s.stop * in.step);
            }
            if (link) {
                stack.push_back({c.node->output(0), sel, bound});
                continue;
            }
            if (sel.count == 0) return whole(c.node->label() + " reads no rows");
            r.reads.push_back({c.node, e->isIndex, false, sel.first, sel.count, sel.step, std::max(bound, sel.first + (sel.count - 1) * sel.step + 1)});
        }
    }
    return r;
}

SymbolicOutputReads analyseReadsSymbolic(const Variable& out) {
    SymbolicOutputReads r;
    if (!hasLiveClient(out)) {
        r.unused = true;
        return r;
    }
    auto whole = [&](std::string why) {
        r.whole = true;
        r.why = std::move(why);
        r.reads.clear();
        return r;
    };
    // Explicit stack of (variable, rows skipped from the start so far).
    std::vector<std::pair<const Variable*, int64_t>> stack{{&out, 0}};
    while (!stack.empty()) {
        auto [v, skip] = stack.back();
        stack.pop_back();
        for (const Client& c : v->clients()) {
            const ClientEntry ce = understoodClient(c);
            if (ce.dead) continue;
            if (!ce.entry) return whole(ce.whyNot);
            const auto& e = ce.entry;
            const int64_t step = e->step.value_or(1);
            if (!e->isIndex && !e->stop && step == 1 && e->start.value_or(0) >= 0 && isChainLink(*c.node)) {
                stack.push_back({c.node->output(0), skip + e->start.value_or(0)});
                continue;
            }
            SymbolicRead read;
            read.terminal = c.node;
            read.isIndex = e->isIndex;
            read.skip = skip;
            read.step = step;
            if (e->isIndex) {
                read.fromEnd = *e->index < 0;
                if (read.fromEnd) read.j = -*e->index;
                else {
                    read.first = skip + *e->index;
                    read.stop = read.first + 1;
                }
            } else if (e->start && *e->start < 0) {
                if (e->stop && *e->stop >= 0) return whole(c.node->label() + " counts from the end but stops at a row from the start");
                read.fromEnd = true;
                read.j = -*e->start;
                read.e = e->stop ? -*e->stop : 0;
            } else {
                if (e->stop && *e->stop < 0) return whole(c.node->label() + " stops at a row counted from the end");
                read.first = skip + e->start.value_or(0);
                if (e->stop) read.stop = skip + std::max(*e->stop, e->start.value_or(0));
            }
            r.reads.push_back(read);
        }
    }
    return r;
}

Variable* rewriteRead(Rewriter& rewriter, const BufferRead& read, Variable* newOut, int64_t shift) {
    auto idx = [&](int64_t v) { return rewriter.constant(NDArray::scalar(DType::Int64, static_cast<double>(v)), Type::scalar(DType::Int64)); };
    if (read.isIndex) return subtensorLike(rewriter, *read.terminal, newOut, {IndexEntry::Kind::Index},
                                           {idx(read.fromEnd ? read.first : read.first - shift)});
    if (read.fromEnd)
        return subtensorLike(rewriter, *read.terminal, newOut, {IndexEntry::Kind::Slice, true, false, false}, {idx(read.first)});
    const int64_t start = read.first - shift;
    const bool hasStep = read.step != 1;
    std::vector<Variable*> ins{idx(start), idx(start + (read.count - 1) * read.step + 1)};
    if (hasStep) ins.push_back(idx(read.step));
    return subtensorLike(rewriter, *read.terminal, newOut, {IndexEntry::Kind::Slice, true, true, hasStep}, std::move(ins));
}

Variable* subtensorLike(Rewriter& rewriter, const Node& terminal, Variable* newOut, IndexEntry first,
                        std::vector<Variable*> firstInputs) {
    const auto& oldEntries = static_cast<const SubtensorOp&>(terminal.op()).entries();
    std::vector<IndexEntry> entries{first};
    std::vector<Variable*> inputs{newOut};
    inputs.insert(inputs.end(), firstInputs.begin(), firstInputs.end());
    // The terminal's other entries and their index inputs, unchanged.
    const int used0 = numIndexInputs({oldEntries[0]});
    entries.insert(entries.end(), oldEntries.begin() + 1, oldEntries.end());
    for (int i = 1 + used0; i < terminal.numInputs(); ++i) inputs.push_back(terminal.input(i));
    return rewriter.create(makeSubtensor(entries), inputs)->output(0);
}

} // namespace tl
