#include "widgets/DPrintPane.h"

#include <QCheckBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QVBoxLayout>

#include <algorithm>

namespace tl {

DPrintPane::DPrintPane(RewriteSession* session, QWidget* parent) : QWidget(parent), m_session(session) {
    m_edit = new QPlainTextEdit(this);
    m_edit->setObjectName("dprintText");
    m_edit->setReadOnly(true);
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

NodeId DPrintPane::nodeOfLine(int line) const {
    return line >= 0 && line < static_cast<int>(m_lineNode.size()) ? m_lineNode[line] : -1;
}

void DPrintPane::refresh() {
    if (!m_session->isOpen()) return;
    const Graph& g = m_session->currentGraph();
    std::vector<DPrintLine> lines;
    try {
        lines = dprintLines(g, options());
    } catch (const std::exception& e) {
        m_updating = true;
        m_edit->setPlainText(QString("dprint failed: %1").arg(e.what()));
        m_updating = false;
        return;
    }
    m_lineNode.assign(lines.size(), -1);
    std::string all;
    for (size_t i = 0; i < lines.size(); ++i) {
        const DPrintLine& l = lines[i];
        all += l.text;
        if (i + 1 < lines.size()) all += '\n';
        // Only outer nodes can be selected on the canvas; body lines stand for their Scan.
        if (l.innerGraphOf) m_lineNode[i] = l.innerGraphOf->id();
        else if (l.node && l.graph == &g) m_lineNode[i] = l.node->id();
    }
    m_updating = true;
    m_edit->setPlainText(QString::fromStdString(all));
    m_updating = false;
    showSelection();
}

void DPrintPane::onCursorMoved() {
    if (m_updating) return;
    const int line = m_edit->textCursor().blockNumber();
    const NodeId id = nodeOfLine(line);
    if (id >= 0) {
        m_updating = true;
        m_session->setSelection({id});
        m_updating = false;
    }
}

void DPrintPane::showSelection() {
    m_highlighted.clear();
    QList<QTextEdit::ExtraSelection> extras;
    const auto& sel = m_session->selection();
    for (int i = 0; i < static_cast<int>(m_lineNode.size()); ++i) {
        if (m_lineNode[i] < 0 || std::find(sel.begin(), sel.end(), m_lineNode[i]) == sel.end()) continue;
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
