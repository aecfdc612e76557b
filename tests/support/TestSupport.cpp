#include "TestSupport.h"

#include "core/ThreadPool.h"
#include "ops/VectorMath.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tl::test {

std::string sourcePath(const std::string& relative) { return std::string(TL_SOURCE_DIR) + "/" + relative; }

std::string oracleDir() { return std::string(TL_TESTS_DIR) + "/oracle"; }

std::string oracleCaseFile(const std::string& name) {
    const std::filesystem::path p = std::filesystem::path(oracleDir()) / name / "expected.json";
    return std::filesystem::exists(p) ? p.string() : std::string();
}

std::vector<std::string> oracleCaseNames() {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(oracleDir()))
        if (entry.is_directory() && std::filesystem::exists(entry.path() / "expected.json"))
            names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::string seedReportPath() { return std::string(TL_TESTS_DIR) + "/data/missed-scan-rewrites.txt"; }

std::string seedDprintListing(int which) {
    const std::string path = seedReportPath();
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot be read");
    std::string out;
    bool on = false;
    for (std::string l; std::getline(in, l);) {
        if (which == 1) {
            // From the printed root to the "•" remarks that follow the listing.
            if (l.rfind("Subtensor{i} [id A]", 0) == 0) on = true;
            if (on && l.rfind("\u2022", 0) == 0) break;
            if (on) out += l + "\n";
        } else {
            // The listing printed as Python comments after the dprint call.
            if (l.rfind("func.dprint(print_shape=True", 0) == 0) on = true;
            else if (on && l.rfind("# ", 0) == 0) out += l.substr(2) + "\n";
            else if (on && !out.empty()) break;
        }
    }
    return out;
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

std::vector<std::string> vectorIsas() {
    std::vector<std::string> v = {vmath::isaName()};
    for (const char* isa : vmath::availableIsas())
        if (v[0] != isa) v.push_back(isa);
    return v;
}

ThreadCount::ThreadCount(int n) : m_previous(ThreadPool::instance().setThreads(n)) {}
ThreadCount::~ThreadCount() { ThreadPool::instance().setThreads(m_previous); }

IsaScope::IsaScope(const std::string& isa) : m_previous(vmath::isaName()) { vmath::selectIsa(isa.c_str()); }
IsaScope::~IsaScope() { vmath::selectIsa(m_previous.c_str()); }

} // namespace tl::test
