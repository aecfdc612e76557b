// The text of a variable's line of the dprint listing after its tree drawing,
// as PyTensor's _debugprint writes it: `name [id X] <type> shape=... 'name' d=...
// v=... (tag)`; and the names it shows.
#include "io/DPrintPrinter.h"

#include "io/DPrintVocab.h"
#include "io/NumpyFormat.h"
#include "analysis/PyTensorOrder.h"
#include "ir/SliceValue.h"
#include "ops/ScanOp.h"

#include <span>

namespace tl::dprint_detail {

using namespace debugprint;

std::string Printer::rest(size_t slot) {
    const Deferred& d = m_deferred[slot];
    const Variable* var = d.var;
    const Context* ctx = d.ctx;
    std::string typeStr = m_opt.printType ? " <" + var->type().toString() + ">" : std::string();
    std::string shapeStr = m_opt.printShape ? " shape=" + Type::shapeString(var->type().shape) : std::string();
    if (!d.node) {
        std::string text = leafText(var, ctx) + " " + m_ids.at(d.key) + typeStr + shapeStr;
        if (auto outer = ctx->innerToOuter.find(var); outer != ctx->innerToOuter.end()) {
            const Variable* ov = outer->second;
            text += std::string(kInnerToOuter) + m_ids.at(ov->owner() ? static_cast<const void*>(ov->owner()) : ov);
        }
        const Node* candidates[2] = {ctx->innerGraphNode, d.parent};
        for (int k = 0; k < 2; ++k) {
            if (!candidates[k] || (k == 1 && candidates[1] == candidates[0])) continue;
            if (const TagMap* tags = tagsOf(candidates[k])) {
                auto it = tags->find(var);
                if (it != tags->end()) text += " (" + it->second + ")";
            }
        }
        return text;
    }
    const Node& node = *d.node;
    std::string name = displayName(var, ctx);
    std::string nameStr = name.empty() ? std::string() : " '" + name + "'";
    std::string mapsStr;
    if (m_opt.printDestroyMap) {
        AliasMap dm = node.op().destroyMap();
        if (!dm.empty()) mapsStr += " d=" + aliasMapText(dm);
    }
    if (m_opt.printViewMap) {
        AliasMap vm = node.op().viewMap();
        if (!vm.empty()) mapsStr += " v=" + aliasMapText(vm);
    }
    const std::string& id = m_ids.at(&node);
    if (d.header) return node.op().name() + " " + id + mapsStr;
    std::string topoStr;
    if (ctx->topo)
        if (auto it = ctx->topo->find(&node); it != ctx->topo->end()) topoStr = " " + std::to_string(it->second);
    std::string outIdx = node.numOutputs() == 1 ? std::string() : "." + std::to_string(var->outputIndex());
    std::string text = node.op().name() + outIdx + " " + id + typeStr + shapeStr + nameStr + mapsStr + topoStr;
    const TagMap* tags = tagsOf(d.parent);
    if (!tags) tags = tagsOf(&node);
    if (tags)
        if (auto it = tags->find(var); it != tags->end()) text += " (" + it->second + ")";
    return text;
}

std::string Printer::leafText(const Variable* v, const Context* ctx) const {
    if (v->isConstant() && v->type().isSliceType()) {
        // PyTensor's SliceConstant.__str__, whatever its name.
        auto b = readSliceValue(v->constantValue());
        return "SliceConstant{" + (b ? sliceBoundsText(*b) : std::string("?")) + "}";
    }
    if (v->isConstant() && v->type().isNoneType()) return v->name().empty() ? "None" : v->name() + "{None}";
    if (v->isConstant()) return constantStr(v->constantValue(), v->name());
    std::string name = displayName(v, ctx);
    std::string shown = name.empty() ? "<" + v->type().toString() + ">" : name;
    auto nom = ctx->names->nominal.find(v);
    if (nom != ctx->names->nominal.end()) return "*" + std::to_string(nom->second) + "-" + shown;
    return shown;
}

std::string Printer::displayName(const Variable* v, const Context* ctx) const {
    auto it = ctx->names->names.find(v);
    return it != ctx->names->names.end() ? it->second : v->name();
}

const TagMap* Printer::tagsOf(const Node* n) {
    if (!m_opt.printOpInfo || !n) return nullptr;
    const ScanOp* scan = asScan(n);
    if (!scan) return nullptr;
    auto it = m_tags.find(n);
    if (it == m_tags.end()) {
        TagMap m;
        {
            ScanTags t = scanTags(scan->info());
            auto assign = [&](const std::vector<std::string>& tags, std::span<Variable* const> vars) {
                // In position order, so a variable at two positions keeps the later tag.
                for (size_t k = 0; k < tags.size() && k < vars.size(); ++k)
                    if (!tags[k].empty()) m[vars[k]] = tags[k];
            };
            assign(t.outerInputs, n->inputs());
            assign(t.outerOutputs, n->outputs());
            if (auto inner = n->op().innerGraph()) {
                assign(t.innerInputs, inner->inputs());
                assign(t.innerOutputs, inner->outputs());
            }
        }
        it = m_tags.emplace(n, std::move(m)).first;
    }
    return it->second.empty() ? nullptr : &it->second;
}

} // namespace tl::dprint_detail
