#pragma once
// Running graphs: inputs (seeded random, edited JSON, or a JSON file), the
// outputs of the current step next to the original graph's with their largest
// differences and both peak memories, and "verify all steps" with progress,
// cancel and a jump to the first step whose outputs differ.
#include "core/NDArray.h"
#include "session/RewriteSession.h"
#include "session/StepChecks.h"

#include <QFutureWatcher>
#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace tl {

/// One run of a step and of the original graph on the same inputs.
struct StepRun {
    int step = 0;
    std::vector<NDArray> outputs, reference;
    size_t peakBytes = 0, referencePeakBytes = 0;
    std::vector<double> maxAbs, maxRel;  // per output
    std::string error;                   // non-empty when a run failed
};

/// Runs graphAt(step) (given as a copy) and the original on `inputs`.
StepRun runStep(std::unique_ptr<Graph> graph, std::unique_ptr<Graph> original, int step, const std::vector<NDArray>& inputs);

class RunPane : public QWidget {
    Q_OBJECT
public:
    RunPane(RewriteSession* session, QWidget* parent = nullptr);
    ~RunPane() override;

    /// The inputs the next run uses; throws with a message naming the place when the edited JSON is bad.
    std::vector<NDArray> currentInputs();
    const StepRun* lastRun() const { return m_last.get(); }
    /// Result of the last "verify all steps": first differing step (-1: none), or -2 before any.
    int lastVerifiedBadStep() const { return m_lastBad; }
    /// Every step of the last "verify all steps" (empty before any).
    const StepChecks& lastChecks() const { return m_checks; }
    bool isBusy() const;
    QTreeWidget* outputsTree() const { return m_outputs; }
    QLabel* summaryLabel() const { return m_summary; }

public slots:
    void runCurrentStep();
    void verifyAllSteps();
    void cancel();
    void loadInputsFromFile(const QString& path = {});

signals:
    void runFinished();
    void verifyFinished(int firstBadStep);
    /// Every step was checked (not emitted when cancelled).
    void stepsChecked(const StepChecks& checks);
    void statusMessage(const QString& text);

private:
    /// currentInputs(), or nullopt after showing why they cannot be used.
    std::optional<std::vector<NDArray>> inputsOrShowError();
    void fillRandomText();
    void showRun(const StepRun& run);
    void setBusy(bool busy);

    RewriteSession* m_session;
    QComboBox* m_source;
    QSpinBox* m_seed;
    QPlainTextEdit* m_inputsText;
    QPushButton* m_runButton;
    QPushButton* m_verifyButton;
    QPushButton* m_cancelButton;
    QProgressBar* m_progress;
    QTreeWidget* m_outputs;
    QLabel* m_summary;
    std::unique_ptr<StepRun> m_last;
    int m_lastBad = -2;
    StepChecks m_checks;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFutureWatcher<void>* m_watcher = nullptr;
};

} // namespace tl
