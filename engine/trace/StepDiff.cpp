#include "trace/StepDiff.h"

#include "trace/GraphFacts.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace tl {

namespace {
// "sit_sot-1: the reads need ..." -> "sit_sot-1": rewrites name the state first.
std::string categoryPrefix(const std::string& detail) {
    static const char* kCategories[] = {"seqs-", "mit_mot-", "mit_sot-", "sit_sot-", "nit_sot-", "shared-", "non_seqs-"};
    for (const char* c : kCategories) {
        const std::string cat = c;
        if (detail.compare(0, cat.size(), cat) != 0) continue;
        size_t i = cat.size();
        while (i < detail.size() && std::isdigit(static_cast<unsigned char>(detail[i]))) ++i;
        if (i > cat.size()) return detail.substr(0, i);
    }
    return {};
}
} // namespace

bool StepDiff::isNoOp() const {
    return added.empty() && erased.empty() && opChanged.empty() && rewired.empty() && shapeChanges.empty() &&
           mergedStates.empty() && attributes.empty();
}

bool StepDiff::isAdded(NodeId node) const { return std::find(added.begin(), added.end(), node) != added.end(); }

bool StepDiff::touches(NodeId node) const {
    if (root == node || isAdded(node)) return true;
    for (const NodeSnapshot& s : erased)
        if (s.id == node) return true;
    if (std::find(opChanged.begin(), opChanged.end(), node) != opChanged.end()) return true;
    for (const RewiredEdge& e : rewired)
        if (e.consumer == node || e.producerBefore == node || e.producerAfter == node) return true;
    for (const AttributeChange& a : attributes)
        if (a.node == node) return true;
    return false;
}

StepDiffBuilder::StepDiffBuilder(const TraceStep& traceStep, int step) : m_step(traceStep) {
    m_diff.step = step;
    m_diff.phase = traceStep.phase;
    m_diff.rewrite = traceStep.rewrite;
    m_diff.root = traceStep.root;
    m_diff.attributes = traceStep.attributes;
    m_diff.clonedFrom = traceStep.clonedFrom;
}

void StepDiffBuilder::collectBefore(const Graph& before) {
    auto recordNode = [&](const Node* n) {
        if (!n || m_inputsBefore.count(n->id())) return;
        std::vector<VarId> ids;
        for (const Variable* v : n->inputs()) {
            ids.push_back(v->id());
            m_shapeBefore[v->id()] = Type::shapeString(v->type().shape);
            m_ownerBefore[v->id()] = v->owner() ? v->owner()->id() : -1;
        }
        m_inputsBefore[n->id()] = std::move(ids);
    };
    auto recordOutputs = [&] {
        if (m_outputsTouched) return;
        m_outputsTouched = true;
        for (const Variable* v : before.outputs()) {
            m_outputsBefore.push_back(v->id());
            m_shapeBefore[v->id()] = Type::shapeString(v->type().shape);
            m_ownerBefore[v->id()] = v->owner() ? v->owner()->id() : -1;
        }
    };
    std::set<NodeId> erasedSeen;
    for (const GraphEdit& e : m_step.edits) {
        switch (e.kind) {
        case GraphEdit::Kind::SetInput: recordNode(before.findNode(e.nodeId)); break;
        case GraphEdit::Kind::SetOutput: recordOutputs(); break;
        case GraphEdit::Kind::ReplaceVariable:
            if (const Variable* v = before.findVariable(e.before)) {
                for (const Client& c : v->clients()) {
                    if (c.isGraphOutput()) recordOutputs();
                    else recordNode(c.node);
                }
            }
            break;
        case GraphEdit::Kind::EraseNode:
            if (const Node* n = before.findNode(e.node.id); n && erasedSeen.insert(n->id()).second) {
                m_diff.erased.push_back(snapshotNode(*n));
                if (n->op().kind() == OpKind::Scan) m_buffersBefore[n->id()] = scanBuffers(*n);
            }
            break;
        case GraphEdit::Kind::SetOp:
            if (const Node* n = before.findNode(e.nodeId)) {
                if (n->op().kind() == OpKind::Scan && !m_buffersBefore.count(n->id())) m_buffersBefore[n->id()] = scanBuffers(*n);
                if (e.opBefore && e.opAfter && e.opBefore->name() != e.opAfter->name() &&
                    std::find(m_diff.opChanged.begin(), m_diff.opChanged.end(), e.nodeId) == m_diff.opChanged.end())
                    m_diff.opChanged.push_back(e.nodeId);
            }
            break;
        default: break;
        }
    }
    m_diff.buffersBefore = totalBuffers(before);
}

