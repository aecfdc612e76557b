#include "compare/CompareWindow.h"

#include "compare/CompareHighlights.h"
#include "compare/ComparePane.h"
#include "compare/CompareTimeline.h"
#include "compare/Report.h"
#include "export/Export.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <fstream>

namespace tl {

CompareWindow::CompareWindow(QWidget* parent)
    : QWidget(parent, Qt::Window), m_session(new CompareSession(this)), m_timeline(new CompareTimeline(m_session, this)),
      m_left(new ComparePane("PyTensor", this)), m_right(new ComparePane("tensorlens", this)), m_choice(new QComboBox(this)),
      m_report(new QPlainTextEdit(this)), m_status(new QLabel(this)), m_export(new QPushButton("Export report...", this)),
      m_watcher(new QFutureWatcher<std::shared_ptr<const Comparison>>(this)) {
    setObjectName("compareWindow");
    setWindowTitle("Compare with tensorlens");
    m_choice->setObjectName("tensorlensChoice");
    m_choice->addItem("tensorlens on PyTensor's original graph");
    m_choice->addItem("tensorlens on PyTensor's compiled graph");
    m_choice->setToolTip("The right side shows tensorlens's own result, or what it makes of PyTensor's result");
    m_right->addTitleWidget(m_choice);
    m_report->setReadOnly(true);
    m_report->setObjectName("compareReport");
    m_report->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_report->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_export->setObjectName("exportReport");
    m_export->setEnabled(false);

    auto* sides = new QSplitter(Qt::Horizontal, this);
    sides->addWidget(m_left);
    sides->addWidget(m_right);
    // Two halves of equal width: the right side's header (its choice) must not widen it.
    sides->setStretchFactor(0, 1);
    sides->setStretchFactor(1, 1);
    sides->setSizes({1000, 1000});
    auto* vertical = new QSplitter(Qt::Vertical, this);
    vertical->addWidget(sides);
    vertical->addWidget(m_report);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 1);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_status, 1);
    bottom->addWidget(m_export);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_timeline);
    layout->addWidget(vertical, 1);
    layout->addLayout(bottom);
    resize(1500, 950);

    connect(m_session, &CompareSession::positionChanged, this, [this](int lane) { refresh(lane); });
    connect(m_choice, &QComboBox::currentIndexChanged, this, [this] { refresh(CompareSession::TensorlensLane); });
    connect(m_export, &QPushButton::clicked, this, &CompareWindow::chooseAndExport);
    connect(m_left, &ComparePane::shown, this, [this] {
        m_leftShown = true;
        refresh(CompareSession::TensorlensLane);  // the right side starts from the left's positions
    });
    connect(m_right, &ComparePane::shown, this, [this] {
        m_rightShown = true;
        m_status->setText("PyTensor: " + m_session->positionText(CompareSession::PyTensorLane) + "    tensorlens: " +
                          m_session->positionText(CompareSession::TensorlensLane) + "    (" + m_right->placement() + ")");
        if (m_leftShown) emit ready();
    });
    connect(m_watcher, &QFutureWatcher<std::shared_ptr<const Comparison>>::finished, this, [this] {
        std::shared_ptr<const Comparison> c = m_watcher->result();
        if (!c) {
            m_error = "the comparison failed: " + QString::fromStdString(m_computeError ? *m_computeError : std::string());
            m_status->setText(m_error);
            emit failed(m_error);
            return;
        }
        showComparison(c, m_computingTrace);
    });
}

CompareWindow::~CompareWindow() { m_watcher->waitForFinished(); }

bool CompareWindow::isBusy() const {
    return m_watcher->isRunning() || m_left->isLayoutPending() || m_right->isLayoutPending();
}

void CompareWindow::compare(PyTensorDocument doc, CompareOptions options) {
    m_error.clear();
    m_status->setText("Comparing: running tensorlens's pipeline on PyTensor's graphs...");
    auto shared = std::make_shared<PyTensorDocument>(std::move(doc));
    m_computingTrace = shared->trace ? std::shared_ptr<const Trace>(std::move(shared->trace)) : nullptr;
    auto trace = m_computingTrace;
    m_computeError = std::make_shared<std::string>();
    auto error = m_computeError;
    m_watcher->setFuture(QtConcurrent::run([shared, trace, options, error]() -> std::shared_ptr<const Comparison> {
        try {
            auto c = std::make_shared<Comparison>(trace ? compareWithPyTensor(*trace, options)
                                                        : compareCompiledGraph(*shared->compiled, options));
            c->program = shared->name;
            return c;
        } catch (const std::exception& e) {
            *error = e.what();  // the worker's exception, for the window's message
            return nullptr;
        }
    }));
}

