#include "MainWindow.h"

#include "widgets/DPrintPane.h"
#include "widgets/GraphCanvas.h"
#include "widgets/InspectorPane.h"
#include "widgets/RunPane.h"
#include "widgets/TimelinePane.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

namespace tl {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), m_session(new RewriteSession(this)) {
    setObjectName("mainWindow");
    setAcceptDrops(true);
    m_canvas = new GraphCanvas(m_session, this);
    setCentralWidget(m_canvas);
    createDocks();
    createActions();
    createMenus();
    createViewActions();
    createStatusBar();
    restoreSettings();
    connect(m_session, &RewriteSession::opened, this, [this] {
        updateActions();
        updateTitle();
    });
    connect(m_session, &RewriteSession::currentStepChanged, this, [this] {
        updateActions();
        updateTitle();
    });
    connect(m_inspector, &InspectorPane::jumpToStep, m_session, &RewriteSession::setCurrentStep);
    connect(m_timeline, &TimelinePane::rerunRequested, this, &MainWindow::chooseExclusions);
    updateActions();
    updateTitle();
    m_inspector->refresh();
}

MainWindow::~MainWindow() {
    // The views go first: while they are torn down they may still talk to the session.
    m_run->cancel();
    for (QDockWidget* d : findChildren<QDockWidget*>()) delete d;
    delete m_canvas;
}

void MainWindow::createDocks() {
    setDockNestingEnabled(true);
    auto dock = [this](const QString& title, const QString& name, QWidget* w, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        addDockWidget(area, d);
        return d;
    };
    m_timeline = new TimelinePane(m_session, this);
    m_dprint = new DPrintPane(m_session, this);
    m_inspector = new InspectorPane(m_session, this);
    m_run = new RunPane(m_session, this);
    dock("Timeline", "timelineDock", m_timeline, Qt::LeftDockWidgetArea);
    QDockWidget* text = dock("dprint", "dprintDock", m_dprint, Qt::RightDockWidgetArea);
    QDockWidget* insp = dock("Inspector", "inspectorDock", m_inspector, Qt::RightDockWidgetArea);
    splitDockWidget(text, insp, Qt::Vertical);
    QDockWidget* run = dock("Run", "runDock", m_run, Qt::RightDockWidgetArea);
    // The canvas gets the height: the run panel shares a tab with the inspector.
    tabifyDockWidget(insp, run);
    insp->raise();
}

