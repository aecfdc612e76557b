#include "compare/ReportParts.h"

#include "trace/GraphFacts.h"

#include <algorithm>
#include <cstdio>

namespace tl::report {

Columns columns(const Comparison& c) {
    Columns cols;
    cols.titles.push_back("PyTensor");
    cols.graphs.push_back(&c.pytensorSummary);
    if (c.tensorlensFinal) {
        cols.titles.push_back("tensorlens");
        cols.graphs.push_back(&c.tensorlensSummary);
    }
    if (c.pytensorFinalRewritten) {
        cols.titles.push_back(c.hasTrace ? "tensorlens on PyTensor's graph" : "tensorlens");
        cols.graphs.push_back(&c.rewrittenSummary);
    }
    return cols;
}

const LoopSummary* loopOf(const Comparison& c, const LoopRow& row, size_t col) {
    const Columns cols = columns(c);
    if (col >= cols.graphs.size()) return nullptr;
    const GraphSummary* g = cols.graphs[col];
    int index = -1;
    if (g == &c.pytensorSummary) index = row.pytensor;
    else if (g == &c.tensorlensSummary) index = row.tensorlens;
    else index = row.rewritten;
    return index >= 0 && index < static_cast<int>(g->loopSummaries.size()) ? &g->loopSummaries[index] : nullptr;
}

std::string loopName(const Comparison& c, const LoopRow& row) {
    for (size_t col = 0; col < columns(c).graphs.size(); ++col)
        if (const LoopSummary* l = loopOf(c, row, col)) return l->name;
    return "?";
}

namespace {

std::string bytesText(int64_t b) { return b < 0 ? "? B" : formatBytes(b); }

std::string statesLine(const LoopSummary& l) {
    int traced = 0;
    for (const StateSummary& s : l.states) traced += s.category != "nit_sot";
    const int nit = static_cast<int>(l.states.size()) - traced;
    std::string t = std::to_string(l.recurrentStates);
    if (nit) t += " (+" + std::to_string(nit) + " nit_sot)";
    return t;
}

} // namespace

std::string stateText(const StateSummary& s) {
    std::string t = s.label + " " + s.shape + " " + bytesText(s.bytes);
    std::vector<std::string> flags;
    if (s.inplace) flags.push_back("inplace");
    if (s.reuseProven) flags.push_back("rows reused");
    if (!s.outputRead) flags.push_back("not read outside");
    for (size_t i = 0; i < flags.size(); ++i) t += (i ? ", " : ", ") + flags[i];
    return t;
}

Table loopTable(const Comparison& c, const LoopRow& row) {
    const Columns cols = columns(c);
    Table t;
    t.header.push_back("loop " + loopName(c, row));
    for (const std::string& title : cols.titles) t.header.push_back(title);
    auto line = [&](const std::string& what, auto cell) {
        std::vector<std::string> r{what};
        for (size_t col = 0; col < cols.graphs.size(); ++col) {
            const LoopSummary* l = loopOf(c, row, col);
            r.push_back(l ? cell(*l) : std::string("no loop"));
        }
        t.rows.push_back(std::move(r));
    };
    line("n_steps", [](const LoopSummary& l) { return l.nSteps + (l.whileLoop ? " (while)" : ""); });
    line("recurrent states", statesLine);
    line("buffer rows", [](const LoopSummary& l) {
        std::string s;
        for (const StateSummary& st : l.states) s += (s.empty() ? "" : " ") + (st.rows < 0 ? std::string("?") : std::to_string(st.rows));
        return s.empty() ? std::string("-") : s;
    });
    line("buffer bytes", [](const LoopSummary& l) { return bytesText(l.bufferBytes); });
    line("scalar ops per step", [](const LoopSummary& l) { return std::to_string(l.scalarOps); });
    line("exp per step", [](const LoopSummary& l) { return std::to_string(l.exps); });
    line("buffers in place", [](const LoopSummary& l) {
        int inplace = 0, reused = 0, traced = 0;
        for (const StateSummary& s : l.states) {
            if (s.category == "nit_sot") continue;
            ++traced;
            inplace += s.inplace;
            reused += s.reuseProven;
        }
        std::string r = std::to_string(inplace) + " of " + std::to_string(traced);
        if (reused) r += ", " + std::to_string(reused) + " with rows reused";
        return r;
    });
    return t;
}

Table stateTable(const Comparison& c, const LoopRow& row) {
    const Columns cols = columns(c);
    Table t;
    for (const std::string& title : cols.titles) t.header.push_back(title);
    size_t n = 0;
    for (size_t col = 0; col < cols.graphs.size(); ++col)
        if (const LoopSummary* l = loopOf(c, row, col)) n = std::max(n, l->states.size());
    for (size_t i = 0; i < n; ++i) {
        std::vector<std::string> r;
        for (size_t col = 0; col < cols.graphs.size(); ++col) {
            const LoopSummary* l = loopOf(c, row, col);
            r.push_back(l && i < l->states.size() ? stateText(l->states[i]) : std::string());
        }
        t.rows.push_back(std::move(r));
    }
    return t;
}

Table wholeGraphTable(const Comparison& c) {
    Table t;
    t.header = {"whole graph", "PyTensor", "tensorlens"};
    const GraphSummary& pt = c.pytensorSummary;
    const GraphSummary& tl = c.tensorlensSideSummary();
    const bool haveTl = c.tensorlensSide() != nullptr;
    auto row = [&](const std::string& what, const std::string& a, const std::string& b) {
        t.rows.push_back({what, a, haveTl ? b : std::string("-")});
    };
    row("nodes", std::to_string(pt.nodes), std::to_string(tl.nodes));
    row("loops", std::to_string(pt.loops), std::to_string(tl.loops));
    row("DeepCopyOps", std::to_string(pt.deepCopies), std::to_string(tl.deepCopies));
    row("loop buffers", bytesText(pt.bufferBytes), bytesText(tl.bufferBytes));
    auto run = [](const GraphRun& r, bool peak) {
        if (!r.ran) return std::string("not run");
        return peak ? formatBytes(static_cast<int64_t>(r.peakBytes)) : secondsText(r.seconds);
    };
    row("peak bytes (run)", run(c.pytensorRun, true), run(c.tensorlensRun, true));
    row("time (run)", run(c.pytensorRun, false), run(c.tensorlensRun, false));
    if (c.tensorlensRun.ran && c.tensorlensFinal && c.tensorlensRun.graph != "tensorlens")
        row("graph run", "PyTensor's", c.tensorlensRun.graph);
    const std::string diff = c.outputsCompared ? numberText(c.maxAbsDifference) : c.differenceNote;
    t.rows.push_back({"largest output difference", diff, ""});
    return t;
}

std::string secondsText(double s) {
    char buf[64];
    if (s < 1e-3) std::snprintf(buf, sizeof buf, "%.1f us", s * 1e6);
    else if (s < 1.0) std::snprintf(buf, sizeof buf, "%.2f ms", s * 1e3);
    else std::snprintf(buf, sizeof buf, "%.2f s", s);
    return buf;
}

std::string numberText(double v) {
    if (v == 0.0) return "0";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

} // namespace tl::report
