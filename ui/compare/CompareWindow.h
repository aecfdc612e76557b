#pragma once
// "Compare with tensorlens" (docs/missed.md#in-the-window): PyTensor's and
// tensorlens's steps on one two-lane timeline, the two graphs side by side with
// shared nodes in the same place and the differences marked, the report's
// findings below, and "Export report..." writing the Markdown report with SVGs of
// both graphs.
#include "compare/CompareSession.h"
#include "compare/PyTensorDocument.h"
#include "scene/Highlights.h"

#include <QFutureWatcher>
#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace tl {

class ComparePane;
class CompareTimeline;

class CompareWindow : public QWidget {
    Q_OBJECT
public:
    explicit CompareWindow(QWidget* parent = nullptr);
    ~CompareWindow() override;

    CompareSession* session() const { return m_session; }
    ComparePane* pytensorPane() const { return m_left; }
    ComparePane* tensorlensPane() const { return m_right; }
    CompareTimeline* timeline() const { return m_timeline; }
    QPlainTextEdit* reportView() const { return m_report; }
    QComboBox* tensorlensChoice() const { return m_choice; }
    /// True while the comparison is computed or a side is laid out.
    bool isBusy() const;

    /// Computes the comparison of `doc` (a PyTensor trace, compiled graph or listing) off
    /// the GUI thread, then shows it; `options` as for tensorlens missed.
    void compare(PyTensorDocument doc, CompareOptions options = {});
    /// Shows a comparison computed elsewhere (tests).
    void showComparison(std::shared_ptr<const Comparison> c, std::shared_ptr<const Trace> pytensorTrace);
    /// Writes the Markdown report to `path` with `<stem>-pytensor.svg` and
    /// `<stem>-tensorlens.svg` beside it (the two graphs as shown). Throws std::runtime_error.
    void exportReport(const QString& path);

    /// The last error ("" after a success).
    const QString& lastError() const { return m_error; }

public slots:
    void chooseAndExport();

signals:
    /// The comparison is on screen (both sides laid out).
    void ready();
    void failed(QString message);

private:
    void refresh(int lane);
    bool showsRewritten() const;
    Highlights highlightsFor(int side, const VisualGraph& vg);

    CompareSession* m_session;
    CompareTimeline* m_timeline;
    ComparePane* m_left;
    ComparePane* m_right;
    QComboBox* m_choice;
    QPlainTextEdit* m_report;
    QLabel* m_status;
    QPushButton* m_export;
    QFutureWatcher<std::shared_ptr<const Comparison>>* m_watcher;
    std::shared_ptr<const Trace> m_computingTrace;
    std::shared_ptr<std::string> m_computeError;
    QString m_error;
    bool m_leftShown = false, m_rightShown = false;
};

} // namespace tl