void MainWindow::createActions() {
    auto make = [this](const QString& text, const QList<QKeySequence>& keys, const QString& name, auto slot) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        a->setShortcuts(keys);
        if (!keys.isEmpty()) a->setToolTip(text + " (" + keys.front().toString(QKeySequence::NativeText) + ")");
        // Window-wide: the canvas, the timeline and the docks all step with the same keys.
        a->setShortcutContext(Qt::WindowShortcut);
        addAction(a);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    actOpen = make("&Open\u2026", {QKeySequence::Open}, "actOpen", [this] { chooseAndOpen(); });
    actOpen->setIcon(style()->standardIcon(QStyle::SP_DialogOpenButton));
    actPaste = make("&Paste dprint", {QKeySequence("Ctrl+Shift+V")}, "actPaste", [this] { pasteDprint(); });
    actExportSvg = make("Export &SVG\u2026", {QKeySequence("Ctrl+E")}, "actExportSvg", [this] { chooseAndExport("SVG (*.svg)", ".svg"); });
    actExportPng = make("Export &PNG\u2026", {}, "actExportPng", [this] { chooseAndExport("PNG (*.png)", ".png"); });
    actExportDot = make("Export &DOT\u2026", {}, "actExportDot", [this] { chooseAndExport("Graphviz DOT (*.dot)", ".dot"); });
    actExportJson = make("Export graph as &JSON\u2026", {}, "actExportJson", [this] { chooseAndExport("tensorlens graph (*.json)", ".json"); });
    actExportTrace = make("Export &trace as JSON\u2026", {}, "actExportTrace",
                          [this] { chooseAndExport("tensorlens trace (*.trace.json)", ".trace.json"); });
    actExportDPrint = make("Export d&print text\u2026", {}, "actExportDPrint", [this] { chooseAndExport("Text (*.txt)", ".txt"); });
    actQuit = make("&Quit", {QKeySequence::Quit}, "actQuit", [this] { close(); });

    actFirst = make("&First step", {QKeySequence(Qt::Key_Home)}, "actFirst", [this] { m_timeline->goFirst(); });
    actPrevious = make("&Previous step", {QKeySequence(Qt::Key_Left), QKeySequence(Qt::Key_P)}, "actPrevious", [this] { m_timeline->goPrevious(); });
    actNext = make("&Next step", {QKeySequence(Qt::Key_Right), QKeySequence(Qt::Key_N)}, "actNext", [this] { m_timeline->goNext(); });
    actLast = make("&Last step", {QKeySequence(Qt::Key_End)}, "actLast", [this] { m_timeline->goLast(); });
    actFirst->setIcon(style()->standardIcon(QStyle::SP_MediaSkipBackward));
    actPrevious->setIcon(style()->standardIcon(QStyle::SP_MediaSeekBackward));
    actNext->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
    actLast->setIcon(style()->standardIcon(QStyle::SP_MediaSkipForward));
    actJump = make("&Go to step\u2026", {QKeySequence("Ctrl+G")}, "actJump", [this] { jumpToStep(); });

    actZoomIn = make("Zoom &in", {QKeySequence::ZoomIn, QKeySequence("Ctrl+=")}, "actZoomIn", [this] { m_canvas->view()->zoomIn(); });
    actZoomOut = make("Zoom &out", {QKeySequence::ZoomOut}, "actZoomOut", [this] { m_canvas->view()->zoomOut(); });
    actFit = make("&Fit to window", {QKeySequence("Ctrl+0")}, "actFit", [this] { m_canvas->view()->fit(); });
    actActualSize = make("&Actual size", {QKeySequence("Ctrl+1")}, "actActualSize", [this] { m_canvas->view()->resetZoom(); });
    actFind = make("&Find node\u2026", {QKeySequence::Find}, "actFind", [this] { m_canvas->showSearch(); });
    actFindNext = make("Find ne&xt", {QKeySequence::FindNext}, "actFindNext", [this] { m_canvas->findNext(); });
    actFindPrevious = make("Find pre&vious", {QKeySequence::FindPrevious}, "actFindPrevious", [this] { m_canvas->findPrevious(); });
    actRelayout = make("&Relayout", {QKeySequence(Qt::Key_F5)}, "actRelayout", [this] { m_canvas->relayout(); });
    actExpandAll = make("&Expand all loops and chains", {QKeySequence("Ctrl+Shift+E")}, "actExpandAll", [this] { m_canvas->expandAll(); });
    actCollapseAll = make("&Collapse all", {QKeySequence("Ctrl+Shift+C")}, "actCollapseAll", [this] { m_canvas->collapseAll(); });
    actMinimap = make("&Minimap", {QKeySequence("Ctrl+M")}, "actMinimap", [this](bool on) {
        m_canvas->view()->setMinimapVisible(on);
        QSettings().setValue("view/minimap", on);
    });
    actMinimap->setCheckable(true);
    // The user's choice outlives the window.
    actMinimap->setChecked(QSettings().value("view/minimap", true).toBool());
    m_canvas->view()->setMinimapVisible(actMinimap->isChecked());

    // Results go where the user looks: the Run pane comes forward as the run starts.
    auto raiseRun = [this] {
        if (auto* d = findChild<QDockWidget*>("runDock")) {
            d->show();
            d->raise();
        }
    };
    actRun = make("&Run this step", {QKeySequence(Qt::Key_F9)}, "actRun", [this, raiseRun] {
        raiseRun();
        m_run->runCurrentStep();
    });
    actRun->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    actVerify = make("&Verify all steps", {QKeySequence("Shift+F9")}, "actVerify", [this, raiseRun] {
        raiseRun();
        m_run->verifyAllSteps();
    });
    actExclude = make("E&xclude rewrites and re-run\u2026", {QKeySequence("Ctrl+Shift+R")}, "actExclude", [this] { chooseExclusions(); });
    actCompare = make("&Compare with tensorlens\u2026", {QKeySequence("Ctrl+Shift+M")}, "actCompare", [this] { compareWithTensorlens(); });
    actShortcuts = make("&Keyboard shortcuts", {QKeySequence::HelpContents}, "actShortcuts", [this] { showShortcuts(); });
    actAbout = make("&About tensorlens", {}, "actAbout", [this] {
        QMessageBox::about(this, "About tensorlens",
                           "<b>tensorlens</b><br>Open a tensor graph, step through every rewrite, see the buffers shrink "
                           "and the traces merge, run it, export the picture.");
    });
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu("&File");
    file->addAction(actOpen);
    file->addAction(actPaste);
    m_recentMenu = file->addMenu("Open &recent");
    m_examplesMenu = file->addMenu("E&xamples");
    rebuildRecentMenu();
    rebuildExamplesMenu();
    file->addSeparator();
    QMenu* exp = file->addMenu("&Export");
    for (QAction* a : {actExportSvg, actExportPng, actExportDot, actExportJson, actExportTrace, actExportDPrint}) exp->addAction(a);
    file->addSeparator();
    file->addAction(actQuit);

    QMenu* step = menuBar()->addMenu("&Step");
    for (QAction* a : {actFirst, actPrevious, actNext, actLast, actJump}) step->addAction(a);
    step->addSeparator();
    step->addAction(actExclude);

    m_viewMenu = menuBar()->addMenu("&View");
    for (QAction* a : {actZoomIn, actZoomOut, actFit, actActualSize}) m_viewMenu->addAction(a);
    m_viewMenu->addSeparator();
    for (QAction* a : {actFind, actFindNext, actFindPrevious}) m_viewMenu->addAction(a);
    m_viewMenu->addSeparator();
    for (QAction* a : {actRelayout, actExpandAll, actCollapseAll, actMinimap}) m_viewMenu->addAction(a);
    m_viewMenu->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>()) m_viewMenu->addAction(d->toggleViewAction());

    QMenu* run = menuBar()->addMenu("&Run");
    run->addAction(actRun);
    run->addAction(actVerify);
    run->addSeparator();
    run->addAction(actCompare);  // ui/compare/MainWindowCompare.cpp

    QMenu* help = menuBar()->addMenu("&Help");
    help->addAction(actShortcuts);
    help->addAction(actAbout);

    QToolBar* tb = addToolBar("Main");
    tb->setObjectName("mainToolBar");
    tb->addAction(actOpen);
    tb->addAction(actExportSvg);
    tb->addSeparator();
    for (QAction* a : {actFirst, actPrevious, actNext, actLast}) tb->addAction(a);
    tb->addSeparator();
    for (QAction* a : {actZoomOut, actFit, actZoomIn, actFind}) tb->addAction(a);
    tb->addSeparator();
    tb->addAction(actRun);
    tb->addAction(actVerify);
}

