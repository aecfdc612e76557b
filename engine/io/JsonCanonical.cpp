// The canonical text of a JSON document: short containers on one line, the rest
// indented by two, so that goldens and saved files diff line by line and the same
// value always gives the same bytes.
#include "io/JsonFormat.h"

#include <algorithm>
#include <limits>
#include <string>

namespace tl {

using nlohmann::json;

namespace {

bool allScalars(const json& j) {
    for (const json& c : j)
        if (c.is_structured()) return false;
    return true;
}

// Single-line form with ", " and ": " separators. Stops (returns false) once the
// text would pass `limit` characters, so the layout decision costs no more than the output.
bool dumpInline(const json& j, std::string& out, size_t limit) {
    if (out.size() > limit) return false;
    if (!j.is_structured()) {
        out += j.dump();
        return out.size() <= limit;
    }
    const bool obj = j.is_object();
    out += obj ? '{' : '[';
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (!first) out += ", ";
        first = false;
        if (obj) {
            out += json(it.key()).dump();
            out += ": ";
        }
        if (!dumpInline(*it, out, limit)) return false;
    }
    out += obj ? '}' : ']';
    return out.size() <= limit;
}

constexpr size_t kInlineWidth = 120;
constexpr size_t kNoLimit = std::numeric_limits<size_t>::max();

// Recursion here is bounded: loaders reject input nested deeper than kMaxJsonDepth.
void dumpPretty(const json& j, std::string& out, int indent) {
    if (!j.is_structured() || j.empty() || (j.is_array() && allScalars(j))) {
        dumpInline(j, out, kNoLimit);
        return;
    }
    std::string line;
    if (dumpInline(j, line, kInlineWidth - std::min(kInlineWidth, static_cast<size_t>(indent)))) {
        out += line;
        return;
    }
    const bool obj = j.is_object();
    out += obj ? "{\n" : "[\n";
    const std::string pad(static_cast<size_t>(indent) + 2, ' ');
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (!first) out += ",\n";
        first = false;
        out += pad;
        if (obj) {
            out += json(it.key()).dump();
            out += ": ";
        }
        dumpPretty(*it, out, indent + 2);
    }
    out += '\n';
    out += std::string(static_cast<size_t>(indent), ' ');
    out += obj ? '}' : ']';
}

} // namespace

std::string canonicalDump(const json& j) {
    std::string out;
    dumpPretty(j, out, 0);
    out += '\n';
    return out;
}

} // namespace tl
