// MainWindow: opening (files, examples, drag and drop, recent files), export,
// and re-running the pipeline without some rewrites.
#include "MainWindow.h"

#include "builder/Examples.h"
#include "export/Export.h"
#include "io/DPrint.h"
#include "io/GraphvizDot.h"
#include "io/JsonGraph.h"
#include "io/JsonTrace.h"
#include "rewrite/Pipeline.h"
#include "session/FileLoader.h"
#include "widgets/DPrintPane.h"
#include "widgets/ExcludeDialog.h"
#include "widgets/GraphCanvas.h"
#include "widgets/NoticeBar.h"

#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMimeData>
#include <QSettings>
#include <QVBoxLayout>

#include <fstream>

namespace tl {

namespace {
constexpr int kMaxRecent = 10;

// A wait cursor for the few synchronous operations (pipeline runs take well under a second).
struct WaitCursor {
    WaitCursor() { QGuiApplication::setOverrideCursor(Qt::WaitCursor); }
    ~WaitCursor() { QGuiApplication::restoreOverrideCursor(); }
};
} // namespace

bool MainWindow::openLoaded(std::unique_ptr<Trace> trace, const QString& source, bool rewrite) {
    if (rewrite && trace->size() == 0) {
        // A plain graph: record what the pipeline does to it, so there is something to step through.
        try {
            WaitCursor wait;
            std::unique_ptr<Trace> rewritten = rewriteToTrace(trace->original(), {}, m_mode == BufferMode::PyTensor);
            trace = std::move(rewritten);
        } catch (const std::exception& e) {
            // Keep the graph itself; the user can still look at it and run it.
            m_statusLabel->setText(QString("Rewriting failed, showing the graph unrewritten: %1").arg(e.what()));
        }
    }
    m_session->openTrace(std::move(trace), source);
    m_lastError.clear();
    return true;
}

bool MainWindow::openFile(const QString& path) {
    LoadedDocument doc;
    try {
        WaitCursor wait;
        doc = loadDocument(path);
    } catch (const std::exception& e) {
        // Whatever was open stays open.
        showError("Cannot open " + QFileInfo(path).fileName(), QString::fromUtf8(e.what()));
        return false;
    }
    addRecentFile(QFileInfo(path).absoluteFilePath());
    m_canvas->setNodeNotes(doc.nodeNotes);
    const bool ok = openLoaded(std::move(doc.trace), QFileInfo(path).fileName(), m_rewriteOnOpen && doc.kind != "trace");
    if (ok) reportOpened(path, doc.notes);
    return ok;
}

bool MainWindow::openText(const QString& text, const QString& name) {
    LoadedDocument doc;
    try {
        WaitCursor wait;
        doc = loadDocumentText(text.toStdString(), name);
    } catch (const std::exception& e) {
        showError("Cannot open " + name, QString::fromUtf8(e.what()));
        return false;
    }
    m_canvas->setNodeNotes(doc.nodeNotes);
    const bool ok = openLoaded(std::move(doc.trace), name, m_rewriteOnOpen && doc.kind != "trace");
    if (ok) reportOpened(name, doc.notes);
    return ok;
}

bool MainWindow::pasteDprint() {
    const QString text = QGuiApplication::clipboard()->text();
    if (text.trimmed().isEmpty()) {
        showError("Nothing to paste", "The clipboard holds no text. Copy the output of pytensor.dprint (or a JSON graph) first.");
        return false;
    }
    return openText(text, "pasted text");
}

void MainWindow::reportOpened(const QString& source, const QStringList& notes) {
    // What an importer had to infer is part of what was opened: said above the
    // graph, where it is seen, until the user dismisses it.
    m_statusLabel->setText("Opened " + source);
    m_statusLabel->setToolTip(QString());
    if (notes.isEmpty()) return;
    QString html = QString("<b>%1</b>: the importer had to infer %2 thing%3:<ul style='margin:0'>")
                       .arg(source.toHtmlEscaped())
                       .arg(notes.size())
                       .arg(notes.size() == 1 ? "" : "s");
    for (int i = 0; i < notes.size() && i < 6; ++i) html += "<li>" + notes[i].toHtmlEscaped() + "</li>";
    if (notes.size() > 6) html += QString("<li>\u2026 and %1 more (hover for all)</li>").arg(notes.size() - 6);
    html += "</ul>";
    m_canvas->notices()->showNotice("import", NoticeBar::Kind::Warning, html, notes.join("\n"));
    m_statusLabel->setText(QString("Opened %1 (%2 import notes, above the graph)").arg(source).arg(notes.size()));
}

bool MainWindow::openExample(const QString& name) {
    m_canvas->setNodeNotes({});
    std::unique_ptr<Graph> g;
    try {
        g = buildExample(name.toStdString());
    } catch (const std::exception& e) {
        showError("Cannot build example " + name, QString::fromUtf8(e.what()));
        return false;
    }
    const bool ok = openLoaded(std::make_unique<Trace>(std::move(g)), "example " + name, true);
    if (ok) reportOpened("example " + name, {});
    return ok;
}

bool MainWindow::openArgument(const QString& arg) {
    if (arg.startsWith("example:")) return openExample(arg.mid(8));
    return openFile(arg);
}

bool MainWindow::rerunExcluding(const std::set<std::string>& exclude) {
    if (!m_session->isOpen()) return false;
    try {
        WaitCursor wait;
        auto trace = rewriteToTrace(m_session->trace().original(), exclude, m_mode == BufferMode::PyTensor);
        const int k = m_session->currentStep();
        QString source = m_session->source();
        if (!exclude.empty()) {
            QStringList names;
            for (const std::string& s : exclude) names << QString::fromStdString(s);
            source += " (without " + names.join(", ") + ")";
        }
        m_session->openTrace(std::move(trace), source);
        m_session->setCurrentStep(k);
    } catch (const std::exception& e) {
        showError("Re-running the pipeline failed", QString::fromUtf8(e.what()));
        return false;
    }
    return true;
}

void MainWindow::chooseExclusions() {
    if (!m_session->isOpen()) return;
    std::set<std::string> current;
    if (auto it = m_session->trace().settings().find("exclude"); it != m_session->trace().settings().end()) {
        QString s = QString::fromStdString(it->second);
        for (const QString& part : s.split(QRegularExpression("[,\\s]+"), Qt::SkipEmptyParts)) current.insert(part.toStdString());
    }
    std::map<std::string, int> fired;
    for (const TraceStep& s : m_session->steps()) ++fired[s.rewrite];
    ExcludeDialog dlg(Pipeline::fastRun().describe(), fired, current, this);
    if (dlg.exec() != QDialog::Accepted) return;
    rerunExcluding(dlg.excluded());
}

bool MainWindow::exportTo(const QString& path) {
    if (!m_session->isOpen()) return false;
    try {
        const std::string p = path.toStdString();
        const Graph& g = m_session->currentGraph();
        switch (exportFormatForPath(p)) {
        case ExportFormat::Svg:
        case ExportFormat::Png: {
            // The picture carries the step's banner, which the window shows above the canvas.
            GraphScene& scene = *m_canvas->scene();
            scene.setBannerShown(true);
            try {
                if (exportFormatForPath(p) == ExportFormat::Svg) exportSceneToSvg(scene, path, windowTitle());
                else exportSceneToPng(scene, path);
            } catch (...) {
                scene.setBannerShown(false);
                throw;
            }
            scene.setBannerShown(false);
            break;
        }
        case ExportFormat::JsonGraph: saveGraph(p, g); break;
        case ExportFormat::JsonTrace: saveTrace(p, m_session->trace()); break;
        case ExportFormat::Dot:
        case ExportFormat::DPrint: {
            // The dprint export is the pane's text with its options; DOT marks the step's added nodes.
            std::string text;
            if (exportFormatForPath(p) == ExportFormat::DPrint) text = m_dprint->text().toStdString() + "\n";
            else {
                DotOptions o;
                std::set<NodeId> added;
                if (const StepDiff* d = m_session->currentDiff()) added.insert(d->added.begin(), d->added.end());
                o.nodeAttributes = [added](const Node& n) { return added.count(n.id()) ? std::string("color=\"#1a9e3f\", penwidth=3") : std::string(); };
                text = toDot(g, o);
            }
            std::ofstream out(p, std::ios::binary);
            if (!out || !(out << text)) throw std::runtime_error(p + ": cannot write");
            break;
        }
        }
    } catch (const std::exception& e) {
        showError("Export failed", QString::fromUtf8(e.what()));
        return false;
    }
    m_statusLabel->setText("Exported " + path);
    return true;
}

QString MainWindow::openFilter() {
    // Everything the window opens is shown by default; the narrower filters are there to pick.
    return "Graphs, traces and dprint text (*.json *.txt);;tensorlens graphs and traces (*.json);;dprint text (*.txt);;All files (*)";
}

void MainWindow::chooseAndOpen() {
    QSettings s;
    const QString dir = s.value("files/lastDir").toString();
    const QString path = QFileDialog::getOpenFileName(this, "Open graph, trace or dprint text", dir, openFilter());
    if (path.isEmpty()) return;
    s.setValue("files/lastDir", QFileInfo(path).absolutePath());
    openFile(path);
}

void MainWindow::chooseAndExport(const QString& filter, const QString& suffix) {
    QSettings s;
    QString base = m_session->source();
    base.replace(QRegularExpression("[^A-Za-z0-9_.-]+"), "_");
    if (base.endsWith(".json")) base.chop(5);
    const QString suggested = QFileInfo(QDir(s.value("files/exportDir").toString()), QString("%1-step%2%3").arg(base).arg(m_session->currentStep()).arg(suffix)).filePath();
    QString path = QFileDialog::getSaveFileName(this, "Export", suggested, filter);
    if (path.isEmpty()) return;
    if (!path.endsWith(suffix, Qt::CaseInsensitive)) path += suffix;
    s.setValue("files/exportDir", QFileInfo(path).absolutePath());
    exportTo(path);
}

void MainWindow::addRecentFile(const QString& path) {
    QSettings s;
    QStringList files = s.value("files/recent").toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecent) files.removeLast();
    s.setValue("files/recent", files);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList files = QSettings().value("files/recent").toStringList();
    for (int i = 0; i < files.size(); ++i) {
        QAction* a = m_recentMenu->addAction(QString("&%1 %2").arg((i + 1) % 10).arg(QFileInfo(files[i]).fileName()));
        a->setToolTip(files[i]);
        const QString path = files[i];
        connect(a, &QAction::triggered, this, [this, path] { openFile(path); });
    }
    if (files.isEmpty()) m_recentMenu->addAction("(none)")->setEnabled(false);
    else {
        m_recentMenu->addSeparator();
        connect(m_recentMenu->addAction("Clear list"), &QAction::triggered, this, [this] {
            QSettings().remove("files/recent");
            rebuildRecentMenu();
        });
    }
}

void MainWindow::rebuildExamplesMenu() {
    m_examplesMenu->clear();
    for (const Example& e : examples()) {
        QAction* a = m_examplesMenu->addAction(QString::fromStdString(e.name));
        a->setObjectName(QString::fromStdString("example_" + e.name));
        a->setToolTip(QString::fromStdString(e.description));
        a->setStatusTip(QString::fromStdString(e.description));
        const QString name = QString::fromStdString(e.name);
        connect(a, &QAction::triggered, this, [this, name] { openExample(name); });
    }
    m_examplesMenu->setToolTipsVisible(true);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) {
        for (const QUrl& u : e->mimeData()->urls())
            if (u.isLocalFile()) {
                e->acceptProposedAction();
                return;
            }
    }
}

void MainWindow::dropEvent(QDropEvent* e) {
    for (const QUrl& u : e->mimeData()->urls())
        if (u.isLocalFile()) {
            e->acceptProposedAction();
            openFile(u.toLocalFile());
            return;
        }
}

} // namespace tl
