// Lines of a debugprint listing -> occurrences. Checks the tree glyphs against the
// printer's own rules (io/DPrintVocab.h): a child's prefix is its parent's child
// prefix plus ` ├─ ` / ` └─ `, an input after ` └─ ` or a ` ├─ ` without a following
// sibling is an error, so truncated or garbled text is caught on its line.
#include "io/DPrintImportInternal.h"
#include "io/DPrintVocab.h"

#include <algorithm>

namespace tl::dpimport {

using namespace debugprint;

std::string lineRef(int line) { return "line " + std::to_string(line); }

void fail(int line, const std::string& detail) { throw FormatError(lineRef(line), detail); }

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string rstrip(std::string_view s) {
    size_t e = s.size();
    while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
    return std::string(s.substr(0, e));
}

// Where `s` stops being UTF-8 (overlong forms, surrogates and code points above
// U+10FFFF included), or npos. Graphs are saved as JSON, which holds UTF-8 only.
size_t invalidUtf8(std::string_view s) {
    size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        int n = 0;
        uint32_t cp = 0, min = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            n = 1, cp = c & 0x1F, min = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            n = 2, cp = c & 0x0F, min = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            n = 3, cp = c & 0x07, min = 0x10000;
        } else {
            return i;
        }
        if (i + static_cast<size_t>(n) >= s.size()) return i;  // cut short
        for (int k = 1; k <= n; ++k) {
            const auto d = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
            if ((d & 0xC0) != 0x80) return i;
            cp = (cp << 6) | (d & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
        i += static_cast<size_t>(n) + 1;
    }
    return std::string_view::npos;
}

// The text's lines without `# ` comment prefixes or a common indentation.
std::vector<std::string> cleanLines(std::string_view text) {
    std::vector<std::string> lines;
    size_t b = 0;
    while (b <= text.size()) {
        size_t e = text.find('\n', b);
        if (e == std::string_view::npos) e = text.size();
        std::string_view line = text.substr(b, e - b);
        if (size_t bad = invalidUtf8(line); bad != std::string_view::npos)
            fail(static_cast<int>(lines.size()) + 1, "the text is not UTF-8 (byte " + std::to_string(bad + 1) + " of the line)");
        lines.push_back(rstrip(line));
        b = e + 1;
    }
    bool allComments = true, any = false;
    for (const auto& l : lines) {
        if (l.empty()) continue;
        any = true;
        if (l[0] != '#') allComments = false;
    }
    if (any && allComments)
        for (auto& l : lines)
            if (!l.empty()) l = l.size() >= 2 && l[1] == ' ' ? l.substr(2) : l.substr(1);
    size_t indent = std::string::npos;
    for (const auto& l : lines)
        if (!l.empty()) indent = std::min(indent, l.find_first_not_of(' ') == std::string::npos ? l.size() : l.find_first_not_of(' '));
    if (indent != std::string::npos && indent > 0)
        for (auto& l : lines) l = l.size() >= indent ? l.substr(indent) : std::string();
    return lines;
}

size_t findIdToken(std::string_view s, size_t from, int64_t* id, size_t* end) {
    for (size_t p = s.find(" [id ", from); p != std::string_view::npos; p = s.find(" [id ", p + 1)) {
        size_t q = p + 5;
        size_t r = q;
        while (r < s.size() && s[r] >= 'A' && s[r] <= 'Z') ++r;
        if (r > q && r < s.size() && s[r] == ']') {
            auto n = parseIdLetters(s.substr(q, r - q));
            if (!n) continue;
            *id = *n;
            *end = r + 1;
            return p;
        }
    }
    return std::string_view::npos;
}

void parseAttrs(std::string_view s, size_t p, int line, Attrs& a) {
    auto dup = [&](bool present, const char* what) {
        if (present) fail(line, std::string("two ") + what + " on one line");
    };
    while (p < s.size()) {
        if (s[p] != ' ') fail(line, "expected a space before '" + std::string(s.substr(p, 12)) + "'");
        ++p;
        std::string_view r = s.substr(p);
        if (r.empty()) break;
        if (r[0] == '<') {
            dup(a.typeShown(), "types");
            int depth = 0;
            size_t q = 1;
            for (; q < r.size(); ++q) {
                if (r[q] == '(') ++depth;
                else if (r[q] == ')') --depth;
                else if (r[q] == '>' && depth == 0) break;
            }
            if (q >= r.size()) fail(line, "expected '>' closing the type '" + std::string(r) + "'");
            bool unsupported = false;
            a.type = parseTypeText(r.substr(1, q - 1), line, &unsupported);
            if (unsupported) a.unsupportedType = std::string(r.substr(1, q - 1));
            p += q + 1;
        } else if (startsWith(r, "shape=(")) {
            dup(a.shape.has_value(), "shape= fields");
            size_t q = r.find(')');
            if (q == std::string_view::npos) fail(line, "expected ')' closing shape=(");
            a.shape = parseShapeTuple(r.substr(6, q - 5));
            if (!a.shape) fail(line, "expected a shape like (?, 7), got shape=" + std::string(r.substr(6, q - 5)));
            p += q + 1;
        } else if (r[0] == '\'') {
            dup(a.name.has_value(), "names");
            size_t q = 1;
            while (q < r.size() && !(r[q] == '\'' && (q + 1 == r.size() || r[q + 1] == ' '))) ++q;
            if (q >= r.size()) fail(line, "expected a closing quote after the name " + std::string(r));
            a.name = std::string(r.substr(1, q - 1));
            p += q + 1;
        } else if (startsWith(r, "d={") || startsWith(r, "v={")) {
            const bool destroy = r[0] == 'd';
            dup(destroy ? a.destroy.has_value() : a.view.has_value(), destroy ? "destroy maps" : "view maps");
            size_t q = r.find('}');
            if (q == std::string_view::npos) fail(line, std::string("expected '}' closing ") + r[0] + "={");
            auto m = parseAliasMap(r.substr(2, q - 1));
            if (!m) fail(line, std::string("expected a map like {0: [1]} after ") + r[0] + "=");
            (destroy ? a.destroy : a.view) = std::move(m);
            p += q + 1;
        } else if (startsWith(r, "-> ")) {
            dup(a.link.has_value(), "-> links");
            int64_t id = 0;
            size_t end = 0;
            if (findIdToken(s, p + 2, &id, &end) != p + 2) fail(line, "expected '[id X]' after '->'");
            a.link = id;
            p = end;
        } else if (r[0] >= '0' && r[0] <= '9') {
            dup(a.topo.has_value(), "topological indices");
            size_t q = 0;
            int64_t v = 0;
            while (q < r.size() && r[q] >= '0' && r[q] <= '9') {
                if (v > 1000000000) fail(line, "topological index too large");
                v = v * 10 + (r[q] - '0');
                ++q;
            }
            if (q < r.size() && r[q] != ' ') fail(line, "expected a topological index, got '" + std::string(r) + "'");
            a.topo = v;
            p += q;
        } else if (r[0] == '(') {
            if (a.tags.size() == 2) fail(line, "more than two op-info tags on one line");
            size_t q = r.find(')');
            if (q == std::string_view::npos) fail(line, "expected ')' closing the op info " + std::string(r));
            a.tags.emplace_back(r.substr(1, q - 1));
            p += q + 1;
        } else {
            fail(line, "unexpected '" + std::string(r.substr(0, 24)) +
                           "' after [id X]; expected <Type>, shape=(...), 'name', d={...}, v={...}, a topological "
                           "index, (op info) or -> [id X]");
        }
    }
}

Occ parseContent(std::string_view s, int line, int section) {
    Occ o;
    o.line = line;
    o.section = section;
    size_t end = 0;
    size_t p = findIdToken(s, 0, &o.id, &end);
    if (p == std::string_view::npos) fail(line, "expected '[id X]' after '" + std::string(s.substr(0, 40)) + "'");
    if (p == 0) fail(line, "expected a variable or op before [id X]");
    o.head = std::string(s.substr(0, p));
    parseAttrs(s, end, line, o.attrs);
    return o;
}

// An open parent in the tree: its child prefix and how its last child was marked.
struct Frame {
    int occ;
    std::string prefixChild;
    int lastChildLine = 0;
    bool lastWasFinal = false;  // the last child was marked └─ (or it is a ··· repeat)
};

class Lexer {
public:
    Listing run(std::string_view text) {
        std::vector<std::string> lines = cleanLines(text);
        m_out.sections.emplace_back();
        int n = 0;
        for (const std::string& l : lines) {
            ++n;
            if (l.empty()) continue;
            m_out.lastLine = n;
            lineOf(l, n);
        }
        closeTo(0, m_out.lastLine, true);
        if (m_out.occs.empty()) fail(std::max(1, m_out.lastLine), "no debugprint lines found");
        if (m_out.roots.empty()) fail(m_out.occs.front().line, "expected the outer graph's lines before 'Inner graphs:'");
        if (m_out.innerGraphsTitle && m_out.sections.size() < 2)
            fail(m_out.lastLine, "the listing ends after 'Inner graphs:' (truncated?): expected an inner graph");
        checkSectionHasOutputs(m_out.lastLine);
        return std::move(m_out);
    }

private:
    void lineOf(std::string_view l, int n) {
        if (l == kInnerGraphsTitle) {
            if (m_inner) fail(n, "a second 'Inner graphs:' line");
            closeTo(0, n, false);
            m_inner = true;
            m_out.innerGraphsTitle = true;
            return;
        }
        if (!m_inner) {
            if (l[0] != ' ') return root(l, n);
            return child(l, n, false);
        }
        if (startsWith(l, kInnerOutput)) return innerOutput(l.substr(kInnerOutput.size()), n);
        if (l[0] == ' ') {
            if (!startsWith(l, kInnerChild)) fail(n, "expected an inner graph's input line to start with three spaces");
            return child(l.substr(kInnerChild.size()), n, true);
        }
        header(l, n);
    }

