#include "gui/GuiMain.h"

#include "MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <iostream>

namespace tl::gui {

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
    parser.addOption(example);
    parser.addOption(step);
    parser.process(app);

    MainWindow window;
    window.show();
    // Open after the event loop starts, so the window is up while a big file loads.
    QTimer::singleShot(0, &window, [&] {
        bool ok = true;
        if (parser.isSet(example)) ok = window.openExample(parser.value(example));
        else if (!parser.positionalArguments().isEmpty()) ok = window.openFile(parser.positionalArguments().front());
        if (ok && parser.isSet(step)) window.session()->setCurrentStep(parser.value(step).toInt());
    });
    return app.exec();
}

} // namespace tl::gui
