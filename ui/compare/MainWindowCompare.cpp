// MainWindow's "Compare with tensorlens" (Run menu): kept here, with the
// comparison window it opens, so the main window only holds the action.
#include "MainWindow.h"

#include "compare/CompareWindow.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace tl {

namespace {

// A copy of a trace the window can keep (the session's may be replaced while it is open).
std::unique_ptr<Trace> copyTrace(const Trace& t) {
    auto c = std::make_unique<Trace>(t.original().clone());
    c->steps() = t.steps();
    c->settings() = t.settings();
    return c;
}

bool isPyTensorTrace(const Trace& t) {
    auto it = t.settings().find("source");
    return it != t.settings().end() && it->second == "pytensor";
}

} // namespace

CompareWindow* MainWindow::compareWithTensorlens(const QString& path) {
    PyTensorDocument doc;
    try {
        if (!path.isEmpty()) {
            doc = loadPyTensorDocument(path.toStdString());
        } else if (m_session->isOpen() && isPyTensorTrace(m_session->trace())) {
            doc.kind = PyTensorDocument::Kind::Trace;
            doc.trace = copyTrace(m_session->trace());
            doc.name = QFileInfo(m_session->source()).completeBaseName().section('.', 0, 0).toStdString();
        } else {
            const QString chosen = QFileDialog::getOpenFileName(
                this, "Compare with tensorlens: a PyTensor trace, compiled graph or dprint listing", {},
                "PyTensor traces and graphs (*.json);;dprint listings (*.txt);;All files (*)");
            if (chosen.isEmpty()) return nullptr;
            doc = loadPyTensorDocument(chosen.toStdString());
        }
    } catch (const std::exception& e) {
        QMessageBox::warning(this, "Compare with tensorlens", QString::fromUtf8(e.what()));
        return nullptr;
    }
    auto* w = new CompareWindow(this);
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->compare(std::move(doc));
    w->show();
    return w;
}

} // namespace tl
