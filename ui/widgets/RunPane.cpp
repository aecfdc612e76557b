#include "widgets/RunPane.h"

#include "exec/Executor.h"
#include "io/JsonValues.h"
#include "trace/GraphFacts.h"
#include "trace/StepVerifier.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <optional>

namespace tl {

StepRun runStep(std::unique_ptr<Graph> graph, std::unique_ptr<Graph> original, int step, const std::vector<NDArray>& inputs) {
    StepRun r;
    r.step = step;
    try {
        RunResult ref = runGraph(*original, inputs);
        r.reference = std::move(ref.outputs);
        r.referencePeakBytes = ref.peakBytes;
        RunResult now = runGraph(*graph, inputs);
        r.outputs = std::move(now.outputs);
        r.peakBytes = now.peakBytes;
        for (size_t j = 0; j < r.outputs.size(); ++j) {
            if (j >= r.reference.size() || r.outputs[j].shape() != r.reference[j].shape()) {
                r.maxAbs.push_back(std::numeric_limits<double>::infinity());
                r.maxRel.push_back(std::numeric_limits<double>::infinity());
                continue;
            }
            auto [a, rel] = arrayDifference(r.outputs[j], r.reference[j]);
            r.maxAbs.push_back(a);
            r.maxRel.push_back(rel);
        }
    } catch (const std::exception& e) {
        r.error = e.what();
    }
    return r;
}

namespace {
QString preview(const NDArray& a, int n = 6) {
    if (!a.valid()) return "\u2014";
    const std::vector<double> v = a.toDoubles();
    QStringList parts;
    for (int i = 0; i < static_cast<int>(v.size()) && i < n; ++i) parts << QString::number(v[i], 'g', 6);
    if (static_cast<int>(v.size()) > n) parts << "\u2026";
    return "[" + parts.join(", ") + "]";
}
QString num(double d) { return std::isinf(d) ? QString("\u221e (shapes differ)") : QString::number(d, 'g', 3); }
} // namespace

RunPane::RunPane(RewriteSession* session, QWidget* parent) : QWidget(parent), m_session(session) {
    m_source = new QComboBox(this);
    m_source->addItems({"seeded random", "edited (JSON below)"});
    m_source->setObjectName("inputSource");
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, 1 << 30);
    m_seed->setValue(42);
    m_seed->setPrefix("seed ");
    auto* load = new QPushButton("Load\u2026", this);
    load->setToolTip("Load input values from a JSON file ({\"x_init\": [...]})");
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel("Inputs:", this));
    top->addWidget(m_source);
    top->addWidget(m_seed);
    top->addWidget(load);
    top->addStretch(1);

    m_inputsText = new QPlainTextEdit(this);
    m_inputsText->setObjectName("inputsText");
    m_inputsText->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_inputsText->setMaximumHeight(60);
    m_inputsText->setPlaceholderText("{\"x_init\": [1, 2, 3]}");

    m_runButton = new QPushButton("Run this step", this);
    m_runButton->setToolTip("Run the graph at the current step and the original graph on the same inputs (F9)");
    m_verifyButton = new QPushButton("Verify all steps", this);
    m_verifyButton->setToolTip("Run the graph after every step and stop at the first one whose outputs differ");
    m_cancelButton = new QPushButton("Cancel", this);
    m_cancelButton->setEnabled(false);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName("verifyProgress");
    m_progress->setTextVisible(true);
    m_progress->setValue(0);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_runButton);
    buttons->addWidget(m_verifyButton);
    buttons->addWidget(m_progress, 1);
    buttons->addWidget(m_cancelButton);

    m_outputs = new QTreeWidget(this);
    m_outputs->setObjectName("outputsTree");
    m_outputs->setHeaderLabels({"output", "shape", "values (this step)", "max |\u0394|", "max rel \u0394"});
    m_outputs->setRootIsDecorated(false);
    m_outputs->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_summary = new QLabel(this);
    m_summary->setObjectName("runSummary");
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_outputs->setMinimumHeight(60);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_inputsText);
    layout->addLayout(buttons);
    layout->addWidget(m_summary);
    layout->addWidget(m_outputs, 1);

    connect(m_runButton, &QPushButton::clicked, this, &RunPane::runCurrentStep);
    connect(m_verifyButton, &QPushButton::clicked, this, &RunPane::verifyAllSteps);
    connect(m_cancelButton, &QPushButton::clicked, this, &RunPane::cancel);
    connect(load, &QPushButton::clicked, this, [this] { loadInputsFromFile(); });
    connect(m_seed, &QSpinBox::valueChanged, this, [this] {
        if (m_source->currentIndex() == 0) fillRandomText();
    });
    connect(m_source, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_inputsText->setReadOnly(i == 0);
        m_seed->setEnabled(i == 0);
        if (i == 0) fillRandomText();
    });
    connect(m_session, &RewriteSession::opened, this, [this] {
        cancel();
        m_last.reset();
        m_lastBad = -2;
        m_checks = StepChecks{};
        m_outputs->clear();
        m_summary->clear();
        m_progress->setValue(0);
        m_source->setCurrentIndex(0);
        fillRandomText();
    });
    m_inputsText->setReadOnly(true);
}

