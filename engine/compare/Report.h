#pragma once
// The comparison as text (docs/missed.md#formats): a terminal table, a Markdown
// report to paste into a PyTensor issue (the program's dprint before and after in
// PyTensor's own format, the tables, the missed rewrites in words), and JSON.
#include "compare/Comparison.h"

#include <nlohmann/json.hpp>

#include <string>

namespace tl {

/// The terminal table (`tensorlens missed`, the default format).
std::string comparisonText(const Comparison& c);

struct MarkdownOptions {
    /// The program's source (a Python module), shown first when given.
    std::string source;
    /// Pictures of PyTensor's and tensorlens's graphs (paths relative to the report), or empty.
    std::string pytensorImage, tensorlensImage;
};

/// The report for an issue (`tensorlens missed --markdown`).
std::string comparisonMarkdown(const Comparison& c, const MarkdownOptions& options = {});

/// Everything as JSON (`tensorlens missed --json`; format in docs/missed.md#json).
nlohmann::json comparisonJson(const Comparison& c);

/// The findings in one sentence each, as the report's summary lists them
/// ("Intermediate arrays of Scan scan_fn have shape (2, 7) instead of (1, 7) ...").
std::vector<std::string> comparisonHeadlines(const Comparison& c);

} // namespace tl
