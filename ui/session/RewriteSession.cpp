#include "session/RewriteSession.h"

#include "trace/TraceReplayer.h"

#include <algorithm>
#include <stdexcept>

namespace tl {

std::string ProvenanceLink::text() const {
    if (step == 0) return "node " + std::to_string(node) + (op.empty() ? "" : " (" + op + ")") + " is in the original graph";
    std::string s = "node " + std::to_string(node) + " created by step " + std::to_string(step) + " " + rewrite;
    if (from) s += " from node " + std::to_string(*from);
    else if (root && *root != node) s += " at node " + std::to_string(*root);
    if (!phase.empty()) s += " [" + phase + "]";
    return s;
}

RewriteSession::RewriteSession(QObject* parent) : QObject(parent) {}
RewriteSession::~RewriteSession() { waitForReaders(); }

void RewriteSession::addCurrentGraphReader(QFuture<void> reader) { m_readers.push_back(std::move(reader)); }

void RewriteSession::waitForReaders() {
    for (QFuture<void>& r : m_readers) r.waitForFinished();
    m_readers.clear();
}

void RewriteSession::openGraph(std::unique_ptr<Graph> graph, const QString& source) {
    if (!graph) throw std::invalid_argument("no graph to open");
    openTrace(std::make_unique<Trace>(std::move(graph)), source);
}

void RewriteSession::openTrace(std::unique_ptr<Trace> trace, const QString& source) {
    if (!trace || !trace->hasOriginal()) throw std::invalid_argument("the trace has no original graph");
    waitForReaders();
    // Replayers hold a reference to the trace: drop them before it goes.
    m_view.reset();
    m_scratch.reset();
    m_diffs.clear();
    m_changes.clear();
    m_compareBase = -1;
    m_comparedFor = -1;
    m_comparedDiff.reset();
    m_trace = std::move(trace);
    ++m_openCount;
    m_view = std::make_unique<TraceReplayer>(*m_trace);
    m_scratch = std::make_unique<TraceReplayer>(*m_trace);
    m_source = source;
    m_current = 0;
    m_selection.clear();
    m_selectedRefs.clear();
    buildIndexes();
    emit opened();
}

void RewriteSession::buildIndexes() {
    m_createdAt.clear();
    m_touching.clear();
    m_constants.clear();
    for (const Variable* c : m_trace->original().constants()) m_constants.emplace(c->id(), c->constantValue());
    const auto& steps = m_trace->steps();
    for (size_t i = 0; i < steps.size(); ++i) {
        const int k = static_cast<int>(i) + 1;
        const TraceStep& s = steps[i];
        auto touch = [&](NodeId id) {
            if (id < 0) return;
            auto& v = m_touching[id];
            if (v.empty() || v.back() != k) v.push_back(k);
        };
        if (s.root) touch(*s.root);
        for (const GraphEdit& e : s.edits) {
            switch (e.kind) {
            case GraphEdit::Kind::CreateNode:
                m_createdAt.emplace(e.node.id, k);  // ids are never reused: first creation wins
                touch(e.node.id);
                break;
            case GraphEdit::Kind::EraseNode: touch(e.node.id); break;
            case GraphEdit::Kind::SetInput:
            case GraphEdit::Kind::SetOp: touch(e.nodeId); break;
            case GraphEdit::Kind::AddConstant: m_constants.emplace(e.constant.id, e.constant.value); break;
            default: break;
            }
        }
        for (const AttributeChange& a : s.attributes) touch(a.node);
        for (const auto& [created, source] : s.clonedFrom) {
            touch(created);
            touch(source);
        }
    }
}

const std::vector<TraceStep>& RewriteSession::steps() const {
    static const std::vector<TraceStep> kNone;
    return m_trace ? m_trace->steps() : kNone;
}

std::vector<PhaseGroup> RewriteSession::phases() const {
    std::vector<PhaseGroup> groups;
    const auto& s = steps();
    for (size_t i = 0; i < s.size(); ++i) {
        if (groups.empty() || groups.back().phase != s[i].phase) groups.push_back({s[i].phase, {}});
        groups.back().steps.push_back(static_cast<int>(i) + 1);
    }
    return groups;
}

const NDArray* RewriteSession::constantValue(VarId v) const {
    auto it = m_constants.find(v);
    return it == m_constants.end() ? nullptr : &it->second;
}

bool RewriteSession::isNoOpStep(int k) const {
    return stepChangesNothing(step(k), [this](VarId v) { return constantValue(v); });
}

const std::vector<int>& RewriteSession::stepsTouching(NodeId node) const {
    static const std::vector<int> kNone;
    auto it = m_touching.find(node);
    return it == m_touching.end() ? kNone : it->second;
}

bool RewriteSession::stepTouches(int k, const std::set<NodeId>& nodes) const {
    for (NodeId n : nodes) {
        const auto& v = stepsTouching(n);
        if (std::binary_search(v.begin(), v.end(), k)) return true;
    }
    return false;
}

void RewriteSession::setCurrentStep(int k) {
    if (!m_trace) return;
    k = std::clamp(k, 0, stepCount());
    if (k == m_current) return;
    waitForReaders();
    const int previous = m_current;
    m_current = k;
    emit currentStepStarting(m_current);
    emit currentStepChanged(m_current, previous);
}

const Graph& RewriteSession::currentGraph() {
    if (!m_trace) throw std::logic_error("no graph is open");
    return m_view->graphAt(m_current);
}

const StepDiff* RewriteSession::currentDiff() { return m_current > 0 ? &diff(m_current) : nullptr; }

const Graph& RewriteSession::graphAt(int k) {
    if (!m_trace) throw std::logic_error("no graph is open");
    return m_scratch->graphAt(std::clamp(k, 0, stepCount()));
}

std::unique_ptr<Graph> RewriteSession::cloneGraphAt(int k) { return graphAt(k).clone(); }

const StepDiff& RewriteSession::diff(int k) {
    if (k < 1 || k > stepCount()) throw std::out_of_range("step " + std::to_string(k) + " is not in 1.." + std::to_string(stepCount()));
    if (auto it = m_diffs.find(k); it != m_diffs.end()) return it->second;
    // Both graphs are needed but one replayer holds one graph: collect what the
    // "before" side contributes, then step forward once (cheap) and finish.
    StepDiffBuilder builder(step(k), k);
    builder.collectBefore(m_scratch->graphAt(k - 1));
    const Graph& after = m_scratch->graphAt(k);
    const StepDiff& d = m_diffs.emplace(k, builder.finish(after)).first->second;
    StepChanges c;
    c.inner = innerGraphDiffs(step(k), d, after);
    c.sameNameOpChanged = sameNameOpChanges(step(k), d, after);
    m_changes[k] = std::move(c);
    return d;
}

const StepChanges& RewriteSession::changes(int k) {
    diff(k);
    return m_changes.at(k);
}

void RewriteSession::setComparisonBase(int base) {
    if (!m_trace) return;
    if (base >= 0) base = std::clamp(base, 0, stepCount());
    else base = -1;
    if (base == m_compareBase) return;
    m_compareBase = base;
    m_comparedFor = -1;
    m_comparedDiff.reset();
    emit comparisonChanged();
}

const StepDiff* RewriteSession::shownDiff() {
    if (!m_trace) return nullptr;
    if (m_compareBase < 0 || m_compareBase == m_current - 1) return currentDiff();
    if (m_compareBase == m_current) return nullptr;
    if (m_comparedFor == m_current && m_comparedDiff) return &*m_comparedDiff;
    // The steps between the two positions as one: their edits in order (or undone
    // in reverse when the base is later), so the diff machinery of one step serves.
    const int lo = std::min(m_compareBase, m_current), hi = std::max(m_compareBase, m_current);
    TraceStep joined;
    joined.rewrite = "steps " + std::to_string(lo + 1) + "\u2013" + std::to_string(hi);
    if (m_compareBase < m_current) {
        for (int k = lo + 1; k <= hi; ++k) {
            const TraceStep& s = step(k);
            joined.edits.insert(joined.edits.end(), s.edits.begin(), s.edits.end());
            joined.attributes.insert(joined.attributes.end(), s.attributes.begin(), s.attributes.end());
            for (const auto& [now, was] : s.clonedFrom) joined.clonedFrom.try_emplace(now, was);
        }
    } else {
        // Backwards: every edit inverted, last first.
        for (int k = hi; k > lo; --k) {
            const TraceStep& s = step(k);
            for (auto it = s.edits.rbegin(); it != s.edits.rend(); ++it) {
                GraphEdit e = *it;
                switch (e.kind) {
                case GraphEdit::Kind::CreateNode: e.kind = GraphEdit::Kind::EraseNode; break;
                case GraphEdit::Kind::EraseNode: e.kind = GraphEdit::Kind::CreateNode; break;
                case GraphEdit::Kind::AddConstant: e.kind = GraphEdit::Kind::EraseConstant; break;
                case GraphEdit::Kind::EraseConstant: e.kind = GraphEdit::Kind::AddConstant; break;
                case GraphEdit::Kind::SetOp: std::swap(e.opBefore, e.opAfter); break;
                default: std::swap(e.before, e.after); break;
                }
                joined.edits.push_back(std::move(e));
            }
            for (const AttributeChange& a : s.attributes) {
                AttributeChange r = a;
                std::swap(r.before, r.after);
                joined.attributes.push_back(std::move(r));
            }
        }
    }
    m_comparedStep = std::move(joined);
    StepDiffBuilder builder(m_comparedStep, m_current);
    builder.collectBefore(m_scratch->graphAt(m_compareBase));
    const Graph& after = m_scratch->graphAt(m_current);
    m_comparedDiff = builder.finish(after);
    m_comparedDiff->rewrite = m_comparedStep.rewrite;
    m_comparedChanges.inner = innerGraphDiffs(m_comparedStep, *m_comparedDiff, after);
    m_comparedChanges.sameNameOpChanged = sameNameOpChanges(m_comparedStep, *m_comparedDiff, after);
    m_comparedFor = m_current;
    return &*m_comparedDiff;
}

const StepChanges* RewriteSession::shownChanges() {
    const StepDiff* d = shownDiff();
    if (!d) return nullptr;
    if (m_comparedDiff && d == &*m_comparedDiff) return &m_comparedChanges;
    return &changes(m_current);
}

std::vector<ProvenanceLink> RewriteSession::provenance(NodeId node) const {
    std::vector<ProvenanceLink> links;
    if (!m_trace) return links;
    std::set<NodeId> seen;
    NodeId cur = node;
    while (seen.insert(cur).second) {
        ProvenanceLink link;
        link.node = cur;
        auto it = m_createdAt.find(cur);
        if (it == m_createdAt.end()) {
            if (const Node* n = m_trace->original().findNode(cur)) link.op = n->op().name();
            links.push_back(std::move(link));
            break;
        }
        const TraceStep& s = step(it->second);
        link.step = it->second;
        link.rewrite = s.rewrite;
        link.phase = s.phase;
        link.root = s.root;
        for (const GraphEdit& e : s.edits)
            if (e.kind == GraphEdit::Kind::CreateNode && e.node.id == cur && e.node.op) {
                link.op = e.node.op->name();
                break;
            }
        if (auto c = s.clonedFrom.find(cur); c != s.clonedFrom.end()) link.from = c->second;
        const std::optional<NodeId> from = link.from;
        links.push_back(std::move(link));
        if (!from) break;
        cur = *from;
    }
    return links;
}

std::string RewriteSession::provenanceText(NodeId node) const {
    std::string out;
    for (const ProvenanceLink& l : provenance(node)) {
        if (!out.empty()) out += "\n";
        out += l.text();
    }
    return out;
}

std::vector<ExplainEntry> RewriteSession::explain(NodeId node) const {
    std::vector<ExplainEntry> out;
    if (!m_trace) return out;
    for (const auto& [position, failures] : m_trace->failures())
        for (const MatchFailure& f : failures)
            if (f.node == node) out.push_back({position, f.rewrite, f.reason});
    return out;
}

void RewriteSession::setSelection(std::vector<NodeId> nodes) { setSelectedRefs(outerRefs(nodes)); }

void RewriteSession::setSelectedRefs(std::vector<NodeRef> refs) {
    if (refs == m_selectedRefs) return;
    m_selectedRefs = std::move(refs);
    m_selection.clear();
    for (const NodeRef& r : m_selectedRefs)
        if (r.isOuter()) m_selection.push_back(r.leaf());
    emit selectionChanged();
}

} // namespace tl