RunPane::~RunPane() {
    if (m_cancel) *m_cancel = true;
    if (m_watcher) m_watcher->waitForFinished();
}

bool RunPane::isBusy() const { return m_watcher != nullptr; }

void RunPane::setBusy(bool busy) {
    m_runButton->setEnabled(!busy);
    m_verifyButton->setEnabled(!busy);
    m_cancelButton->setEnabled(busy);
}

void RunPane::fillRandomText() {
    if (!m_session->isOpen()) return;
    try {
        const Graph& g = m_session->trace().original();
        std::vector<NDArray> values = randomInputs(g, static_cast<uint64_t>(m_seed->value()));
        nlohmann::json j = nlohmann::json::object();
        for (size_t i = 0; i < values.size(); ++i) {
            const Variable* in = g.inputs()[i];
            j[in->name().empty() ? "input" + std::to_string(i) : in->name()] = arrayToJson(values[i]);
        }
        m_inputsText->setPlainText(QString::fromStdString(j.dump()));
    } catch (const std::exception& e) {
        m_inputsText->setPlainText(QString("// cannot make random inputs: %1").arg(e.what()));
    }
}

std::vector<NDArray> RunPane::currentInputs() {
    const Graph& g = m_session->trace().original();
    if (m_source->currentIndex() == 0) return randomInputs(g, static_cast<uint64_t>(m_seed->value()));
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(m_inputsText->toPlainText().toStdString());
    } catch (const nlohmann::json::parse_error& e) {
        throw std::runtime_error(std::string("edited inputs: ") + e.what());
    }
    return inputsFromJson(j, g, "edited inputs");
}

void RunPane::loadInputsFromFile(const QString& given) {
    QString path = given;
    if (path.isEmpty()) path = QFileDialog::getOpenFileName(this, "Load input values", {}, "JSON (*.json);;All files (*)");
    if (path.isEmpty()) return;
    try {
        nlohmann::json j = readJsonFile(path.toStdString());
        inputsFromJson(j, m_session->trace().original(), path.toStdString());  // validate now: errors name the file
        m_source->setCurrentIndex(1);
        m_inputsText->setPlainText(QString::fromStdString(j.dump()));
        emit statusMessage("Inputs loaded from " + path);
    } catch (const std::exception& e) {
        m_summary->setText(QString("<span style='color:#c01c28'>%1</span>").arg(QString(e.what()).toHtmlEscaped()));
        emit statusMessage(e.what());
    }
}

std::optional<std::vector<NDArray>> RunPane::inputsOrShowError() {
    try {
        return currentInputs();
    } catch (const std::exception& e) {
        // Bad inputs (a wrong shape, unparsable JSON) are the user's to fix: say where, run nothing.
        m_summary->setText(QString("<span style='color:#c01c28'>%1</span>").arg(QString(e.what()).toHtmlEscaped()));
        return std::nullopt;
    }
}

void RunPane::runCurrentStep() {
    if (!m_session->isOpen() || m_watcher) return;
    std::optional<std::vector<NDArray>> parsed = inputsOrShowError();
    if (!parsed) return;
    std::vector<NDArray> inputs = std::move(*parsed);
    const int step = m_session->currentStep();
    auto graph = m_session->cloneGraphAt(step);
    auto original = m_session->trace().original().clone();
    auto result = std::make_shared<StepRun>();
    setBusy(true);
    m_progress->setRange(0, 0);  // busy indicator
    m_watcher = new QFutureWatcher<void>(this);
    connect(m_watcher, &QFutureWatcher<void>::finished, this, [this, result] {
        m_watcher->deleteLater();
        m_watcher = nullptr;
        m_progress->setRange(0, 1);
        m_progress->setValue(1);
        setBusy(false);
        m_last = std::make_unique<StepRun>(std::move(*result));
        showRun(*m_last);
        emit runFinished();
    });
    // Both graphs are copies owned by the job: stepping meanwhile cannot touch them.
    auto* g = graph.release();
    auto* o = original.release();
    m_watcher->setFuture(QtConcurrent::run([g, o, step, inputs, result] {
        *result = runStep(std::unique_ptr<Graph>(g), std::unique_ptr<Graph>(o), step, inputs);
    }));
}

