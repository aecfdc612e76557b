#pragma once
// The one error type of the file formats (JSON graph, and later trace and dprint
// import): it names the place — file, JSON path or line — so a user can find it.
#include <stdexcept>
#include <string>

namespace tl {

/// A malformed or inconsistent input file. what() is
/// "<file>: <path>: <detail>" with the parts that are known.
class FormatError : public std::runtime_error {
public:
    /// `path` is a JSON pointer ("/graph/nodes/12/inputs/1") or "line 3, column 5"; may be empty.
    FormatError(std::string path, std::string detail, std::string file = {})
        : std::runtime_error(compose(file, path, detail)), m_path(std::move(path)), m_detail(std::move(detail)),
          m_file(std::move(file)) {}

    const std::string& path() const { return m_path; }
    const std::string& detail() const { return m_detail; }
    const std::string& file() const { return m_file; }

    /// The same error, now naming the file it came from.
    FormatError inFile(std::string file) const { return FormatError(m_path, m_detail, std::move(file)); }

private:
    static std::string compose(const std::string& file, const std::string& path, const std::string& detail) {
        std::string s;
        if (!file.empty()) s += file + ": ";
        if (!path.empty()) s += path + ": ";
        return s + detail;
    }
    std::string m_path, m_detail, m_file;
};

} // namespace tl
