#include "widgets/InspectorPane.h"

#include "trace/GraphFacts.h"

#include <algorithm>

#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace tl {

namespace {
QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

// A recorded value cut to a readable length: fusing a 3,000-op chain records 3,000 ids.
// A recorded sentence as the reader should see it: no dangling separator where the
// rewrite's text was cut (`exact: init_l + 1 rows,`).
QString tidy(const std::string& s) {
    QString q = QString::fromStdString(s).trimmed();
    while (!q.isEmpty() && (q.endsWith(',') || q.endsWith(';') || q.endsWith(':'))) q = q.left(q.size() - 1).trimmed();
    return q.toHtmlEscaped();
}

QString escShort(const std::string& s) {
    constexpr qsizetype kMax = 160;
    const QString q = QString::fromStdString(s);
    if (q.size() <= kMax) return q.toHtmlEscaped();
    return q.left(kMax).toHtmlEscaped() + QString(" \u2026 (%1 characters)").arg(q.size());
}

QString aliasText(const AliasMap& m) {
    if (m.empty()) return "{}";
    QStringList parts;
    for (const auto& [out, ins] : m) {
        QStringList in;
        for (int i : ins) in << QString::number(i);
        parts << QString("%1: [%2]").arg(out).arg(in.join(", "));
    }
    return "{" + parts.join(", ") + "}";
}

QString varText(const Variable* v) {
    QString s = QString("v%1").arg(v->id());
    if (!v->name().empty()) s += " '" + esc(v->name()) + "'";
    if (v->isConstant()) s += " (constant)";
    else if (v->isGraphInput()) s += " (input)";
    return s;
}

const char* kStyle =
    "<style>body{font-size:10pt} h3{margin:2px 0 4px 0} h4{margin:10px 0 2px 0;color:#444}"
    "table{border-collapse:collapse} td,th{padding:1px 8px 1px 0;text-align:left;vertical-align:top}"
    "th{color:#555;font-weight:normal} .mono{font-family:monospace} .dim{color:#777}"
    ".add{color:#1a9e3f} .badge{color:#c01c28;font-weight:bold} .merge{color:#7b3fb3;font-weight:bold}</style>";
} // namespace

InspectorPane::InspectorPane(RewriteSession* session, QWidget* parent) : QWidget(parent), m_session(session) {
    m_browser = new QTextBrowser(this);
    m_browser->setObjectName("inspectorText");
    m_browser->setOpenLinks(false);
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(m_browser);
    connect(m_browser, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == "step") emit jumpToStep(url.path().toInt());
        // node:17 is outer node 17, node:4/2 node 2 of the body of node 4.
        if (url.scheme() == "node")
            if (auto ref = NodeRef::fromKey("n" + url.path().replace("/", "/n").toStdString())) m_session->setSelectedRefs({*ref});
    });
    connect(m_session, &RewriteSession::opened, this, &InspectorPane::refresh);
    connect(m_session, &RewriteSession::currentStepChanged, this, &InspectorPane::refresh);
    connect(m_session, &RewriteSession::selectionChanged, this, &InspectorPane::refresh);
}

QString InspectorPane::html() const { return m_browser->toHtml(); }

void InspectorPane::refresh() {
    if (!m_session->isOpen()) {
        m_browser->setHtml("<p class=dim>Open a graph or trace (File \u2192 Open, or an example).</p>");
        return;
    }
    const auto& sel = m_session->selectedRefs();
    QString html = kStyle;
    html += sel.empty() ? stepHtml() : (sel.front().isOuter() ? nodeHtml(sel.front()) : bodyNodeHtml(sel.front()));
    if (sel.size() > 1) html += QString("<p class=dim>%1 nodes selected; showing the first.</p>").arg(sel.size());
    m_browser->setHtml(html);
}