void RunPane::showRun(const StepRun& r) {
    m_outputs->clear();
    if (!r.error.empty()) {
        m_summary->setText(QString("<span style='color:#c01c28'>Run failed: %1</span>").arg(QString::fromStdString(r.error).toHtmlEscaped()));
        emit statusMessage(QString::fromStdString("Run failed: " + r.error));
        return;
    }
    double worst = 0;
    for (size_t j = 0; j < r.outputs.size(); ++j) {
        const NDArray& a = r.outputs[j];
        auto* item = new QTreeWidgetItem(m_outputs, {QString::number(j), QString::fromStdString(Type::shapeString(a.shape())), preview(a),
                                                     num(r.maxAbs[j]), num(r.maxRel[j])});
        item->setToolTip(2, preview(a, 64));
        worst = std::max(worst, r.maxAbs[j]);
    }
    m_summary->setText(QString("Step %1: peak memory <b>%2</b> (original graph %3); largest difference from the original %4")
                           .arg(r.step)
                           .arg(QString::fromStdString(formatBytes(static_cast<int64_t>(r.peakBytes))),
                                QString::fromStdString(formatBytes(static_cast<int64_t>(r.referencePeakBytes))), num(worst)));
    emit statusMessage(QString("Ran step %1: peak %2").arg(r.step).arg(QString::fromStdString(formatBytes(static_cast<int64_t>(r.peakBytes)))));
}

void RunPane::verifyAllSteps() {
    if (!m_session->isOpen() || m_watcher) return;
    std::optional<std::vector<NDArray>> parsed = inputsOrShowError();
    if (!parsed) return;
    std::vector<NDArray> inputs = std::move(*parsed);
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancelFlag = m_cancel;
    auto result = std::make_shared<StepChecks>();
    const Trace* trace = &m_session->trace();  // opening another file cancels and waits first
    setBusy(true);
    m_progress->setRange(0, m_session->stepCount());
    m_progress->setValue(0);
    m_watcher = new QFutureWatcher<void>(this);
    QPointer<QProgressBar> bar(m_progress);
    connect(m_watcher, &QFutureWatcher<void>::finished, this, [this, result] {
        m_watcher->deleteLater();
        m_watcher = nullptr;
        setBusy(false);
        if (result->cancelled) {
            m_summary->setText("Verification cancelled.");
            emit verifyFinished(-1);
            return;
        }
        m_checks = *result;
        if (!result->error.empty()) {
            m_lastBad = 0;
            m_summary->setText(QString("<span style='color:#c01c28'>%1</span>").arg(QString::fromStdString(result->error).toHtmlEscaped()));
            emit stepsChecked(m_checks);
            emit verifyFinished(0);
            return;
        }
        m_lastBad = result->firstBad();
        QString peaks;
        if (!result->steps.empty())
            peaks = QString("; peak memory %1 (original) \u2192 %2 (last step)")
                        .arg(QString::fromStdString(formatBytes(static_cast<int64_t>(result->originalPeakBytes))),
                             QString::fromStdString(formatBytes(static_cast<int64_t>(result->steps.back().peakBytes))));
        if (m_lastBad < 0) {
            m_progress->setValue(m_progress->maximum());
            m_summary->setText(QString("All %1 steps give the original outputs%2.").arg(m_session->stepCount()).arg(peaks));
        } else {
            const StepCheck& bad = result->steps[static_cast<size_t>(m_lastBad - 1)];
            m_summary->setText(QString("<span style='color:#c01c28'><b>Step %1 differs</b>: %2</span> (max |\u0394| %3; %4 of %5 steps differ)%6")
                                   .arg(m_lastBad)
                                   .arg(QString::fromStdString(bad.message).toHtmlEscaped(), num(bad.maxAbsDiff))
                                   .arg(result->badCount())
                                   .arg(result->steps.size())
                                   .arg(peaks));
            m_session->setCurrentStep(m_lastBad);
        }
        emit stepsChecked(m_checks);
        emit verifyFinished(m_lastBad);
    });
    m_watcher->setFuture(QtConcurrent::run([trace, inputs, result, cancelFlag, bar, this] {
        VerifyOptions opts;
        opts.cancelled = [cancelFlag] { return cancelFlag->load(); };
        opts.onProgress = [bar, this](int done, int total) {
            QMetaObject::invokeMethod(this, [bar, done, total] {
                if (bar) {
                    bar->setMaximum(total);
                    bar->setValue(done);
                }
            }, Qt::QueuedConnection);
        };
        *result = checkEveryStep(*trace, inputs, opts);
    }));
}

void RunPane::cancel() {
    if (m_cancel) *m_cancel = true;
    if (m_watcher) m_watcher->waitForFinished();
}

} // namespace tl