StepDiff StepDiffBuilder::finish(const Graph& after) {
    StepDiff& d = m_diff;
    // A node created and erased within the step never existed for the user.
    for (NodeId id : m_step.createdNodes())
        if (const Node* n = after.findNode(id); n && !d.isAdded(id)) {
            d.added.push_back(id);
            if (opFamily(n->op()) == OpFamily::Composite) d.fused.push_back(id);
        }
    // A node erased and recreated under the same id (replay edge cases) is not a ghost.
    std::erase_if(d.erased, [&](const NodeSnapshot& s) { return after.findNode(s.id) != nullptr; });
    std::erase_if(d.opChanged, [&](NodeId id) { return after.findNode(id) == nullptr; });

    auto shapeAfter = [&](const Variable* v) { return Type::shapeString(v->type().shape); };
    for (const auto& [id, inputs] : m_inputsBefore) {
        const Node* n = after.findNode(id);
        if (!n) continue;
        for (int i = 0; i < n->numInputs() && i < static_cast<int>(inputs.size()); ++i) {
            const Variable* now = n->input(i);
            if (now->id() == inputs[i]) continue;
            RewiredEdge e;
            e.consumer = id;
            e.index = i;
            e.before = inputs[i];
            e.after = now->id();
            e.producerBefore = m_ownerBefore[inputs[i]];
            e.producerAfter = now->owner() ? now->owner()->id() : -1;
            e.shapeBefore = m_shapeBefore[inputs[i]];
            e.shapeAfter = shapeAfter(now);
            d.rewired.push_back(std::move(e));
        }
    }
    if (m_outputsTouched) {
        for (size_t i = 0; i < after.outputs().size() && i < m_outputsBefore.size(); ++i) {
            const Variable* now = after.outputs()[i];
            if (now->id() == m_outputsBefore[i]) continue;
            RewiredEdge e;
            e.consumer = -1;
            e.index = static_cast<int>(i);
            e.before = m_outputsBefore[i];
            e.after = now->id();
            e.producerBefore = m_ownerBefore[e.before];
            e.producerAfter = now->owner() ? now->owner()->id() : -1;
            e.shapeBefore = m_shapeBefore[e.before];
            e.shapeAfter = shapeAfter(now);
            d.rewired.push_back(std::move(e));
        }
    }

    // Badges recorded by the rewrite itself carry the rule that sized the buffer.
    for (const AttributeChange& a : d.attributes) {
        if (a.key == "buffer_shape") {
            ShapeBadge b;
            b.node = a.node;
            b.before = a.before;
            b.after = a.after;
            b.detail = a.detail;
            b.label = categoryPrefix(a.detail);
            d.shapeChanges.push_back(std::move(b));
        } else if (a.key == "merged_state") {
            MergedState m;
            m.scan = a.node;
            if (a.after.find("merged") != std::string::npos) m.text = a.after;
            else if (!a.before.empty()) m.text = a.before + " merged into " + a.after;
            else m.text = a.after;
            m.detail = a.detail;
            d.mergedStates.push_back(std::move(m));
        } else if (a.key == "fused" && a.node >= 0 && after.findNode(a.node) &&
                   std::find(d.fused.begin(), d.fused.end(), a.node) == d.fused.end()) {
            d.fused.push_back(a.node);
        }
    }
    // The same buffer seen by the recorded attribute, by a rewired edge and by a
    // rebuilt Scan is one badge; it sits on the node that reads the buffer now.
    auto addBadge = [&](ShapeBadge nb) {
        auto stale = [&](const ShapeBadge& b) { return b.node < 0 || !after.findNode(b.node); };
        ShapeBadge* target = nullptr;
        for (ShapeBadge& b : d.shapeChanges) {
            if (b.before != nb.before || b.after != nb.after) continue;
            if (!nb.label.empty() && b.label == nb.label) {
                target = &b;
                break;
            }
            // Two states of one Scan may shrink alike: never fold sit_sot-1 into sit_sot-0.
            if (!target && (b.label.empty() || nb.label.empty()) && (b.node == nb.node || stale(b))) target = &b;
        }
        if (!target) {
            d.shapeChanges.push_back(std::move(nb));
            return;
        }
        target->node = nb.node;
        if (nb.input >= 0) target->input = nb.input;
        if (target->label.empty()) target->label = nb.label;
        if (target->detail.empty()) target->detail = nb.detail;
    };
    for (const RewiredEdge& e : d.rewired) {
        if (e.consumer < 0 || e.shapeBefore == e.shapeAfter) continue;
        ShapeBadge b;
        b.node = e.consumer;
        b.input = e.index;
        if (const Node* n = after.findNode(e.consumer))
            if (auto info = scanInfoOf(n->op())) b.label = scanOuterInputLabel(*info, e.index);
        b.before = e.shapeBefore;
        b.after = e.shapeAfter;
        addBadge(std::move(b));
    }
    // A Scan rebuilt with smaller buffers (scan_save_mem) is a new node: pair it
    // with the Scan it replaced (clone source, rewired readers, or the only
    // candidate) and compare buffers by category label.
    std::vector<NodeId> erasedScans;
    for (const auto& [id, rows] : m_buffersBefore)
        if (!after.findNode(id)) erasedScans.push_back(id);
    std::vector<NodeId> newScans;
    for (NodeId id : d.added)
        if (after.findNode(id)->op().kind() == OpKind::Scan) newScans.push_back(id);
    auto predecessorOf = [&](NodeId added) -> std::optional<NodeId> {
        if (auto it = d.clonedFrom.find(added); it != d.clonedFrom.end() && m_buffersBefore.count(it->second)) return it->second;
        for (const RewiredEdge& e : d.rewired)
            if (e.producerAfter == added && m_buffersBefore.count(e.producerBefore) && !after.findNode(e.producerBefore))
                return e.producerBefore;
        if (newScans.size() == 1 && erasedScans.size() == 1) return erasedScans.front();
        return std::nullopt;
    };
    auto compareBuffers = [&](NodeId now, NodeId was) {
        const Node* n = after.findNode(now);
        if (!n) return;
        for (const BufferRow& r : scanBuffers(*n))
            for (const BufferRow& old : m_buffersBefore[was])
                if (old.label == r.label && old.shape != r.shape) {
                    ShapeBadge b;
                    b.node = now;
                    b.input = r.outerInput;
                    b.label = r.label;
                    b.before = old.shape;
                    b.after = r.shape;
                    addBadge(std::move(b));
                }
    };
    for (NodeId id : newScans)
        if (auto was = predecessorOf(id)) {
            compareBuffers(id, *was);
            d.replacedBy.try_emplace(*was, id);
        }
    for (const auto& [id, rows] : m_buffersBefore)
        if (after.findNode(id)) compareBuffers(id, id);
    // Replacements: clones first, then new producers of the same op kind readers switched to.
    std::map<NodeId, const NodeSnapshot*> erasedById;
    for (const NodeSnapshot& s : d.erased) erasedById[s.id] = &s;
    for (const auto& [now, was] : d.clonedFrom)
        if (erasedById.count(was) && d.isAdded(now)) d.replacedBy.try_emplace(was, now);
    std::set<NodeId> taken;
    for (const auto& [was, now] : d.replacedBy) taken.insert(now);
    for (const RewiredEdge& e : d.rewired) {
        auto it = erasedById.find(e.producerBefore);
        if (it == erasedById.end() || d.replacedBy.count(e.producerBefore) || !d.isAdded(e.producerAfter) || taken.count(e.producerAfter)) continue;
        const Node* n = after.findNode(e.producerAfter);
        if (!n || !it->second->op || it->second->op->kind() != n->op().kind()) continue;
        d.replacedBy[e.producerBefore] = e.producerAfter;
        taken.insert(e.producerAfter);
    }
    d.buffersAfter = totalBuffers(after);
    return std::move(m_diff);
}

StepDiff computeStepDiff(const TraceStep& traceStep, int step, const Graph& before, const Graph& after) {
    StepDiffBuilder b(traceStep, step);
    b.collectBefore(before);
    return b.finish(after);
}

} // namespace tl