QString InspectorPane::stepHtml() {
    const Graph& g = m_session->currentGraph();
    QString h;
    const int k = m_session->currentStep();
    if (k == 0) h += "<h3>Original graph</h3>";
    else {
        const TraceStep& s = m_session->step(k);
        h += QString("<h3>Step %1: %2</h3><p>phase <b>%3</b>").arg(k).arg(esc(s.rewrite), esc(s.phase));
        if (s.root) h += QString(", at <a href='node:%1'>node %1</a>").arg(*s.root);
        h += QString(", %1 ms</p>").arg(s.seconds * 1000, 0, 'f', 2);
        const StepDiff& d = m_session->diff(k);
        h += "<table>";
        h += QString("<tr><th>added</th><td class=add>%1</td></tr>").arg(d.added.size());
        h += QString("<tr><th>erased</th><td>%1</td></tr>").arg(d.erased.size());
        h += QString("<tr><th>rewired</th><td>%1</td></tr>").arg(d.rewired.size());
        h += QString("<tr><th>buffers</th><td>%1 \u2192 %2</td></tr>")
                 .arg(esc(formatBufferTotal(d.buffersBefore)), esc(formatBufferTotal(d.buffersAfter)));
        h += "</table>";
        for (const ShapeBadge& b : d.shapeChanges)
            h += QString("<p><span class=badge>%1%2</span> on <a href='node:%3'>node %3</a><br><span class=dim>%4</span></p>")
                     .arg(b.label.empty() ? QString() : esc(b.label) + ": ", esc(b.text()))
                     .arg(b.node)
                     .arg(tidy(b.detail));
        for (const MergedState& m : d.mergedStates)
            h += QString("<p><span class=merge>%1</span><br><span class=dim>%2</span></p>").arg(esc(m.text), tidy(m.detail));
        for (const InnerGraphDiff& body : m_session->changes(k).inner) {
            QStringList parts;
            if (!body.added.empty()) parts << QString("<span class=add>%1 added</span>").arg(body.added.size());
            if (!body.erased.empty()) parts << QString("%1 erased").arg(body.erased.size());
            if (!body.rewired.empty()) parts << QString("%1 rewired").arg(body.rewired.size());
            if (!body.opChanged.empty()) parts << QString("%1 changed op").arg(body.opChanged.size());
            QString owner = QString::fromStdString(body.owner.label()).toHtmlEscaped();
            QString path = QString::fromStdString(body.owner.key()).remove('n');
            h += QString("<p>body of <a href='node:%1'>%2</a> (%3 \u2192 %4 nodes): %5</p>")
                     .arg(path, owner)
                     .arg(body.nodesBefore)
                     .arg(body.nodesAfter)
                     .arg(parts.isEmpty() ? QString("changed") : parts.join(", "));
        }
        if (!s.attributes.empty()) {
            h += "<h4>Recorded facts</h4><table>";
            for (const AttributeChange& a : s.attributes)
                h += QString("<tr><td><a href='node:%1'>node %1</a></td><td>%2</td><td class=mono>%3 \u2192 %4</td><td class=dim>%5</td></tr>")
                         .arg(a.node)
                         .arg(esc(a.key), escShort(a.before), escShort(a.after), tidy(a.detail));
            h += "</table>";
        }
    }
    h += "<h4>Graph</h4><table>";
    h += QString("<tr><th>nodes</th><td>%1</td></tr>").arg(g.numNodes());
    h += QString("<tr><th>inputs</th><td>%1</td></tr>").arg(g.inputs().size());
    h += QString("<tr><th>outputs</th><td>%1</td></tr>").arg(g.outputs().size());
    h += QString("<tr><th>scan buffers</th><td>%1</td></tr>").arg(esc(formatBufferTotal(totalBuffers(g))));
    h += "</table><p class=dim>Select a node for its details.</p>";
    return h;
}

