// local_useless_unbatched_blockwise: a Blockwise without batch dims (or whose batch
// dims are all statically 1) is its core op, as PyTensor's rewrite of that name
// makes it; length-1 batch dims are dropped before and put back after.
//   Blockwise{MatrixInverse, (m,m)->(m,m)}(A: (4, 4))   -> MatrixInverse(A)
//   Matmul(x: (1, 3, 4), y: (1, 4, 2))                   -> ExpandDims{axis=0}(Dot(x[0], y[0]))
// PyTensor runs it late (position 60, after blockwise_inplace), so the inplace
// forms carry over to the core op. Its eager twin, local_eager_useless_unbatched_blockwise,
// does the same in canonicalize, stabilize and specialize for the core ops that have no
// inplace form and that other rewrites want to see bare: a Matmul of matrices is a Dot
// before the blas phase, which makes it a Dot22 or a Gemv.
// The core node is the core op's make_node of the inputs, as PyTensor builds it.
#include "ops/Blockwise.h"
#include "ops/DimShuffle.h"
#include "ops/TensorScalar.h"
#include "rewrite/Rewrites.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace tl {

namespace {

// PyTensor's local_eager_useless_unbatched_blockwise tracks Blockwise of these core ops.
constexpr std::array kEagerCores = {OpKind::Dot,       OpKind::Alloc,           OpKind::ARange, OpKind::Subtensor,
                                    OpKind::AdvancedSubtensor, OpKind::AdvancedIncSubtensor, OpKind::Reshape};

class LocalUselessUnbatchedBlockwise final : public NodeRewrite {
public:
    explicit LocalUselessUnbatchedBlockwise(bool eager) : m_eager(eager) {}
    std::string_view name() const override {
        return m_eager ? "local_eager_useless_unbatched_blockwise" : "local_useless_unbatched_blockwise";
    }
    std::vector<std::string> tags() const override {
        if (m_eager) return {"fast_run", "canonicalize", "stabilize", "specialize"};
        return {"fast_run", "fast_compile", "blockwise"};
    }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Blockwise}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        const auto& bw = static_cast<const BlockwiseOp&>(node.op());
        if (m_eager && std::find(kEagerCores.begin(), kEagerCores.end(), bw.core().kind()) == kEagerCores.end())
            return MatchResult::fail("its core op waits for the late rewrite (an inplace form may come first)");
        std::vector<const Type*> types;
        for (const Variable* v : node.inputs()) types.push_back(&v->type());
        const int batch = bw.batchNdim(types);
        for (int i = 0; i < node.numInputs(); ++i) {
            const Type& t = node.input(i)->type();
            const int nb = t.ndim() - static_cast<int>(bw.signature().inputs[i].size());
            if (nb != batch) return MatchResult::fail("an input has fewer batch dims than the output");
            for (int d = 0; d < nb; ++d)
                if (t.shape[d] != 1)
                    return MatchResult::fail(options, [&] {
                        return "input " + std::to_string(i) + " has batch dim " + std::to_string(d) + " of length " +
                               (t.shape[d] == kUnknownDim ? std::string("?") : std::to_string(t.shape[d]));
                    });
        }
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch&, const RewriteOptions&) const override {
        const auto& bw = static_cast<const BlockwiseOp&>(node.op());
        std::vector<const Type*> types;
        for (const Variable* v : node.inputs()) types.push_back(&v->type());
        const int batch = bw.batchNdim(types);
        std::vector<Variable*> ins;
        for (Variable* v : node.inputs()) {
            if (batch == 0) {
                ins.push_back(v);
                continue;
            }
            std::vector<int> keep(static_cast<size_t>(v->type().ndim() - batch));
            std::iota(keep.begin(), keep.end(), batch);
            ins.push_back(rewriter.create(makeDimShuffle(v->type().ndim(), keep), {v})->output(0));
        }
        // PyTensor's Convolve1d.make_node reads its mode through as_scalar: a 0-d tensor
        // becomes ScalarFromTensor(t), no constant even when t is one (the core node's
        // length is then what its Blockwise said, below).
        if (bw.core().kind() == OpKind::Convolve1d && ins[2]->type().isTensorType())
            ins[2] = rewriter.create(makeScalarFromTensor(), {ins[2]})->output(0);
        // PyTensor's Blockwise took its outputs' core dims from the core op's make_node,
        // so the core node has them (when tensorlens's own rule knows less: MatrixPinv's
        // make_node gives its input's type, a Blockwise of it says so, and so does the
        // core node of PyTensor's compiled graph).
        std::vector<Type> declared;
        {
            std::vector<const Type*> coreTypes;
            for (const Variable* v : ins) coreTypes.push_back(&v->type());
            std::vector<const NDArray*> coreConstants;
            for (const Variable* v : ins) coreConstants.push_back(v->isConstant() ? &v->constantValue() : nullptr);
            declared = bw.core().inferTypesWithConstants(coreTypes, coreConstants);
        }
        for (size_t k = 0; k < declared.size(); ++k) {
            const Type& whole = node.output(static_cast<int>(k))->type();
            Type core = whole;
            core.shape.erase(core.shape.begin(), core.shape.begin() + batch);
            if (declared[k].accepts(core)) declared[k] = std::move(core);
        }
        Node* core = rewriter.create(bw.corePtr(), ins, &declared);
        std::vector<Variable*> outs;
        for (int k = 0; k < core->numOutputs(); ++k) {
            Variable* out = core->output(k);
            if (batch > 0) {
                std::vector<int> order(static_cast<size_t>(batch), -1);
                for (int d = 0; d < out->type().ndim(); ++d) order.push_back(d);
                out = rewriter.create(makeDimShuffle(out->type().ndim(), order), {out})->output(0);
            }
            outs.push_back(out);
        }
        // Replacing the last output with clients erases the node: look it up by id each time.
        const NodeId id = node.id();
        for (size_t k = 0; k < outs.size(); ++k) {
            Node* old = rewriter.graph().findNode(id);
            if (!old) break;
            rewriter.replace(old->output(static_cast<int>(k)), outs[k]);
        }
    }

private:
    bool m_eager;
};

} // namespace

const NodeRewrite& localUselessUnbatchedBlockwise() {
    static const LocalUselessUnbatchedBlockwise r(false);
    return r;
}

const NodeRewrite& localEagerUselessUnbatchedBlockwise() {
    static const LocalUselessUnbatchedBlockwise r(true);
    return r;
}

} // namespace tl
