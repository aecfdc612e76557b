#include "widgets/DPrintPane.h"

#include "model/LineDiff.h"

#include <QCheckBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>

#include <algorithm>
#include <unordered_map>

namespace tl {

DPrintPane::DPrintPane(RewriteSession* session, QWidget* parent) : QWidget(parent), m_session(session) {
    m_edit = new QPlainTextEdit(this);
    m_edit->setObjectName("dprintText");
    m_edit->setReadOnly(true);
    // Updates edit the text in place; none of them is the user's to undo.
    m_edit->setUndoRedoEnabled(false);
    m_edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_edit->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_types = new QCheckBox("types", this);
    m_shapes = new QCheckBox("shapes", this);
    m_destroy = new QCheckBox("destroy/view maps", this);
    m_opInfo = new QCheckBox("scan op info", this);
    m_shapes->setChecked(true);
    m_destroy->setChecked(true);
    m_opInfo->setChecked(true);
    auto* opts = new QHBoxLayout;
    opts->setContentsMargins(4, 2, 4, 2);
    for (QCheckBox* c : {m_types, m_shapes, m_destroy, m_opInfo}) {
        opts->addWidget(c);
        connect(c, &QCheckBox::toggled, this, &DPrintPane::refresh);
    }
    opts->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(opts);
    layout->addWidget(m_edit, 1);

    connect(m_session, &RewriteSession::opened, this, &DPrintPane::refresh);
    connect(m_session, &RewriteSession::currentStepChanged, this, &DPrintPane::refresh);
    connect(m_session, &RewriteSession::selectionChanged, this, &DPrintPane::showSelection);
    connect(m_edit, &QPlainTextEdit::cursorPositionChanged, this, &DPrintPane::onCursorMoved);
}

DPrintOptions DPrintPane::options() const {
    DPrintOptions o;
    o.printType = m_types->isChecked();
    o.printShape = m_shapes->isChecked();
    o.printDestroyMap = m_destroy->isChecked();
    o.printViewMap = m_destroy->isChecked();
    o.printOpInfo = m_opInfo->isChecked();
    return o;
}

QString DPrintPane::text() const { return m_edit->toPlainText(); }

NodeRef DPrintPane::refOfLine(int line) const {
    return line >= 0 && line < static_cast<int>(m_lineRef.size()) ? m_lineRef[line] : NodeRef();
}

NodeId DPrintPane::nodeOfLine(int line) const { return refOfLine(line).outerNode(); }

void DPrintPane::refresh() {
    if (!m_session->isOpen()) return;
    const Graph& g = m_session->currentGraph();
    std::vector<DPrintLine> lines;
    try {
        lines = dprintLines(g, options());
    } catch (const std::exception& e) {
        m_updating = true;
        m_edit->setPlainText(QString("dprint failed: %1").arg(e.what()));
        m_lines.clear();
        m_lineRef.clear();
        m_updating = false;
        return;
    }
    // Which node holds each body: a line of the `Inner graphs:` section names a node
    // of that body, whose id means nothing outside it.
    std::unordered_map<const Graph*, NodeRef> owners;
    std::unordered_map<const Node*, NodeRef> withBody;
    {
        std::vector<std::pair<const Graph*, NodeRef>> stack{{&g, NodeRef()}};
        while (!stack.empty()) {
            auto [graph, owner] = stack.back();
            stack.pop_back();
            for (const Node* n : graph->nodes()) {
                auto body = n->op().innerGraph();
                if (!body || owners.count(body.get())) continue;
                const NodeRef ref = owner.valid() ? owner.child(n->id()) : NodeRef::outer(n->id());
                owners[body.get()] = ref;
                withBody[n] = ref;
                stack.emplace_back(body.get(), ref);
            }
        }
    }
    auto refOf = [&](const Graph* graph, const Node* n) -> NodeRef {
        if (!n) return {};
        if (!graph || graph == &g) return NodeRef::outer(n->id());
        auto it = owners.find(graph);
        return it == owners.end() ? NodeRef() : it->second.child(n->id());
    };
    std::vector<std::string> text(lines.size());
    std::vector<NodeRef> refs(lines.size());
    for (size_t i = 0; i < lines.size(); ++i) {
        DPrintLine& l = lines[i];
        text[i] = std::move(l.text);
        if (l.node) refs[i] = refOf(l.graph, l.node);
        // A body's placeholders and constants: the node whose body it is.
        if (!refs[i].valid() && l.innerGraphOf)
            if (auto it = withBody.find(l.innerGraphOf); it != withBody.end()) refs[i] = it->second;
    }
    m_lineRef = std::move(refs);
    m_updating = true;
    // Only the lines that changed are replaced: a step changes a few lines of a
    // listing of thousands, and laying out the whole text again is the slow part.
    auto setAll = [&] {
        std::string all;
        for (size_t i = 0; i < text.size(); ++i) {
            all += text[i];
            if (i + 1 < text.size()) all += '\n';
        }
        m_edit->setPlainText(QString::fromStdString(all));
    };
    if (m_lines.empty() || text.empty() || m_edit->document()->blockCount() != static_cast<int>(m_lines.size())) {
        setAll();
    } else if (const std::vector<LineHunk> hunks = lineHunks(m_lines, text); !hunks.empty()) {
        QTextDocument* doc = m_edit->document();
        QTextCursor c(doc);
        auto join = [&](int from, int to) {
            std::string s;
            for (int i = from; i < to; ++i) {
                if (i > from) s += '\n';
                s += text[i];
            }
            return QString::fromStdString(s);
        };
        c.beginEditBlock();
        // Last first: the block numbers of the hunks before stay valid.
        for (auto h = hunks.rbegin(); h != hunks.rend(); ++h) {
            if (h->oldEnd > h->oldBegin && h->newEnd > h->newBegin) {
                c.setPosition(doc->findBlockByNumber(h->oldBegin).position());
                const QTextBlock last = doc->findBlockByNumber(h->oldEnd - 1);
                c.setPosition(last.position() + last.length() - 1, QTextCursor::KeepAnchor);
                c.insertText(join(h->newBegin, h->newEnd));
            } else if (h->oldEnd > h->oldBegin) {
                // Lines only removed: with the line break before them (after them for the first line).
                const QTextBlock last = doc->findBlockByNumber(h->oldEnd - 1);
                if (h->oldBegin > 0) {
                    const QTextBlock before = doc->findBlockByNumber(h->oldBegin - 1);
                    c.setPosition(before.position() + before.length() - 1);
                    c.setPosition(last.position() + last.length() - 1, QTextCursor::KeepAnchor);
                } else {
                    c.setPosition(0);
                    c.setPosition(std::min(last.position() + last.length(), doc->characterCount() - 1), QTextCursor::KeepAnchor);
                }
                c.removeSelectedText();
            } else if (h->oldBegin < doc->blockCount()) {
                // Lines only inserted, before old line oldBegin.
                c.setPosition(doc->findBlockByNumber(h->oldBegin).position());
                c.insertText(join(h->newBegin, h->newEnd) + "\n");
            } else {
                c.movePosition(QTextCursor::End);
                c.insertText("\n" + join(h->newBegin, h->newEnd));
            }
        }
        c.endEditBlock();
        if (doc->blockCount() != static_cast<int>(text.size())) setAll();
    }
    m_lines = std::move(text);
    m_updating = false;
    showSelection();
}

void DPrintPane::onCursorMoved() {
    if (m_updating) return;
    const int line = m_edit->textCursor().blockNumber();
    const NodeRef ref = refOfLine(line);
    if (ref.valid()) {
        m_updating = true;
        m_session->setSelectedRefs({ref});
        m_updating = false;
    }
}

void DPrintPane::showSelection() {
    m_highlighted.clear();
    QList<QTextEdit::ExtraSelection> extras;
    const auto& sel = m_session->selectedRefs();
    for (int i = 0; i < static_cast<int>(m_lineRef.size()); ++i) {
        if (!m_lineRef[i].valid() || std::find(sel.begin(), sel.end(), m_lineRef[i]) == sel.end()) continue;
        m_highlighted.push_back(i);
        QTextEdit::ExtraSelection x;
        x.cursor = QTextCursor(m_edit->document()->findBlockByNumber(i));
        x.format.setBackground(QColor(0xd6, 0xe4, 0xff));
        x.format.setProperty(QTextFormat::FullWidthSelection, true);
        extras << x;
    }
    m_edit->setExtraSelections(extras);
    // Scroll to the first line when the selection came from elsewhere.
    if (!m_updating && !m_highlighted.empty()) {
        const bool wasUpdating = m_updating;
        m_updating = true;
        QTextCursor c(m_edit->document()->findBlockByNumber(m_highlighted.front()));
        m_edit->setTextCursor(c);
        m_edit->centerCursor();
        m_updating = wasUpdating;
    }
}

} // namespace tl