QString InspectorPane::nodeHtml(const NodeRef& ref) {
    const NodeId id = ref.leaf();
    const Graph& g = m_session->currentGraph();
    const Node* n = g.findNode(id);
    QString h;
    if (!n) {
        h += QString("<h3>Node %1</h3><p class=dim>Not in the graph at this step.</p>").arg(id);
        bool here = false;
        if (const StepDiff* d = m_session->currentDiff())
            for (const NodeSnapshot& s : d->erased)
                if (s.id == id) {
                    h += QString("<p>Erased by this step (%1).</p>").arg(esc(d->rewrite));
                    here = true;
                }
        // Where it lives: the steps that made and erased it.
        const auto& touching = m_session->stepsTouching(id);
        if (!here && !touching.empty()) {
            const int k = m_session->currentStep();
            if (touching.front() > k) h += QString("<p>Created later, by <a href='step:%1'>step %1</a>.</p>").arg(touching.front());
            else h += QString("<p>Gone since <a href='step:%1'>step %1</a> (%2).</p>").arg(touching.back()).arg(esc(m_session->step(touching.back()).rewrite));
        }
    } else {
        const Op& op = n->op();
        h += QString("<h3 class=mono>%1</h3>").arg(esc(op.name()));
        h += QString("<p>node %1 \u00b7 %2 \u00b7 %3</p>").arg(id).arg(esc(std::string(opKindName(op.kind()))), opFamilyName(opFamily(op)));
        if (const StepDiff* d = m_session->currentDiff(); d && d->isAdded(id)) h += "<p class=add>Added by this step.</p>";
        h += "<h4>Inputs</h4><table><tr><th>#</th><th>variable</th><th>type</th><th>from</th></tr>";
        for (int i = 0; i < n->numInputs(); ++i) {
            const Variable* v = n->input(i);
            QString from = v->owner() ? QString("<a href='node:%1'>%2 #%1</a>").arg(v->owner()->id()).arg(esc(v->owner()->op().name()).left(40)) : "";
            h += QString("<tr><td>%1</td><td>%2</td><td class=mono>%3</td><td>%4</td></tr>")
                     .arg(i)
                     .arg(varText(v), esc(v->type().toString()), from);
        }
        h += "</table><h4>Outputs</h4><table><tr><th>#</th><th>variable</th><th>type</th><th>bytes</th><th>clients</th></tr>";
        for (int j = 0; j < n->numOutputs(); ++j) {
            const Variable* v = n->output(j);
            h += QString("<tr><td>%1</td><td>%2</td><td class=mono>%3</td><td>%4</td><td>%5</td></tr>")
                     .arg(j)
                     .arg(varText(v), esc(v->type().toString()), esc(formatBytes(typeBytes(v->type()))))
                     .arg(v->clients().size());
        }
        h += "</table>";
        h += QString("<p>destroy_map <span class=mono>%1</span> \u00b7 view_map <span class=mono>%2</span></p>")
                 .arg(aliasText(op.destroyMap()), aliasText(op.viewMap()));
        if (auto info = scanInfoOf(op)) {
            h += "<h4>Scan inputs</h4><table>";
            for (const ScanLink& l : scanInputLinks(*info)) {
                QString inner = l.inner >= 0 ? QString("inner *%1").arg(l.inner) : QString("\u2014");
                const QString type = l.outer < n->numInputs() ? esc(n->input(l.outer)->type().toString()) : QString();
                h += QString("<tr><td>%1</td><td>outer %2</td><td>%3</td><td class=mono>%4</td></tr>").arg(esc(l.label)).arg(l.outer).arg(inner, type);
            }
            h += "</table><h4>Scan outputs</h4><table>";
            for (const ScanLink& l : scanOutputLinks(*info))
                h += QString("<tr><td>%1</td><td>inner out %2</td><td>%3</td></tr>")
                         .arg(esc(l.label))
                         .arg(l.inner)
                         .arg(l.outer >= 0 ? QString("outer %1").arg(l.outer) : QString("\u2014"));
            h += "</table><h4>Buffers</h4><table><tr><th>state</th><th>shape</th><th>rows</th><th>bytes</th></tr>";
            BufferTotal total;
            for (const BufferRow& r : scanBuffers(*n)) {
                h += QString("<tr><td>%1</td><td class=mono>%2</td><td>%3</td><td>%4</td></tr>")
                         .arg(esc(r.label), esc(r.shape))
                         .arg(r.rows < 0 ? QString("?") : QString::number(r.rows))
                         .arg(esc(formatBytes(r.bytes)));
                total.add(r);
            }
            h += QString("<tr><th>total</th><td></td><td></td><td><b>%1</b></td></tr></table>").arg(esc(formatBufferTotal(total)));
            if (auto body = op.innerGraph()) h += QString("<p>body: %1 nodes (click one on the canvas or in the dprint text to inspect it)</p>").arg(body->numNodes());
        } else if (auto body = op.innerGraph()) {
            h += QString("<p>inner graph: %1 nodes (double-click the node to show it)</p>").arg(body->numNodes());
        }
    }
    h += "<h4>Provenance</h4><ul>";
    for (const ProvenanceLink& l : m_session->provenance(id)) {
        QString t = esc(l.text());
        if (l.step > 0) t.replace(QString("step %1").arg(l.step), QString("<a href='step:%1'>step %1</a>").arg(l.step));
        h += "<li>" + t + "</li>";
    }
    h += "</ul>";
    const auto explain = m_session->explain(id);
    if (!explain.empty()) {
        // One row per rewrite and reason: the graph it looked at is the one after
        // the steps listed (a failure is recorded between steps, not in one).
        struct Row {
            std::string rewrite, reason;
            std::vector<int> positions;
        };
        std::vector<Row> rows;
        for (const ExplainEntry& e : explain) {
            auto it = std::find_if(rows.begin(), rows.end(), [&](const Row& r) { return r.rewrite == e.rewrite && r.reason == e.reason; });
            if (it == rows.end()) rows.push_back({e.rewrite, e.reason, {e.position}});
            else if (std::find(it->positions.begin(), it->positions.end(), e.position) == it->positions.end()) it->positions.push_back(e.position);
        }
        h += "<h4>Rewrites tried here that did not fire</h4><table>";
        for (const Row& r : rows) {
            QStringList where;
            for (int p : r.positions)
                where << (p == 0 ? QString("<a href='step:0'>on the original graph</a>") : QString("<a href='step:%1'>after step %1</a>").arg(p));
            h += QString("<tr><td class=mono>%1</td><td>%2</td><td class=dim>%3</td></tr>").arg(esc(r.rewrite), tidy(r.reason), where.join(", "));
        }
        h += "</table>";
    } else if (m_session->stepCount() > 0) {
        h += "<p class=dim>No failed matches recorded here (record the trace with --explain to see them).</p>";
    }
    const auto& touching = m_session->stepsTouching(id);
    if (!touching.empty()) {
        h += "<h4>Steps touching this node</h4><p>";
        QStringList links;
        for (int k : touching) links << QString("<a href='step:%1'>%1 %2</a>").arg(k).arg(esc(m_session->step(k).rewrite));
        h += links.join(", ") + "</p>";
    }
    return h;
}

