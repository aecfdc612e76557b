#pragma once
// Helpers shared by the test suites: paths, numeric comparison of arrays.
#include "core/NDArray.h"

#include <QString>

#include <string>
#include <vector>

namespace tl::test {

/// Absolute path of a file in the source tree ("resources/examples/seed_rop.json").
std::string sourcePath(const std::string& relative);
/// Absolute path under ../shared (oracle cases, seed); empty when shared/ is absent.
std::string sharedPath(const std::string& relative);

/// One of the two dprint listings of the seed bug report (1 or 2) as a user would
/// copy it: the first as printed, the second without its `# ` comment prefixes.
/// Empty when shared/ is absent.
std::string seedDprintListing(int which);

/// Empty when a and b have equal shapes and every element is within
/// rtol*|b| + atol (NaNs equal NaNs); otherwise a message naming the first difference.
std::string compareArrays(const NDArray& a, const NDArray& b, double rtol = 1e-12, double atol = 0.0);

} // namespace tl::test

/// QVERIFY2 on compareArrays.
#define TL_COMPARE_ARRAYS(a, b, rtol, atol)                                   \
    do {                                                                      \
        const std::string tl_msg_ = ::tl::test::compareArrays(a, b, rtol, atol); \
        QVERIFY2(tl_msg_.empty(), tl_msg_.c_str());                           \
    } while (0)