void MainWindow::createStatusBar() {
    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName("statusText");
    m_zoomLabel = new QLabel("100%", this);
    m_layoutProgress = new QProgressBar(this);
    m_layoutProgress->setObjectName("layoutProgress");
    m_layoutProgress->setMaximumWidth(160);
    m_layoutProgress->setFormat("layout %v/%m");
    m_layoutProgress->hide();
    m_layoutCancel = new QToolButton(this);
    m_layoutCancel->setText("Cancel layout");
    m_layoutCancel->hide();
    statusBar()->addWidget(m_statusLabel, 1);
    statusBar()->addPermanentWidget(m_layoutProgress);
    statusBar()->addPermanentWidget(m_layoutCancel);
    statusBar()->addPermanentWidget(m_zoomLabel);
    connect(m_layoutCancel, &QToolButton::clicked, m_canvas, &GraphCanvas::cancelLayout);
    connect(m_canvas, &GraphCanvas::statusMessage, m_statusLabel, &QLabel::setText);
    connect(m_run, &RunPane::statusMessage, m_statusLabel, &QLabel::setText);
    connect(m_canvas, &GraphCanvas::layoutStarted, this, [this] {
        m_layoutProgress->setRange(0, 0);
        m_layoutProgress->show();
        m_layoutCancel->show();
        m_statusLabel->setText("Laying out\u2026");
    });
    connect(m_canvas, &GraphCanvas::layoutProgress, this, [this](int done, int total) {
        m_layoutProgress->setRange(0, total);
        m_layoutProgress->setValue(done);
    });
    connect(m_canvas, &GraphCanvas::layoutReady, this, [this] {
        m_layoutProgress->hide();
        m_layoutCancel->hide();
    });
    connect(m_canvas->view(), &GraphView::zoomChanged, this, [this](double z) { m_zoomLabel->setText(QString("%1%").arg(qRound(z * 100))); });
}