void CompareWindow::showComparison(std::shared_ptr<const Comparison> c, std::shared_ptr<const Trace> pytensorTrace) {
    m_leftShown = m_rightShown = false;
    const bool both = c->tensorlensFinal != nullptr;
    m_choice->setEnabled(both);
    m_choice->setCurrentIndex(both ? 0 : 1);
    m_report->setPlainText(QString::fromStdString(comparisonText(*c)));
    m_export->setEnabled(true);
    setWindowTitle("Compare with tensorlens" + (c->program.empty() ? QString() : " \u2014 " + QString::fromStdString(c->program)));
    m_session->open(std::move(c), std::move(pytensorTrace));
    refresh(CompareSession::PyTensorLane);
}

bool CompareWindow::showsRewritten() const {
    return !m_session->comparison().tensorlensFinal || m_choice->currentIndex() == 1;
}

Highlights CompareWindow::highlightsFor(int side, const VisualGraph& vg) {
    const Comparison& c = m_session->comparison();
    const bool rewritten = showsRewritten();
    const Graph& left = m_session->graph(CompareSession::PyTensorLane);
    const Graph* right = rewritten ? c.pytensorFinalRewritten.get() : &m_session->graph(CompareSession::TensorlensLane);
    if (!right) right = &left;
    const bool leftAtEnd = m_session->position(CompareSession::PyTensorLane) == m_session->finalPosition(CompareSession::PyTensorLane);
    const bool rightAtEnd = rewritten || m_session->atEnd(CompareSession::TensorlensLane);
    if (side == 0)
        return comparisonHighlights(c, left, *right, vg, CompareSide::PyTensor, leftAtEnd, rewritten,
                                    m_session->positionText(CompareSession::PyTensorLane));
    const QString title = rewritten ? QString("tensorlens on PyTensor's compiled graph (%1 missed rewrites)").arg(countMissed(c.missed))
                                    : m_session->positionText(CompareSession::TensorlensLane);
    return comparisonHighlights(c, *right, left, vg, CompareSide::Tensorlens, rightAtEnd, rewritten, title);
}

void CompareWindow::refresh(int lane) {
    if (!m_session->isOpen()) return;
    if (lane == CompareSession::PyTensorLane) {
        m_leftShown = false;
        m_left->showGraph(m_session->graph(CompareSession::PyTensorLane), [this](const VisualGraph& vg) { return highlightsFor(0, vg); });
        return;  // the right side follows once the left is placed
    }
    if (!m_leftShown || !m_left->scene()->visualGraph()) return;
    const Comparison& c = m_session->comparison();
    const Graph& left = m_session->graph(CompareSession::PyTensorLane);
    const Graph* right = showsRewritten() ? c.pytensorFinalRewritten.get() : &m_session->graph(CompareSession::TensorlensLane);
    if (!right) right = &left;
    // The rebuilt loops of the right side start where the loops they were cloned from are.
    PlacementHints hints = provenanceHints(left, *right, showsRewritten() ? c.missedTrace.get() : c.tensorlensTrace.get());
    const PositionCache start = sharedPositions(*m_left->scene()->visualGraph(), m_left->scene()->layout(), left, *right, hints);
    m_rightShown = false;
    m_right->showGraph(*right, [this](const VisualGraph& vg) { return highlightsFor(1, vg); }, &start, std::move(hints));
}

void CompareWindow::exportReport(const QString& path) {
    if (!m_session->isOpen()) throw std::runtime_error("nothing to export: no comparison is open");
    const QFileInfo info(path);
    const QString stem = info.completeBaseName();
    const QString ptSvg = stem + "-pytensor.svg", tlSvg = stem + "-tensorlens.svg";
    exportSceneToSvg(*m_left->scene(), info.dir().filePath(ptSvg), "PyTensor's compiled graph");
    exportSceneToSvg(*m_right->scene(), info.dir().filePath(tlSvg), "tensorlens");
    MarkdownOptions mo;
    mo.pytensorImage = ptSvg.toStdString();
    mo.tensorlensImage = tlSvg.toStdString();
    const std::string text = comparisonMarkdown(m_session->comparison(), mo);
    std::ofstream out(path.toStdString(), std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(path.toStdString() + ": cannot open the file for writing");
    out << text;
    if (!out) throw std::runtime_error(path.toStdString() + ": writing failed");
}

void CompareWindow::chooseAndExport() {
    const QString path = QFileDialog::getSaveFileName(this, "Export report", "missed-rewrites.md", "Markdown (*.md)");
    if (path.isEmpty()) return;
    try {
        exportReport(path);
        m_error.clear();
        m_status->setText("Wrote " + path);
    } catch (const std::exception& e) {
        m_error = QString::fromStdString(e.what());
        QMessageBox::warning(this, "Export report", m_error);
    }
}

} // namespace tl