QString InspectorPane::bodyNodeHtml(const NodeRef& ref) {
    const Graph& g = m_session->currentGraph();
    const Node* n = resolveNode(g, ref);
    const Node* owner = resolveNode(g, ref.parent());
    const QString path = QString::fromStdString(ref.parent().key()).remove('n');
    QString h;
    const QString where = owner ? QString("in the body of <a href='node:%1'>%2 %3</a>").arg(path, esc(owner->op().name()).left(60), esc(ref.parent().label()))
                                : QString("in the body of %1").arg(esc(ref.parent().label()));
    if (!n) {
        h += QString("<h3>Body node %1</h3><p>%2</p><p class=dim>Not in that body at this step.</p>").arg(esc(ref.label()), where);
        return h;
    }
    const Op& op = n->op();
    h += QString("<h3 class=mono>%1</h3>").arg(esc(op.name()));
    h += QString("<p>body node %1 \u00b7 %2 \u00b7 %3<br>%4</p>").arg(n->id()).arg(esc(std::string(opKindName(op.kind()))), opFamilyName(opFamily(op)), where);
    if (const StepChanges* c = m_session->shownChanges())
        if (const InnerGraphDiff* d = c->innerOf(ref.parent()); d && d->isAdded(n->id())) h += "<p class=add>Added by this step.</p>";
    // Links stay inside the body: its ids mean nothing outside it.
    auto bodyLink = [&](const Node* m) { return QString("<a href='node:%1/%2'>%3 #%2</a>").arg(path).arg(m->id()).arg(esc(m->op().name()).left(40)); };
    const Graph* body = graphHolding(g, ref);
    h += "<h4>Inputs</h4><table><tr><th>#</th><th>variable</th><th>type</th><th>from</th></tr>";
    for (int i = 0; i < n->numInputs(); ++i) {
        const Variable* v = n->input(i);
        QString from;
        if (v->owner()) from = bodyLink(v->owner());
        else if (body)
            for (size_t k = 0; k < body->inputs().size(); ++k)
                if (body->inputs()[k] == v) from = QString("placeholder *%1").arg(k);
        h += QString("<tr><td>%1</td><td>%2</td><td class=mono>%3</td><td>%4</td></tr>").arg(i).arg(varText(v), esc(v->type().toString()), from);
    }
    h += "</table><h4>Outputs</h4><table><tr><th>#</th><th>variable</th><th>type</th><th>read by</th></tr>";
    for (int j = 0; j < n->numOutputs(); ++j) {
        const Variable* v = n->output(j);
        QStringList readers;
        for (const Client& c : v->clients()) readers << (c.isGraphOutput() ? QString("body output %1").arg(c.index) : bodyLink(c.node));
        h += QString("<tr><td>%1</td><td>%2</td><td class=mono>%3</td><td>%4</td></tr>").arg(j).arg(varText(v), esc(v->type().toString()), readers.join(", "));
    }
    h += "</table>";
    h += QString("<p>destroy_map <span class=mono>%1</span> \u00b7 view_map <span class=mono>%2</span></p>").arg(aliasText(op.destroyMap()), aliasText(op.viewMap()));
    if (auto inner = op.innerGraph()) h += QString("<p>inner graph: %1 nodes</p>").arg(inner->numNodes());
    h += "<p class=dim>The trace records the steps of the outer graph; a body's changes are shown by the step that rewrote it.</p>";
    return h;
}

} // namespace tl
