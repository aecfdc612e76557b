#include "gui/GuiMain.h"

#include "MainWindow.h"
#include "compare/CompareWindow.h"
#include "widgets/GraphCanvas.h"
#include "widgets/GraphView.h"
#include "widgets/RunPane.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <algorithm>
#include <iostream>
#include <functional>
#include <memory>

namespace tl::gui {

namespace {
// Waits for the canvas to show a finished layout, then runs `then` once.
void afterLayout(MainWindow& w, std::function<void()> then) {
    auto fired = std::make_shared<bool>(false);
    auto conn = std::make_shared<QMetaObject::Connection>();
    *conn = QObject::connect(w.canvas(), &GraphCanvas::layoutReady, &w, [fired, conn, then] {
        if (*fired) return;
        *fired = true;
        QObject::disconnect(*conn);
        // One more turn of the event loop so the view has painted.
        QTimer::singleShot(300, then);
    });
}
} // namespace

int runGui(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("tensorlens");
    QApplication::setApplicationName("tensorlens");
    QApplication::setApplicationVersion("0.1.0");

    QCommandLineParser parser;
    parser.setApplicationDescription("tensorlens: step through every rewrite of a tensor graph");
    parser.addHelpOption();
    parser.addPositionalArgument("file", "A JSON graph, a JSON trace or dprint text to open.", "[FILE]");
    QCommandLineOption example("example", "Open the built-in example NAME.", "NAME");
    QCommandLineOption step("step", "Go to step N after opening.", "N");
    QCommandLineOption select("select", "Select node ID after opening (shows it in the inspector).", "ID");
    QCommandLineOption screenshot("screenshot", "Save a picture of the window to FILE once the graph is drawn, then quit.", "FILE");
    QCommandLineOption size("size", "Window size WIDTHxHEIGHT.", "WxH");
    QCommandLineOption mode("mode", "Scan buffer sizing when rewriting: exact (default, the proven-safe minimum) or pytensor "
                                    "(as PyTensor's C backend). B switches in the window.",
                            "MODE");
    QCommandLineOption verify("verify", "Verify all steps after opening (and --step); --screenshot then waits for the verdict.");
    QCommandLineOption compare("compare", "Compare a PyTensor trace, compiled graph or listing with tensorlens (docs/missed.md).", "FILE");
    for (const QCommandLineOption& o : {example, step, select, screenshot, size, mode, verify, compare}) parser.addOption(o);
    parser.process(app);

    MainWindow window;
    if (parser.isSet(mode)) {
        const QString m = parser.value(mode);
        if (m != "exact" && m != "pytensor") {
            std::cerr << "tensorlens: --mode must be exact or pytensor, got '" << m.toStdString() << "'\n";
            return 2;
        }
        window.setBufferMode(m == "pytensor" ? MainWindow::BufferMode::PyTensor : MainWindow::BufferMode::Exact);
    }
    if (parser.isSet(size)) {
        const QStringList wh = parser.value(size).split('x');
        bool okW = false, okH = false;
        const int w = wh.size() == 2 ? wh[0].toInt(&okW) : 0, h = wh.size() == 2 ? wh[1].toInt(&okH) : 0;
        if (!okW || !okH || w < 200 || h < 150 || w > 16384 || h > 16384) {
            std::cerr << "tensorlens: --size wants WIDTHxHEIGHT between 200x150 and 16384x16384, got '"
                      << parser.value(size).toStdString() << "'\n";
            return 2;
        }
        window.resize(w, h);
    }
    window.show();
    if (parser.isSet(compare)) {
        // The comparison window stands alone; --screenshot pictures it once both sides are drawn.
        QTimer::singleShot(0, &window, [&] {
            CompareWindow* cw = window.compareWithTensorlens(parser.value(compare));
            if (!cw) {
                QApplication::exit(1);
                return;
            }
            if (parser.isSet(size)) cw->resize(window.size());
            if (!parser.isSet(screenshot)) return;
            QObject::connect(cw, &CompareWindow::failed, cw, [](const QString& m) {
                std::cerr << "tensorlens: " << m.toStdString() << "\n";
                QApplication::exit(1);
            });
            QObject::connect(cw, &CompareWindow::ready, cw, [&, cw] {
                QTimer::singleShot(600, cw, [&, cw] {
                    const bool saved = cw->grab().save(parser.value(screenshot));
                    if (!saved) std::cerr << "tensorlens: cannot write " << parser.value(screenshot).toStdString() << "\n";
                    QApplication::exit(saved ? 0 : 1);
                });
            });
        });
        return app.exec();
    }
    // Open after the event loop starts, so the window is up while a big file loads.
    QTimer::singleShot(0, &window, [&] {
        bool ok = true;
        // Steps are taken after the first picture is drawn, as a user would, so
        // positions carry over and erased nodes stay where they were.
        if (parser.isSet(step) || parser.isSet(select) || parser.isSet(screenshot) || parser.isSet(verify)) {
            afterLayout(window, [&] {
                auto picture = [&] {
                    if (!parser.isSet(screenshot)) return;
                    // The picture shows the whole graph, whatever the step added at the sides.
                    window.canvas()->view()->fit();
                    QTimer::singleShot(parser.isSet(step) || parser.isSet(verify) ? 600 : 0, &window, [&] {
                        const bool saved = window.grab().save(parser.value(screenshot));
                        if (!saved) std::cerr << "tensorlens: cannot write " << parser.value(screenshot).toStdString() << "\n";
                        QApplication::exit(saved ? 0 : 1);
                    });
                };
                auto finish = [&, picture] {
                    if (parser.isSet(select)) window.session()->setSelection({parser.value(select).toLongLong()});
                    if (!parser.isSet(verify)) {
                        picture();
                        return;
                    }
                    // As Shift+F9 does; the picture once the verdict is above the canvas.
                    QObject::connect(window.runPane(), &RunPane::verifyFinished, &window, [picture](int) { picture(); }, Qt::SingleShotConnection);
                    if (QAction* a = window.findChild<QAction*>("actVerify")) a->trigger();
                };
                if (!parser.isSet(step)) {
                    finish();
                    return;
                }
                const int target = std::clamp(parser.value(step).toInt(), 0, window.session()->stepCount());
                // One step at a time, each once the previous one is drawn, as → would:
                // a step drawn from its neighbour's picture keeps that picture's positions.
                // (The function holds itself weakly; a pending layout's callback holds it.)
                auto next = std::make_shared<std::function<void(int)>>();
                *next = [&, target, finish, self = std::weak_ptr(next)](int k) {
                    for (; k <= target; ++k) {
                        window.session()->setCurrentStep(k);
                        if (window.canvas()->isLayoutPending()) {
                            afterLayout(window, [again = self.lock(), k] { (*again)(k + 1); });
                            return;
                        }
                    }
                    finish();
                };
                (*next)(1);
            });
        }
        if (parser.isSet(example)) ok = window.openExample(parser.value(example));
        else if (!parser.positionalArguments().isEmpty()) ok = window.openFile(parser.positionalArguments().front());
        if (!ok && parser.isSet(screenshot)) QTimer::singleShot(500, [] { QApplication::exit(1); });
    });
    return app.exec();
}

} // namespace tl::gui
