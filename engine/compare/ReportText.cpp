// The terminal table of `tensorlens missed`.
#include "compare/Report.h"

#include "compare/ReportParts.h"

#include <algorithm>
#include <sstream>

namespace tl {

namespace {

// Display width of UTF-8 text (each code point one column: the arrows are one).
size_t width(const std::string& s) {
    size_t n = 0;
    for (unsigned char ch : s) n += (ch & 0xC0) != 0x80;
    return n;
}

void printTable(std::ostringstream& os, const report::Table& t, const std::string& indent) {
    std::vector<size_t> w(t.header.size(), 0);
    auto fit = [&](const std::vector<std::string>& r) {
        for (size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], width(r[i]));
    };
    fit(t.header);
    for (const auto& r : t.rows) fit(r);
    auto line = [&](const std::vector<std::string>& r) {
        std::string s = indent;
        for (size_t i = 0; i < r.size() && i < w.size(); ++i) {
            s += r[i];
            if (i + 1 < r.size()) s += std::string(w[i] - width(r[i]) + 3, ' ');
        }
        while (!s.empty() && s.back() == ' ') s.pop_back();
        os << s << "\n";
    };
    line(t.header);
    for (const auto& r : t.rows) line(r);
}

} // namespace

std::string comparisonText(const Comparison& c) {
    std::ostringstream os;
    os << "tensorlens missed" << (c.program.empty() ? "" : ": " + c.program) << " (";
    if (c.hasTrace) os << "PyTensor's trace, " << c.pytensorSteps << " steps";
    else os << "PyTensor's compiled graph, no trace";
    os << "; tensorlens buffer mode " << c.mode << ")\n";
    if (c.hasTrace && !c.tensorlensFinal) os << "tensorlens's pipeline on PyTensor's original graph failed: " << c.tensorlensError << "\n";
    if (!c.pytensorFinalRewritten) os << "tensorlens's pipeline on PyTensor's graph failed: " << c.missedError << "\n";

    const std::vector<std::string> headlines = comparisonHeadlines(c);
    os << "\n";
    if (headlines.empty()) os << "Nothing missed: tensorlens finds nothing to improve in PyTensor's graph.\n";
    for (const std::string& h : headlines) os << "* " << h << "\n";

    for (const LoopRow& row : c.loops) {
        os << "\n";
        printTable(os, report::loopTable(c, row), "");
        report::Table states = report::stateTable(c, row);
        if (states.rows.empty()) continue;
        states.header.insert(states.header.begin(), "  states");
        for (auto& r : states.rows) r.insert(r.begin(), "");
        printTable(os, states, "");
    }
    os << "\n";
    printTable(os, report::wholeGraphTable(c), "");

    os << "\nMissed rewrites (tensorlens's steps on PyTensor's compiled graph): " << countMissed(c.missed);
    const int followOn = static_cast<int>(c.missed.size()) - countMissed(c.missed);
    if (followOn) os << ", and " << followOn << " follow-on step(s)";
    os << "\n";
    int n = 0;
    for (const MissedRewrite& m : c.missed) {
        if (m.consequence) continue;
        os << "  " << ++n << ". [step " << m.step << "] " << m.rewrite << " on " << m.target << ": " << m.what << "\n";
        if (!m.why.empty()) os << "     tensorlens: " << m.why << "\n";
        if (!m.pytensorWhy.empty()) os << "     PyTensor:   " << m.pytensorWhy << "\n";
    }
    if (followOn) {
        os << "  follow-on:";
        for (const MissedRewrite& m : c.missed)
            if (m.consequence) os << " " << m.rewrite << " (step " << m.step << ")";
        os << "\n";
    }
    return os.str();
}

} // namespace tl