void MainWindow::restoreSettings() {
    QSettings s;
    if (!restoreGeometry(s.value("window/geometry").toByteArray())) resize(1500, 950);
    if (!restoreState(s.value("window/state").toByteArray())) {
        // First start: give the canvas the room once the window has its size.
        QTimer::singleShot(0, this, [this] {
            auto* timeline = findChild<QDockWidget*>("timelineDock");
            auto* text = findChild<QDockWidget*>("dprintDock");
            auto* insp = findChild<QDockWidget*>("inspectorDock");
            // Wide enough for the rewrite's name beside the change column.
            resizeDocks({timeline, text}, {400, 460}, Qt::Horizontal);
            resizeDocks({text, insp}, {330, 470}, Qt::Vertical);
        });
    }
}

void MainWindow::closeEvent(QCloseEvent* e) {
    QSettings s;
    s.setValue("window/geometry", saveGeometry());
    s.setValue("window/state", saveState());
    m_run->cancel();
    e->accept();
}

void MainWindow::updateActions() {
    const bool open = m_session->isOpen();
    const int k = m_session->currentStep(), n = m_session->stepCount();
    actFirst->setEnabled(open && k > 0);
    actPrevious->setEnabled(open && k > 0);
    actNext->setEnabled(open && k < n);
    actLast->setEnabled(open && k < n);
    actJump->setEnabled(open && n > 0);
    for (QAction* a : {actExportSvg, actExportPng, actExportDot, actExportJson, actExportTrace, actExportDPrint, actRun, actVerify,
                       actExclude, actRelayout, actExpandAll, actCollapseAll, actModeExact, actModePyTensor, actSwitchMode, actCompareStep,
                       actCompareOriginal})
        if (a) a->setEnabled(open);
    if (actCompareOff) actCompareOff->setEnabled(open && m_session->comparisonBase() >= 0);
}

void MainWindow::updateTitle() {
    if (!m_session->isOpen()) {
        setWindowTitle("tensorlens");
        return;
    }
    QString t = m_session->source().isEmpty() ? QString("untitled") : m_session->source();
    if (m_session->stepCount() > 0) t += QString(" \u2014 step %1 of %2").arg(m_session->currentStep()).arg(m_session->stepCount());
    if (auto it = m_session->trace().settings().find("mode"); it != m_session->trace().settings().end())
        t += QString(" (%1 buffers)").arg(QString::fromStdString(it->second));
    setWindowTitle(t + " \u2014 tensorlens");
}

void MainWindow::jumpToStep() {
    bool ok = false;
    const int k = QInputDialog::getInt(this, "Go to step", QString("Step (0 = original, %1 = last):").arg(m_session->stepCount()),
                                       m_session->currentStep(), 0, m_session->stepCount(), 1, &ok);
    if (ok) m_session->setCurrentStep(k);
}

void MainWindow::showShortcuts() {
    QString html = "<table>";
    for (QAction* a : actions()) {
        if (a->shortcuts().isEmpty()) continue;
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
        html += QString("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(keys.join(", ").toHtmlEscaped(), a->text().remove('&').toHtmlEscaped());
    }
    html += "<tr><td><b>wheel / drag</b></td><td>zoom / pan the canvas</td></tr>";
    html += "<tr><td><b>double-click</b></td><td>expand or collapse a Scan, Composite or chain</td></tr></table>";
    auto* box = new QMessageBox(QMessageBox::Information, "Keyboard shortcuts", html, QMessageBox::Close, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::showError(const QString& title, const QString& text) {
    m_lastError = text;
    m_statusLabel->setText(title + ": " + text);
    // Non-modal so a script or test driving the window is never blocked by it.
    auto* box = new QMessageBox(QMessageBox::Critical, title, text, QMessageBox::Ok, this);
    box->setObjectName("errorDialog");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace tl
