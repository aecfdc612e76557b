#pragma once
// The inspector: everything known about the selected node at the current
// position (type, shapes, destroy/view maps, Scan categories, taps and
// buffers, provenance, the rewrites that did not fire on it), or about the
// current step when nothing is selected.
#include "session/RewriteSession.h"

#include <QWidget>

class QTextBrowser;

namespace tl {

class InspectorPane : public QWidget {
    Q_OBJECT
public:
    InspectorPane(RewriteSession* session, QWidget* parent = nullptr);
    QTextBrowser* browser() const { return m_browser; }
    /// The HTML shown (tests read it).
    QString html() const;

public slots:
    void refresh();

signals:
    /// A "step k" link was clicked.
    void jumpToStep(int k);

private:
    QString nodeHtml(const NodeRef& ref);
    QString bodyNodeHtml(const NodeRef& ref);
    QString stepHtml();
    RewriteSession* m_session;
    QTextBrowser* m_browser;
};

} // namespace tl
