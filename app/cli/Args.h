#pragma once
// A small command-line parser for the headless subcommands: declared flags and
// options, positional arguments, and a usage error for anything else.
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace tl::cli {

/// A mistake in how the command was called; printed with the usage, exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Args {
public:
    /// `flags` take no value (--type); `options` take one (--inputs FILE or --inputs=FILE)
    /// and may repeat (--exclude a --exclude b).
    Args(const std::vector<std::string>& argv, std::set<std::string> flags, std::set<std::string> options);

    bool has(const std::string& name) const;
    std::optional<std::string> value(const std::string& name) const;
    std::vector<std::string> values(const std::string& name) const;
    const std::vector<std::string>& positional() const { return m_positional; }
    /// Integer option with a default; UsageError naming the option when not a number.
    long long intValue(const std::string& name, long long fallback) const;
    /// Non-negative finite number option (a tolerance) with a default; UsageError naming it otherwise.
    double numberValue(const std::string& name, double fallback) const;

private:
    std::set<std::string> m_flagsSeen;
    std::map<std::string, std::vector<std::string>> m_values;
    std::vector<std::string> m_positional;
};

} // namespace tl::cli
