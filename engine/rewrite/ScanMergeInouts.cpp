// scan_merge_inouts (PyTensor's scan_merge_inouts, the part of it that works): a loop
// that receives the same outer variable twice as sequences, or twice as
// non_sequences, reads it once. The second copy is left unread, for
// scan_remove_constants_and_unused_inputs to drop.
//   scan(f(x_t, y_t), xs, xs) -> scan(f(x_t, x_t), xs, xs)
// (Duplicate recurrent states are scan_merge_states's job: docs/semantics.md#duplicate-states.)
#include "ir/Rewriter.h"
#include "ops/ScanOp.h"
#include "rewrite/RewriteBase.h"
#include "rewrite/Rewrites.h"
#include "ir/GraphCopy.h"
#include "rewrite/ScanRebuild.h"

#include <unordered_map>

namespace tl {

namespace {

struct InoutsMatch : RewriteMatch {
    std::unordered_map<int, int> alias;  // inner input j -> inner input i it duplicates
};

class ScanMergeInouts final : public NodeRewrite {
public:
    std::string_view name() const override { return "scan_merge_inouts"; }
    std::vector<std::string> tags() const override { return {"fast_run", "scan", "scan_merge"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Scan}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const auto& scan = static_cast<const ScanOp&>(node.op());
        const ScanInfo& info = scan.info();
        const Graph& g = *scan.inner();
        auto m = std::make_unique<InoutsMatch>();
        auto scanRange = [&](int innerBegin, int innerEnd, int outerBegin) {
            std::unordered_map<const Variable*, int> first;
            for (int i = innerBegin; i < innerEnd; ++i) {
                const Variable* outer = node.input(outerBegin + (i - innerBegin));
                auto [it, fresh] = first.emplace(outer, i);
                // Only a duplicate that is still read needs redirecting.
                if (!fresh && !g.inputs()[i]->clients().empty() &&
                    g.inputs()[i]->type() == g.inputs()[it->second]->type())
                    m->alias[i] = it->second;
            }
        };
        scanRange(0, info.nSeqs, info.outerInSeqs());
        scanRange(info.innerInNonSeqs(), info.numInnerInputs(), info.outerInNonSeqs());
        if (m->alias.empty()) return MatchResult::fail("no outer variable is given twice as a sequence or non_sequence");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rw, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const InoutsMatch&>(match);
        const auto& scan = static_cast<const ScanOp&>(node.op());
        auto keep = scan.inner();
        const Graph& old = *keep;
        GraphAssembler a;
        std::unordered_map<const Variable*, Variable*> map;
        for (const Variable* in : old.inputs()) map[in] = a.addInput(in->type());
        for (auto [j, i] : m.alias) map[old.inputs()[j]] = map.at(old.inputs()[i]);
        copyGraphInto(a, old, map, CopyIds::Fresh);
        std::vector<Variable*> outs;
        for (const Variable* o : old.outputs()) outs.push_back(map.at(o));
        a.setOutputs(std::move(outs));
        std::shared_ptr<Graph> g = a.finish();
        std::vector<Variable*> ins(node.inputs().begin(), node.inputs().end());
        Node* fresh = rw.create(makeScan(scan.info(), g, scan.scanName(), scan.inplaceStates(), scan.reuseProvenSafe()), std::move(ins));
        rw.cloned(fresh->id(), node.id());
        rw.attribute(fresh->id(), "merged_inputs", "", std::to_string(m.alias.size()) + " duplicate input(s) read once");
        replaceOutputsWith(rw, node, *fresh);
    }
};

} // namespace

const NodeRewrite& scanMergeInouts() {
    static const ScanMergeInouts r;
    return r;
}

} // namespace tl
