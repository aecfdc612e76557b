#include "TestSupport.h"

#include <cmath>
#include <filesystem>
#include <sstream>

namespace tl::test {

std::string sourcePath(const std::string& relative) { return std::string(TL_SOURCE_DIR) + "/" + relative; }

std::string sharedPath(const std::string& relative) {
    std::filesystem::path p = std::filesystem::path(TL_SHARED_DIR) / relative;
    return std::filesystem::exists(p) ? p.string() : std::string();
}

std::string compareArrays(const NDArray& a, const NDArray& b, double rtol, double atol) {
    if (a.shape() != b.shape())
        return "shapes differ: " + shapeToString(a.shape()) + " vs " + shapeToString(b.shape());
    for (int64_t i = 0; i < a.size(); ++i) {
        double x = a.flatGet(i), y = b.flatGet(i);
        if (std::isnan(x) && std::isnan(y)) continue;
        if (x == y) continue;
        if (!(std::fabs(x - y) <= atol + rtol * std::fabs(y))) {
            std::ostringstream os;
            os.precision(17);
            os << "element " << i << " differs: " << x << " vs " << y;
            return os.str();
        }
    }
    return {};
}

} // namespace tl::test
