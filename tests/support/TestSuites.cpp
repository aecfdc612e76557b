#include "TestSuites.h"

#include <QTest>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace tl::test {

namespace {
std::map<std::string, SuiteFactory>& suites() {
    static std::map<std::string, SuiteFactory> s;
    return s;
}

// "/path/to/tst_graph.cpp" -> "tst_graph"
std::string suiteName(const char* file) {
    std::string s(file);
    if (auto slash = s.find_last_of('/'); slash != std::string::npos) s = s.substr(slash + 1);
    if (auto dot = s.find('.'); dot != std::string::npos) s = s.substr(0, dot);
    return s;
}
} // namespace

bool registerSuite(const char* file, SuiteFactory make) {
    suites()[suiteName(file)] = make;
    return true;
}

int runSuites(int argc, char** argv) {
    if (argc < 2 || std::string(argv[1]) == "--list") {
        for (const auto& [name, make] : suites()) std::printf("%s\n", name.c_str());
        return argc < 2 ? 2 : 0;
    }
    auto it = suites().find(argv[1]);
    if (it == suites().end()) {
        std::fprintf(stderr, "no test suite '%s' in this executable (--list shows them)\n", argv[1]);
        return 2;
    }
    // Qt Test sees the executable name followed by its own arguments.
    std::vector<char*> args{argv[0]};
    for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
    std::unique_ptr<QObject> suite = it->second();
    return QTest::qExec(suite.get(), static_cast<int>(args.size()), args.data());
}

} // namespace tl::test
