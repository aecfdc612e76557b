#pragma once
// What every test suite needs: paths into the source tree and its reference
// data (tests/oracle, tests/data), numeric comparison of arrays.
#include "core/NDArray.h"

#include <QString>

#include <string>
#include <vector>

namespace tl::test {

/// Absolute path of a file in the source tree ("resources/examples/seed_rop.json").
std::string sourcePath(const std::string& relative);
/// The PyTensor reference cases, tests/oracle: one folder per case with the
/// PyTensor program (case.py) and what PyTensor 2.34 computed (expected.json).
std::string oracleDir();
/// tests/oracle/<name>/expected.json; empty when there is no case of that name
/// (a built-in example without a PyTensor reference).
std::string oracleCaseFile(const std::string& name);
/// The names of every case in tests/oracle, sorted.
std::vector<std::string> oracleCaseNames();

/// The bug report tensorlens started from, tests/data/missed-scan-rewrites.txt.
std::string seedReportPath();
/// One of the two dprint listings of the seed bug report (1 or 2) as a user would
/// copy it: the first as printed, the second without its `# ` comment prefixes.
/// Throws std::runtime_error naming the file when it cannot be read: the report
/// ships with the tests, so a missing one is a broken checkout, not a skip.
std::string seedDprintListing(int which);

/// Empty when a and b have equal shapes and every element is within
/// rtol*|b| + atol (NaNs equal NaNs); otherwise a message naming the first difference.
std::string compareArrays(const NDArray& a, const NDArray& b, double rtol = 1e-12, double atol = 0.0);

/// The instruction sets of the vectorised functions (ops/VectorMath.h) to test: the
/// one chosen for this CPU first, then every other one it runs.
std::vector<std::string> vectorIsas();

/// Runs the thread pool with `n` threads for a scope.
class ThreadCount {
public:
    explicit ThreadCount(int n);
    ~ThreadCount();
    ThreadCount(const ThreadCount&) = delete;
    ThreadCount& operator=(const ThreadCount&) = delete;

private:
    int m_previous;
};

/// Uses the vectorised functions of one instruction set for a scope.
class IsaScope {
public:
    explicit IsaScope(const std::string& isa);
    ~IsaScope();
    IsaScope(const IsaScope&) = delete;
    IsaScope& operator=(const IsaScope&) = delete;

private:
    std::string m_previous;
};

} // namespace tl::test

/// QVERIFY2 on compareArrays.
#define TL_COMPARE_ARRAYS(a, b, rtol, atol)                                   \
    do {                                                                      \
        const std::string tl_msg_ = ::tl::test::compareArrays(a, b, rtol, atol); \
        QVERIFY2(tl_msg_.empty(), tl_msg_.c_str());                           \
    } while (0)
