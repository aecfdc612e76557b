// scan_remove_constants_and_unused_inputs (PyTensor's remove_constants_and_unused_inputs_scan):
// sequences and non_sequences the step never reads are dropped, and constant
// non_sequences become constants of the step itself.
//   scan(f(x_t), xs, w) with w unused -> scan(f(x_t), xs)
#include "ir/Rewriter.h"
#include "ops/ScanOp.h"
#include "rewrite/RewriteBase.h"
#include "rewrite/Rewrites.h"
#include "ir/GraphCopy.h"
#include "rewrite/ScanRebuild.h"

#include <unordered_map>

namespace tl {

namespace {

struct RemoveMatch : RewriteMatch {
    std::vector<int> dropInner;       // inner input indices (sequences, non_sequences) to drop
    std::vector<int> constantInner;   // inner non_sequence inputs whose outer value is a constant
};

class ScanRemoveUnusedInputs final : public NodeRewrite {
public:
    std::string_view name() const override { return "scan_remove_constants_and_unused_inputs"; }
    std::vector<std::string> tags() const override { return {"fast_run", "scan", "scan_pushout"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Scan}; }

    MatchResult match(const Node& node, const RewriteOptions&) const override {
        const auto& scan = static_cast<const ScanOp&>(node.op());
        const ScanInfo& info = scan.info();
        const Graph& g = *scan.inner();
        auto m = std::make_unique<RemoveMatch>();
        for (int i = 0; i < info.nSeqs; ++i)
            if (g.inputs()[i]->clients().empty()) m->dropInner.push_back(i);
        for (int i = info.innerInNonSeqs(); i < info.numInnerInputs(); ++i) {
            const Variable* outer = node.input(info.outerInNonSeqs() + (i - info.innerInNonSeqs()));
            if (g.inputs()[i]->clients().empty()) m->dropInner.push_back(i);
            else if (outer->isConstant()) m->constantInner.push_back(i);
        }
        if (m->dropInner.empty() && m->constantInner.empty())
            return MatchResult::fail("every sequence and non_sequence is read and none is a constant");
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rw, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const RemoveMatch&>(match);
        const auto& scan = static_cast<const ScanOp&>(node.op());
        const ScanInfo& info = scan.info();
        auto keep = scan.inner();
        const Graph& old = *keep;
        std::vector<bool> dropped(info.numInnerInputs(), false);
        for (int i : m.dropInner) dropped[i] = true;
        for (int i : m.constantInner) dropped[i] = true;

        ScanInfo ni = info;
        GraphAssembler a;
        std::unordered_map<const Variable*, Variable*> map;
        for (int i = 0; i < info.numInnerInputs(); ++i) {
            const Variable* in = old.inputs()[i];
            if (!dropped[i]) map[in] = a.addInput(in->type());
            else if (i < info.nSeqs) --ni.nSeqs;
            else --ni.nNonSeqs;
        }
        for (int i : m.constantInner) {
            const Variable* outer = node.input(info.outerInNonSeqs() + (i - info.innerInNonSeqs()));
            map[old.inputs()[i]] = a.addConstant(outer->constantValue(), old.inputs()[i]->type());
        }
        copyGraphInto(a, old, map, CopyIds::Fresh);
        std::vector<Variable*> outs;
        for (const Variable* o : old.outputs()) outs.push_back(map.at(o));
        a.setOutputs(std::move(outs));
        std::shared_ptr<Graph> g = a.finish();

        std::vector<Variable*> ins{node.input(0)};
        for (int i = 0; i < info.nSeqs; ++i)
            if (!dropped[i]) ins.push_back(node.input(info.outerInSeqs() + i));
        for (int k = info.outerInMitMot(); k < info.outerInNonSeqs(); ++k) ins.push_back(node.input(k));
        for (int i = info.innerInNonSeqs(); i < info.numInnerInputs(); ++i)
            if (!dropped[i]) ins.push_back(node.input(info.outerInNonSeqs() + (i - info.innerInNonSeqs())));
        Node* fresh = rw.create(makeScan(ni, g, scan.scanName(), scan.inplaceStates(), scan.reuseProvenSafe()), std::move(ins));
        rw.cloned(fresh->id(), node.id());
        rw.attribute(fresh->id(), "removed_inputs", "",
                     std::to_string(m.dropInner.size()) + " unused, " + std::to_string(m.constantInner.size()) +
                         " constant made internal");
        replaceOutputsWith(rw, node, *fresh);
    }
};

} // namespace

const NodeRewrite& scanRemoveUnusedInputs() {
    static const ScanRemoveUnusedInputs r;
    return r;
}

} // namespace tl
