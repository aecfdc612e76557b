#include "widgets/NoticeBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace tl {

NoticeBar::NoticeBar(QWidget* parent) : QWidget(parent), m_layout(new QVBoxLayout(this)) {
    setObjectName("noticeBar");
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(1);
    hide();
}

void NoticeBar::showNotice(const QString& id, Kind kind, const QString& html, const QString& tooltip) {
    dismiss(id);
    static const char* kColors[] = {"#e8f0fe;border:1px solid #aac4f0", "#e6f6ea;border:1px solid #9fd3ad",
                                    "#fff6d6;border:1px solid #e5cf7c", "#fde7e9;border:1px solid #e8a0a6"};
    auto* frame = new QWidget(this);
    frame->setObjectName("notice_" + id);
    frame->setAttribute(Qt::WA_StyledBackground, true);
    frame->setStyleSheet(QString("#notice_%1{background:%2}").arg(id, kColors[static_cast<int>(kind)]));
    auto* row = new QHBoxLayout(frame);
    row->setContentsMargins(8, 3, 2, 3);
    auto* label = new QLabel(html, frame);
    label->setObjectName("noticeText");
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->setTextInteractionFlags(Qt::TextBrowserInteraction);
    label->setOpenExternalLinks(false);
    if (!tooltip.isEmpty()) label->setToolTip(tooltip);
    connect(label, &QLabel::linkActivated, this, &NoticeBar::linkActivated);
    auto* close = new QToolButton(frame);
    close->setText("\u2715");
    close->setAutoRaise(true);
    close->setToolTip("Dismiss");
    connect(close, &QToolButton::clicked, this, [this, id] {
        dismiss(id);
        emit dismissed(id);
    });
    row->addWidget(label, 1);
    row->addWidget(close, 0, Qt::AlignTop);
    m_layout->addWidget(frame);
    m_rows[id] = {frame, label};
    show();
}

void NoticeBar::dismiss(const QString& id) {
    auto it = m_rows.find(id);
    if (it == m_rows.end()) return;
    it->second.frame->hide();
    it->second.frame->deleteLater();
    m_rows.erase(it);
    if (m_rows.empty()) hide();
}

QString NoticeBar::text(const QString& id) const {
    auto it = m_rows.find(id);
    return it == m_rows.end() ? QString() : it->second.label->text();
}

QStringList NoticeBar::ids() const {
    QStringList out;
    for (const auto& [id, r] : m_rows) out << id;
    return out;
}

} // namespace tl
