#pragma once
// The desktop app's window: the canvas in the middle, dock widgets for the
// timeline, dprint text, inspector and run panel, every command a QAction
// with a shortcut, geometry and recent files in QSettings, drag and drop.
#include "session/RewriteSession.h"

#include <QMainWindow>

#include <set>
#include <string>

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QToolButton;

namespace tl {

class CompareWindow;
class DPrintPane;
class GraphCanvas;
struct StepChecks;
class InspectorPane;
class RunPane;
class TimelinePane;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    RewriteSession* session() const { return m_session; }
    GraphCanvas* canvas() const { return m_canvas; }
    DPrintPane* dprintPane() const { return m_dprint; }
    InspectorPane* inspector() const { return m_inspector; }
    TimelinePane* timeline() const { return m_timeline; }
    RunPane* runPane() const { return m_run; }
    /// File → Open's filters, the first (the default) naming everything the window opens.
    static QString openFilter();
    /// The message of the last failed open/export ("" after a success).
    const QString& lastError() const { return m_lastError; }
    /// Rewrite plain graphs with the FAST_RUN pipeline as they are opened (default on).
    void setRewriteOnOpen(bool on) { m_rewriteOnOpen = on; }
    /// How Scan buffers are sized when a graph is rewritten: exact (the proven-safe
    /// minimum) or as PyTensor's C backend does (`tensorlens --mode pytensor`).
    enum class BufferMode { Exact, PyTensor };
    BufferMode bufferMode() const { return m_mode; }
    /// Sets the mode for what is opened next (the command line); see switchBufferMode.
    void setBufferMode(BufferMode mode);
    /// "Compare with tensorlens": the open PyTensor trace (or a chosen PyTensor trace,
    /// compiled graph or listing) beside tensorlens's pipeline, in a window of its own
    /// (ui/compare/CompareWindow.h); returns it, or null when nothing was chosen.
    CompareWindow* compareWithTensorlens(const QString& path = {});

public slots:
    /// Opens a JSON graph / trace (or dprint text). On error shows a dialog naming the
    /// place and keeps what was open; returns false.
    bool openFile(const QString& path);
    /// Opens text in memory the way openFile opens a file: JSON or dprint text
    /// (`name` names it in messages). Errors as openFile.
    bool openText(const QString& text, const QString& name);
    /// Opens the clipboard's text: dprint pasted from an issue, or JSON.
    bool pasteDprint();
    /// Builds a built-in example, rewrites it and opens the trace.
    bool openExample(const QString& name);
    /// Opens "example:NAME" or a file path (the command-line argument).
    bool openArgument(const QString& arg);
    /// Exports the current view; format from the extension (.svg .png .dot .json .trace.json .txt).
    bool exportTo(const QString& path);
    /// Re-runs the pipeline on the original graph without the named rewrites.
    bool rerunExcluding(const std::set<std::string>& exclude);
    /// Runs the pipeline again in `mode` and shows the same step there (the same
    /// rewrite's same occurrence), the picture kept where the graphs agree.
    bool showInBufferMode(BufferMode mode);
    /// The one-key switch (B): this step in the other buffer mode.
    bool switchBufferMode();
    /// Highlights everything that changed from position `base` to the current one
    /// (-1: the current step's own changes again).
    void compareWith(int base);

protected:
    void closeEvent(QCloseEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void createDocks();
    void createActions();
    void createMenus();
    void createStatusBar();
    void restoreSettings();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void rebuildExamplesMenu();
    void showError(const QString& title, const QString& text);
    void updateActions();
    void updateTitle();
    void chooseAndOpen();
    void chooseAndExport(const QString& filter, const QString& suffix);
    void chooseExclusions();
    void jumpToStep();
    void showShortcuts();
    bool openLoaded(std::unique_ptr<Trace> trace, const QString& source, bool rewrite);
    void reportOpened(const QString& source, const QStringList& notes);
    // MainWindowViews.cpp: buffer modes, comparing positions, verification results.
    void createViewActions();
    void showChecks(const StepChecks& checks);
    void chooseComparison();
    void onNoticeLink(const QString& link);
    void updateModeActions();

    RewriteSession* m_session;
    GraphCanvas* m_canvas;
    DPrintPane* m_dprint;
    InspectorPane* m_inspector;
    TimelinePane* m_timeline;
    RunPane* m_run;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_examplesMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QLabel* m_statusLabel = nullptr;
    QLabel* m_zoomLabel = nullptr;
    QProgressBar* m_layoutProgress = nullptr;
    QToolButton* m_layoutCancel = nullptr;
    QString m_lastError;
    bool m_rewriteOnOpen = true;
    BufferMode m_mode = BufferMode::Exact;

public:
    // Actions, public so tests and menus share them.
    QAction* actOpen = nullptr;
    QAction* actPaste = nullptr;
    QAction* actExportSvg = nullptr;
    QAction* actExportPng = nullptr;
    QAction* actExportDot = nullptr;
    QAction* actExportJson = nullptr;
    QAction* actExportTrace = nullptr;
    QAction* actExportDPrint = nullptr;
    QAction* actQuit = nullptr;
    QAction* actFirst = nullptr;
    QAction* actPrevious = nullptr;
    QAction* actNext = nullptr;
    QAction* actLast = nullptr;
    QAction* actJump = nullptr;
    QAction* actZoomIn = nullptr;
    QAction* actZoomOut = nullptr;
    QAction* actFit = nullptr;
    QAction* actActualSize = nullptr;
    QAction* actFind = nullptr;
    QAction* actFindNext = nullptr;
    QAction* actFindPrevious = nullptr;
    QAction* actRelayout = nullptr;
    QAction* actExpandAll = nullptr;
    QAction* actCollapseAll = nullptr;
    QAction* actMinimap = nullptr;
    QAction* actRun = nullptr;
    QAction* actVerify = nullptr;
    QAction* actExclude = nullptr;
    QAction* actModeExact = nullptr;
    QAction* actModePyTensor = nullptr;
    QAction* actSwitchMode = nullptr;
    QAction* actCompareStep = nullptr;
    QAction* actCompareOriginal = nullptr;
    QAction* actCompareOff = nullptr;
    QAction* actCompare = nullptr;
    QAction* actShortcuts = nullptr;
    QAction* actAbout = nullptr;
};

} // namespace tl