    void root(std::string_view l, int n) {
        closeTo(0, n, false);
        m_out.roots.push_back(add(parseContent(l, n, 0)));
        m_stack.push_back(Frame{m_out.roots.back(), ""});
    }

    void header(std::string_view l, int n) {
        closeTo(0, n, false);
        checkSectionHasOutputs(n);
        Occ o = parseContent(l, n, static_cast<int>(m_out.sections.size()));
        o.header = true;
        Section s;
        s.header = add(std::move(o));
        m_out.sections.push_back(std::move(s));
    }

    void innerOutput(std::string_view l, int n) {
        if (m_out.sections.size() < 2) fail(n, "expected an inner graph's header line (e.g. 'Scan{...} [id B]') before ' \u2190 '");
        closeTo(0, n, false);
        Occ o = parseContent(l, n, static_cast<int>(m_out.sections.size() - 1));
        o.innerOutput = true;
        int idx = add(std::move(o));
        m_out.sections.back().outputs.push_back(idx);
        m_stack.push_back(Frame{idx, ""});
    }

    void child(std::string_view l, int n, bool inner) {
        size_t p = 0;
        size_t depth = 1;
        std::string_view marker;
        while (true) {
            std::string_view r = l.substr(p);
            if (startsWith(r, kBranch)) marker = kBranch;
            else if (startsWith(r, kLastBranch)) marker = kLastBranch;
            if (!marker.empty()) break;
            if (startsWith(r, kPipe)) p += kPipe.size();
            else if (startsWith(r, kBlank)) p += kBlank.size();
            else fail(n, "expected tree characters ' \u251c\u2500 ', ' \u2514\u2500 ' or ' \u2502 ' at column " + std::to_string(p + 1) +
                             ", got '" + std::string(r.substr(0, 12)) + "'");
            ++depth;
        }
        if (m_stack.empty())
            fail(n, inner ? "expected an inner graph output line (' \u2190 ') before its inputs"
                          : "expected an output line before this input line");
        if (depth > m_stack.size())
            fail(n, "indented " + std::to_string(depth - m_stack.size()) + " level(s) deeper than the line above allows");
        closeTo(depth, n, false);
        Frame& parent = m_stack[depth - 1];
        const std::string_view units = l.substr(0, p);
        if (units != parent.prefixChild)
            fail(n, "tree characters do not match the lines above: expected '" + parent.prefixChild + "' before '" +
                        std::string(marker) + "'");
        Occ& po = m_out.occs[static_cast<size_t>(parent.occ)];
        if (parent.lastWasFinal)
            fail(n, po.repeat ? "an input below a '\u00b7\u00b7\u00b7' line, which ends [id " + idLetters(po.id) + "]"
                              : "an input after the last one (\u2514\u2500 on line " + std::to_string(parent.lastChildLine) +
                                    ") of [id " + idLetters(po.id) + "]");
        const bool last = marker == kLastBranch;
        std::string_view content = l.substr(p + marker.size());
        parent.lastChildLine = n;
        parent.lastWasFinal = last;
        if (content == "\u00b7\u00b7\u00b7") {
            if (!last) fail(n, "expected ' \u2514\u2500 \u00b7\u00b7\u00b7' (a repeat is the only input line)");
            if (!po.children.empty()) fail(n, "a '\u00b7\u00b7\u00b7' line after inputs of [id " + idLetters(po.id) + "]");
            po.repeat = true;
            return;
        }
        Occ o = parseContent(content, n, inner ? static_cast<int>(m_out.sections.size() - 1) : 0);
        o.parent = parent.occ;
        std::string childPrefix = std::string(units) + std::string(last ? kBlank : kPipe);
        int idx = add(std::move(o));
        m_out.occs[static_cast<size_t>(m_stack[depth - 1].occ)].children.push_back(idx);
        m_stack.push_back(Frame{idx, std::move(childPrefix)});
    }

