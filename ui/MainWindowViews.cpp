// MainWindow: the buffer mode (exact / pytensor) and its one-key switch,
// comparing the current step with another position, and where verification
// results are shown (the Run pane, a notice above the canvas, marks in the timeline).
#include "MainWindow.h"

#include "session/FileLoader.h"
#include "session/StepChecks.h"
#include "widgets/GraphCanvas.h"
#include "widgets/NoticeBar.h"
#include "widgets/RunPane.h"
#include "widgets/TimelinePane.h"

#include <QAction>
#include <QActionGroup>
#include <QGuiApplication>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QToolBar>

namespace tl {

namespace {
QMenu* menuTitled(QMenuBar* bar, const QString& title) {
    for (QAction* a : bar->actions())
        if (a->menu() && a->text() == title) return a->menu();
    return nullptr;
}

// The n-th step (1-based occurrence) of `rewrite` in `steps`, or -1.
int occurrenceOf(const std::vector<TraceStep>& steps, const std::string& rewrite, int n) {
    for (size_t i = 0; i < steps.size(); ++i)
        if (steps[i].rewrite == rewrite && --n == 0) return static_cast<int>(i) + 1;
    return -1;
}
} // namespace

void MainWindow::createViewActions() {
    auto make = [this](const QString& text, const QList<QKeySequence>& keys, const QString& name, auto slot) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        a->setShortcuts(keys);
        if (!keys.isEmpty()) a->setToolTip(text + " (" + keys.front().toString(QKeySequence::NativeText) + ")");
        a->setShortcutContext(Qt::WindowShortcut);
        addAction(a);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    actModeExact = make("Scan buffers: &exact", {}, "actModeExact", [this] { showInBufferMode(BufferMode::Exact); });
    actModeExact->setToolTip("Size Scan buffers to the proven-safe minimum (x[-1] of a trace: 1 row)");
    actModePyTensor = make("Scan buffers: &PyTensor", {}, "actModePyTensor", [this] { showInBufferMode(BufferMode::PyTensor); });
    actModePyTensor->setToolTip("Size Scan buffers as PyTensor's C backend does (one extra row where buffers are reused: 2 rows)");
    for (QAction* a : {actModeExact, actModePyTensor}) a->setCheckable(true);
    auto* group = new QActionGroup(this);
    group->addAction(actModeExact);
    group->addAction(actModePyTensor);
    actSwitchMode = make("Show this step in the other buffer mode", {QKeySequence(Qt::Key_B)}, "actSwitchMode", [this] { switchBufferMode(); });
    actCompareStep = make("Compare with step\u2026", {QKeySequence("Ctrl+K")}, "actCompareStep", [this] { chooseComparison(); });
    actCompareOriginal = make("Compare with the original graph", {QKeySequence("Ctrl+Shift+K")}, "actCompareOriginal", [this] { compareWith(0); });
    actCompareOff = make("Stop comparing", {QKeySequence(Qt::Key_Escape)}, "actCompareOff", [this] { compareWith(-1); });
    if (QMenu* run = menuTitled(menuBar(), "&Run")) {
        run->addSeparator();
        run->addAction(actModeExact);
        run->addAction(actModePyTensor);
        run->addAction(actSwitchMode);
    }
    if (QMenu* step = menuTitled(menuBar(), "&Step")) {
        step->addSeparator();
        step->addAction(actCompareStep);
        step->addAction(actCompareOriginal);
        step->addAction(actCompareOff);
    }
    if (auto* tb = findChild<QToolBar*>("mainToolBar")) {
        tb->addSeparator();
        tb->addAction(actSwitchMode);
    }
    connect(m_canvas->notices(), &NoticeBar::linkActivated, this, &MainWindow::onNoticeLink);
    connect(m_run, &RunPane::stepsChecked, this, &MainWindow::showChecks);
    connect(m_session, &RewriteSession::opened, this, [this] {
        m_canvas->notices()->dismiss("verify");
        m_canvas->notices()->dismiss("compare");
        updateModeActions();
    });
    connect(m_session, &RewriteSession::comparisonChanged, this, [this] { updateActions(); });
    updateModeActions();
}

void MainWindow::updateModeActions() {
    // The mode of what is shown: the trace says how it was recorded.
    BufferMode shown = m_mode;
    if (m_session->isOpen())
        if (auto it = m_session->trace().settings().find("mode"); it != m_session->trace().settings().end())
            shown = it->second == "pytensor" ? BufferMode::PyTensor : BufferMode::Exact;
    actModeExact->setChecked(shown == BufferMode::Exact);
    actModePyTensor->setChecked(shown == BufferMode::PyTensor);
    actSwitchMode->setText(shown == BufferMode::Exact ? "Buffers: exact \u2192 PyTensor (B)" : "Buffers: PyTensor \u2192 exact (B)");
    actSwitchMode->setToolTip("Show this step with Scan buffers sized the other way (B)");
}

void MainWindow::setBufferMode(BufferMode mode) {
    m_mode = mode;
    updateModeActions();
}

bool MainWindow::switchBufferMode() {
    if (!m_session->isOpen()) return false;
    BufferMode shown = m_mode;
    if (auto it = m_session->trace().settings().find("mode"); it != m_session->trace().settings().end())
        shown = it->second == "pytensor" ? BufferMode::PyTensor : BufferMode::Exact;
    return showInBufferMode(shown == BufferMode::Exact ? BufferMode::PyTensor : BufferMode::Exact);
}

bool MainWindow::showInBufferMode(BufferMode mode) {
    m_mode = mode;
    if (!m_session->isOpen()) {
        updateModeActions();
        return false;
    }
    // The same step there: the same occurrence of the same rewrite (the two runs
    // differ only where buffers are sized), else the same number.
    const int k = m_session->currentStep();
    std::string rewrite;
    int occurrence = 0;
    if (k > 0) {
        rewrite = m_session->step(k).rewrite;
        for (int i = 1; i <= k; ++i) occurrence += m_session->step(i).rewrite == rewrite;
    }
    std::set<std::string> exclude;
    if (auto it = m_session->trace().settings().find("exclude"); it != m_session->trace().settings().end())
        for (const QString& part : QString::fromStdString(it->second).split(QRegularExpression("[,\\s]+"), Qt::SkipEmptyParts))
            exclude.insert(part.toStdString());
    std::unique_ptr<Trace> trace;
    try {
        QGuiApplication::setOverrideCursor(Qt::WaitCursor);
        trace = rewriteToTrace(m_session->trace().original(), exclude, mode == BufferMode::PyTensor);
        QGuiApplication::restoreOverrideCursor();
    } catch (const std::exception& e) {
        QGuiApplication::restoreOverrideCursor();
        showError("Re-running the pipeline failed", QString::fromUtf8(e.what()));
        updateModeActions();
        return false;
    }
    int target = k;
    if (k > 0) {
        const int same = occurrenceOf(trace->steps(), rewrite, occurrence);
        target = same > 0 ? same : std::min<int>(k, static_cast<int>(trace->size()));
    }
    const std::vector<NodeRef> selection = m_session->selectedRefs();
    m_canvas->keepPictureOnNextOpen();
    m_session->openTrace(std::move(trace), m_session->source());
    m_session->setCurrentStep(target);
    m_session->setSelectedRefs(selection);
    updateModeActions();
    updateTitle();
    const QString name = mode == BufferMode::PyTensor ? "PyTensor" : "exact";
    m_statusLabel->setText(QString("Step %1 with %2 Scan buffers (B switches back)").arg(target).arg(name));
    return true;
}

void MainWindow::compareWith(int base) {
    if (!m_session->isOpen()) return;
    m_session->setComparisonBase(base);
    NoticeBar* bar = m_canvas->notices();
    if (m_session->comparisonBase() < 0) {
        bar->dismiss("compare");
        return;
    }
    const QString what = base == 0 ? QString("the original graph") : QString("step %1").arg(base);
    bar->showNotice("compare", NoticeBar::Kind::Info,
                    QString("Comparing with <b>%1</b>: the canvas highlights everything that changed from %1 to the step shown. "
                            "<a href='step:%2'>Go to %1</a> \u00b7 <a href='compare:off'>Stop comparing</a> (Esc)")
                        .arg(what)
                        .arg(base));
}

void MainWindow::chooseComparison() {
    if (!m_session->isOpen()) return;
    bool ok = false;
    const int base = QInputDialog::getInt(this, "Compare with step",
                                          QString("Highlight what changed from step (0 = original, %1 = last) to the step shown:").arg(m_session->stepCount()),
                                          m_session->comparisonBase() >= 0 ? m_session->comparisonBase() : 0, 0, m_session->stepCount(), 1, &ok);
    if (ok) compareWith(base);
}

void MainWindow::onNoticeLink(const QString& link) {
    if (link.startsWith("step:")) m_session->setCurrentStep(link.mid(5).toInt());
    else if (link == "compare:off") compareWith(-1);
    else if (link == "verify:rerun") m_run->verifyAllSteps();
}

void MainWindow::showChecks(const StepChecks& checks) {
    NoticeBar* bar = m_canvas->notices();
    std::map<int, QString> failed;
    for (const StepCheck& c : checks.steps)
        if (!c.ok) failed[c.step] = QString::fromStdString(c.message);
    m_timeline->setFailedSteps(failed);
    if (!checks.error.empty()) {
        bar->showNotice("verify", NoticeBar::Kind::Error, QString::fromStdString(checks.error).toHtmlEscaped());
        return;
    }
    const int first = checks.firstBad();
    if (first < 0) {
        bar->showNotice("verify", NoticeBar::Kind::Success,
                        QString("Verified: all %1 steps keep the outputs of the original graph (same inputs, seeded). "
                                "<a href='verify:rerun'>Verify again</a>")
                            .arg(checks.steps.size()));
        return;
    }
    const StepCheck& bad = checks.steps[static_cast<size_t>(first - 1)];
    QString html = QString("<b>Step %1 changes the outputs</b>: %2. <a href='step:%1'>Show step %1</a>")
                       .arg(first)
                       .arg(QString::fromStdString(bad.message).toHtmlEscaped());
    if (checks.badCount() > 1) html += QString(" \u00b7 %1 of %2 steps differ (marked in the timeline)").arg(checks.badCount()).arg(checks.steps.size());
    bar->showNotice("verify", NoticeBar::Kind::Error, html);
}

} // namespace tl
