#pragma once
// The rewrite trace as JSON (docs/trace-format.md):
//   {"format": "tensorlens-trace", "version": 1, "original": <graph body>,
//    "settings": {...}, "steps": [...], "failures": {"<step>": [...]}}
// Each step holds its primitive edits, so a loaded trace replays exactly.
#include "io/FormatError.h"
#include "trace/Trace.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace tl {

inline constexpr const char* kTraceFormatName = "tensorlens-trace";
inline constexpr int kTraceFormatVersion = 1;

nlohmann::json traceToJson(const Trace& trace);
/// Throws FormatError naming the JSON path; also checks that every step replays.
Trace traceFromJson(const nlohmann::json& doc);
std::string traceToJsonText(const Trace& trace);
Trace traceFromJsonText(std::string_view text, const std::string& sourceName = {});
void saveTrace(const std::string& path, const Trace& trace);
Trace loadTrace(const std::string& path);

/// An op as {"op": kind, "params": {...}, "inner": <graph body>} and back (used by traces).
nlohmann::json opToJson(const Op& op);
OpPtr opFromJson(const nlohmann::json& j, const std::string& path);

} // namespace tl
