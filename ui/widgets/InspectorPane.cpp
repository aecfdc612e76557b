#include "widgets/InspectorPane.h"

#include "trace/GraphFacts.h"

#include <QTextBrowser>
#include <QVBoxLayout>

namespace tl {

namespace {
QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

// A recorded value cut to a readable length: fusing a 3,000-op chain records 3,000 ids.
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
        if (url.scheme() == "node") m_session->setSelection({url.path().toLongLong()});
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
    const auto& sel = m_session->selection();
    QString html = kStyle;
    html += sel.empty() ? stepHtml() : nodeHtml(sel.front());
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
                 .arg(esc(formatBytes(d.bufferBytesBefore)), esc(formatBytes(d.bufferBytesAfter)));
        h += "</table>";
        for (const ShapeBadge& b : d.shapeChanges)
            h += QString("<p><span class=badge>%1%2</span> on node %3<br><span class=dim>%4</span></p>")
                     .arg(b.label.empty() ? QString() : esc(b.label) + ": ", esc(b.text()))
                     .arg(b.node)
                     .arg(esc(b.detail));
        for (const MergedState& m : d.mergedStates)
            h += QString("<p><span class=merge>%1</span><br><span class=dim>%2</span></p>").arg(esc(m.text), esc(m.detail));
        if (!s.attributes.empty()) {
            h += "<h4>Recorded facts</h4><table>";
            for (const AttributeChange& a : s.attributes)
                h += QString("<tr><td>node %1</td><td>%2</td><td class=mono>%3 \u2192 %4</td><td class=dim>%5</td></tr>")
                         .arg(a.node)
                         .arg(esc(a.key), escShort(a.before), escShort(a.after), esc(a.detail));
            h += "</table>";
        }
    }
    h += "<h4>Graph</h4><table>";
    h += QString("<tr><th>nodes</th><td>%1</td></tr>").arg(g.numNodes());
    h += QString("<tr><th>inputs</th><td>%1</td></tr>").arg(g.inputs().size());
    h += QString("<tr><th>outputs</th><td>%1</td></tr>").arg(g.outputs().size());
    h += QString("<tr><th>scan buffers</th><td>%1</td></tr>").arg(esc(formatBytes(totalBufferBytes(g))));
    h += "</table><p class=dim>Select a node for its details.</p>";
    return h;
}

QString InspectorPane::nodeHtml(NodeId id) {
    const Graph& g = m_session->currentGraph();
    const Node* n = g.findNode(id);
    QString h;
    if (!n) {
        h += QString("<h3>Node %1</h3><p class=dim>Not in the graph at this step.</p>").arg(id);
        if (const StepDiff* d = m_session->currentDiff())
            for (const NodeSnapshot& s : d->erased)
                if (s.id == id) h += QString("<p>Erased by this step (%1).</p>").arg(esc(d->rewrite));
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
            int64_t total = 0;
            for (const BufferRow& r : scanBuffers(*n)) {
                h += QString("<tr><td>%1</td><td class=mono>%2</td><td>%3</td><td>%4</td></tr>")
                         .arg(esc(r.label), esc(r.shape))
                         .arg(r.rows < 0 ? QString("?") : QString::number(r.rows))
                         .arg(esc(formatBytes(r.bytes)));
                if (r.bytes > 0) total += r.bytes;
            }
            h += QString("<tr><th>total</th><td></td><td></td><td><b>%1</b></td></tr></table>").arg(esc(formatBytes(total)));
            if (auto body = op.innerGraph()) h += QString("<p>body: %1 nodes</p>").arg(body->numNodes());
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
        h += "<h4>Rewrites tried here that did not fire</h4><table>";
        for (const ExplainEntry& e : explain)
            h += QString("<tr><td><a href='step:%1'>at step %1</a></td><td class=mono>%2</td><td>%3</td></tr>")
                     .arg(e.position)
                     .arg(esc(e.rewrite), esc(e.reason));
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

} // namespace tl
