// Einsum's attributes as PyTensor prints them (Einsum.__str__ formats each with
// Python's `{self.x=}`, so values are Python reprs: a quoted string, a tuple of
// tuples, True/False), and the reader dprint import uses to get them back.
#include "ops/OpFromGraph.h"

#include <cctype>

namespace tl {

namespace {

// Python's repr of a tuple of ints: "()", "(0,)", "(1, 0)".
std::string tupleRepr(const std::vector<int>& items) {
    std::string s = "(";
    for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + std::to_string(items[i]);
    return s + (items.size() == 1 ? ",)" : ")");
}

// A cursor over the attribute text; each read skips the spaces before it.
class Reader {
public:
    explicit Reader(std::string_view text) : m_rest(text) {}
    bool done() {
        skipSpaces();
        return m_rest.empty();
    }
    bool literal(std::string_view word) {
        skipSpaces();
        if (m_rest.substr(0, word.size()) != word) return false;
        m_rest.remove_prefix(word.size());
        return true;
    }
    std::optional<std::string> quoted() {
        skipSpaces();
        if (m_rest.empty() || (m_rest[0] != '\'' && m_rest[0] != '"')) return std::nullopt;
        const size_t end = m_rest.find(m_rest[0], 1);
        if (end == std::string_view::npos) return std::nullopt;
        std::string s(m_rest.substr(1, end - 1));
        m_rest.remove_prefix(end + 1);
        return s;
    }
    std::optional<int> integer() {
        skipSpaces();
        size_t n = 0;
        while (n < m_rest.size() && n < 9 && std::isdigit(static_cast<unsigned char>(m_rest[n]))) ++n;
        if (n == 0) return std::nullopt;
        const int v = std::stoi(std::string(m_rest.substr(0, n)));
        m_rest.remove_prefix(n);
        return v;
    }
    // A parenthesised, comma-separated sequence (a trailing comma allowed), each item
    // read by `item`; false when the text is not one.
    template <typename ReadItem>
    bool tuple(ReadItem item) {
        if (!literal("(")) return false;
        while (!literal(")")) {
            if (!item()) return false;
            if (!literal(",") && !(peek(')'))) return false;
        }
        return true;
    }

private:
    bool peek(char c) {
        skipSpaces();
        return !m_rest.empty() && m_rest[0] == c;
    }
    void skipSpaces() {
        while (!m_rest.empty() && m_rest[0] == ' ') m_rest.remove_prefix(1);
    }
    std::string_view m_rest;
};

} // namespace

std::string einsumSpecText(const EinsumSpec& spec) {
    std::string path = "(";
    for (size_t i = 0; i < spec.path.size(); ++i) path += (i ? ", " : "") + tupleRepr(spec.path[i]);
    path += spec.path.size() == 1 ? ",)" : ")";
    return "self.subscripts='" + spec.subscripts + "', self.path=" + path +
           ", self.optimized=" + (spec.optimized ? "True" : "False");
}

std::optional<EinsumSpec> parseEinsumSpecText(std::string_view text, std::string* why) {
    auto fail = [&](const std::string& what) -> std::optional<EinsumSpec> {
        if (why) *why = "Einsum attributes: " + what;
        return std::nullopt;
    };
    Reader r(text);
    EinsumSpec spec;
    if (!r.literal("self.subscripts=")) return fail("expected self.subscripts= first");
    auto sub = r.quoted();
    if (!sub) return fail("self.subscripts is not a quoted string");
    spec.subscripts = std::move(*sub);
    if (!r.literal(",") || !r.literal("self.path=")) return fail("expected self.path= after the subscripts");
    const bool pathRead = r.tuple([&] {
        spec.path.emplace_back();
        return r.tuple([&] {
            const auto k = r.integer();
            if (k) spec.path.back().push_back(*k);
            return k.has_value();
        });
    });
    if (!pathRead) return fail("self.path is not a tuple of tuples of operand positions");
    if (!r.literal(",") || !r.literal("self.optimized=")) return fail("expected self.optimized= after the path");
    if (r.literal("True")) spec.optimized = true;
    else if (r.literal("False")) spec.optimized = false;
    else return fail("self.optimized is neither True nor False");
    if (!r.done()) return fail("unexpected text after self.optimized");
    return spec;
}

} // namespace tl
