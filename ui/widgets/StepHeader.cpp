#include "widgets/StepHeader.h"

#include "layout/VisualGraph.h"
#include "scene/Palette.h"

#include <QFontMetricsF>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

namespace tl {

namespace {
// The colour key of the highlights, as the exported banner draws it.
class Legend : public QWidget {
public:
    explicit Legend(QWidget* parent) : QWidget(parent) { setFixedHeight(QFontMetrics(canvasSmallFont()).height() + 6); }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        struct Entry {
            QColor color;
            const char* text;
            bool dashed;
        };
        const Entry entries[] = {{palette::added(), "added", false},
                                 {palette::ghost(), "erased", true},
                                 {palette::rewired(), "rewired", false},
                                 {palette::opChanged().darker(115), "op changed", false},
                                 {palette::badgeText(), "buffer shape", false},
                                 {palette::merged(), "merged state", false},
                                 {palette::link(), "scan link", false}};
        const QFontMetricsF fm(canvasSmallFont());
        p.setFont(canvasSmallFont());
        double x = 2;
        for (const Entry& e : entries) {
            p.setPen(QPen(e.color, 2.2, e.dashed ? Qt::DashLine : Qt::SolidLine));
            p.setBrush(Qt::NoBrush);
            p.drawRoundedRect(QRectF(x, 3, 16, height() - 7), 3, 3);
            p.setPen(palette::text());
            p.drawText(QPointF(x + 21, height() - 5), e.text);
            x += 21 + fm.horizontalAdvance(e.text) + 14;
        }
    }
};
} // namespace

StepHeader::StepHeader(QWidget* parent) : QWidget(parent), m_text(new QLabel(this)), m_legend(new Legend(this)) {
    setObjectName("stepHeader");
    setAttribute(Qt::WA_StyledBackground, true);
    setStyleSheet("#stepHeader{background:#fbfbfc;border-bottom:1px solid #d8dbe0}");
    m_text->setObjectName("stepHeaderText");
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(8, 4, 8, 3);
    l->setSpacing(2);
    l->addWidget(m_text);
    l->addWidget(m_legend);
}

void StepHeader::setLines(const QStringList& lines) {
    if (lines == m_lines) return;
    m_lines = lines;
    QString html;
    for (int i = 0; i < lines.size(); ++i) {
        const QString t = lines[i].toHtmlEscaped();
        html += i == 0 ? "<b>" + t + "</b>" : (i == 1 ? "<br>" : " \u00b7 ") + t;
    }
    m_text->setText(html);
}

} // namespace tl
