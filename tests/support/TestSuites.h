#pragma once
// The suites of one test executable. Each tst_*.cpp registers its test class
// under its file's name (TL_TEST_SUITE at the end of the file, where Qt Test's
// QTEST_MAIN would be); the executable runs the suite named on its command line,
// so CTest still runs, reports and times every suite on its own, in its own
// process, while the build links one executable per folder instead of one per
// suite (most of a sanitizer build's time).
#include <QObject>

#include <memory>

namespace tl::test {

using SuiteFactory = std::unique_ptr<QObject> (*)();

/// Registers a suite; returns true so it can initialise a static.
bool registerSuite(const char* file, SuiteFactory make);

/// `exe SUITE [Qt Test arguments...]` runs one suite; `exe --list` prints the names.
int runSuites(int argc, char** argv);

} // namespace tl::test

#define TL_TEST_SUITE(TestClass)                                                                        \
    namespace {                                                                                         \
    const bool registered##TestClass = ::tl::test::registerSuite(                                        \
        __FILE__, []() -> std::unique_ptr<QObject> { return std::make_unique<TestClass>(); });           \
    }