    // Closes the frames at `depth` and deeper; each must have kept its ├─ promises.
    void closeTo(size_t depth, int n, bool atEnd) {
        while (m_stack.size() > depth) {
            const Frame& f = m_stack.back();
            if (f.lastChildLine && !f.lastWasFinal) {
                const Occ& o = m_out.occs[static_cast<size_t>(f.occ)];
                fail(n, std::string(atEnd ? "the listing ends" : "this line ends the inputs of [id " + idLetters(o.id) + "]") +
                            ", but line " + std::to_string(f.lastChildLine) + "'s \u251c\u2500 promises another input of [id " +
                            idLetters(o.id) + "]" + (atEnd ? " (truncated?)" : ""));
            }
            m_stack.pop_back();
        }
    }

    void checkSectionHasOutputs(int n) {
        if (m_out.sections.size() < 2 || !m_out.sections.back().outputs.empty()) return;
        const Occ& h = m_out.occs[static_cast<size_t>(m_out.sections.back().header)];
        fail(n, "expected ' \u2190 ' output lines after the inner-graph header of [id " + idLetters(h.id) + "] on line " +
                    std::to_string(h.line));
    }

    int add(Occ o) {
        m_out.occs.push_back(std::move(o));
        return static_cast<int>(m_out.occs.size() - 1);
    }

    Listing m_out;
    std::vector<Frame> m_stack;
    bool m_inner = false;
};

} // namespace

Listing lexListing(std::string_view text) { return Lexer().run(text); }

} // namespace tl::dpimport
