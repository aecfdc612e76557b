// main() of a test executable: the application Qt Test would make (a
// QApplication for the widget suites, a QCoreApplication otherwise), then the
// suite named on the command line.
#include "TestSuites.h"

#ifdef TL_TEST_WIDGETS
#include <QApplication>
using TestApplication = QApplication;
#else
#include <QCoreApplication>
using TestApplication = QCoreApplication;
#endif

int main(int argc, char** argv) {
    TestApplication app(argc, argv);
    return tl::test::runSuites(argc, argv);
}
