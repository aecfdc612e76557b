// A Composite's scalar graph read from its printed name, for listings that leave
// the body out (the seed's second listing was cut before its Composite bodies).
// The name is PyTensor's pprint of the single output (ops/Composite.cpp,
// prettyOutput): infix ops fully parenthesised `(a + b + c)`, `(-a)`, other ops as
// calls `exp(i0)`, constants by value, inputs `i<k>`; Elemwise capitalises the
// whole text, so names are matched without regard to case.
#include "io/DPrintImportInternal.h"

#include "ir/GraphAssembler.h"
#include "ops/ScalarOp.h"

#include <cctype>
#include <unordered_map>

namespace tl::dpimport {

namespace {

std::string lower(std::string_view s) {
    std::string r(s);
    for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return r;
}

struct CallName {
    ScalarOpCode code;
    DType castTo;
};

const std::unordered_map<std::string, CallName>& callNames() {
    static const auto m = [] {
        std::unordered_map<std::string, CallName> r;
        for (int c = 0; c < kNumScalarOps; ++c) {
            auto code = static_cast<ScalarOpCode>(c);
            if (code == ScalarOpCode::Cast) {
                for (int d = 0; d < kNumDTypes; ++d)
                    r.emplace(lower(scalarOpName(code, static_cast<DType>(d))), CallName{code, static_cast<DType>(d)});
            } else {
                r.emplace(lower(scalarOpName(code)), CallName{code, DType::Float64});
            }
        }
        return r;
    }();
    return m;
}

class ExprParser {
public:
    ExprParser(std::string_view text, GraphAssembler& g, const std::vector<Variable*>& inputs, DType floatDType, DType intDType)
        : m_s(text), m_g(g), m_inputs(inputs), m_float(floatDType), m_int(intDType) {}

    Variable* parseAll() {
        Variable* v = expr(0);
        if (m_p != m_s.size()) error("unexpected '" + std::string(m_s.substr(m_p, 10)) + "'");
        return v;
    }
    std::vector<std::string> assumptions;

private:
    [[noreturn]] void error(const std::string& what) const {
        throw std::invalid_argument("at character " + std::to_string(m_p + 1) + ": " + what);
    }
    bool eat(std::string_view t) {
        if (m_s.substr(m_p, t.size()) != t) return false;
        m_p += t.size();
        return true;
    }
    void expect(std::string_view t) {
        if (!eat(t)) error("expected '" + std::string(t) + "'");
    }

    Variable* apply(ScalarOpCode code, DType castTo, std::vector<Variable*> ins) {
        if (!scalarArityOk(code, static_cast<int>(ins.size())))
            error(std::string(scalarOpInfo(code).key) + " cannot take " + std::to_string(ins.size()) + " inputs");
        try {
            return m_g.addNode(makeScalarOp(code, castTo), std::move(ins))->output(0);
        } catch (const std::exception& e) {
            error(e.what());
        }
    }

    // One operand: a group, a call, an input or a constant.
    Variable* expr(int depth) {
        if (depth > 64) error("nested too deeply");
        if (eat("(")) return group(depth);
        size_t b = m_p;
        while (m_p < m_s.size() && (std::isalnum(static_cast<unsigned char>(m_s[m_p])) || m_s[m_p] == '_' ||
                                    m_s[m_p] == '.' || m_s[m_p] == '-' || m_s[m_p] == '{' || m_s[m_p] == '}'))
            ++m_p;
        std::string word = lower(m_s.substr(b, m_p - b));
        if (word.empty()) error("expected an operand");
        if (eat("(")) {
            auto it = callNames().find(word);
            if (it == callNames().end()) error("unknown scalar op '" + word + "'");
            std::vector<Variable*> ins{expr(depth + 1)};
            while (eat(", ")) ins.push_back(expr(depth + 1));
            expect(")");
            return apply(it->second.code, it->second.castTo, std::move(ins));
        }
        if (word.size() > 1 && word[0] == 'i' && word.find_first_not_of("0123456789", 1) == std::string::npos) {
            size_t k = std::stoul(word.substr(1));
            if (k >= m_inputs.size()) error("input " + word + " but the node has " + std::to_string(m_inputs.size()) + " inputs");
            return m_inputs[k];
        }
        return constant(word);
    }

    Variable* constant(const std::string& word) {
        std::string w = word == "true" ? "True" : word == "false" ? "False" : word;
        auto lit = parseLiteral(w);
        if (!lit || !lit->shape.empty() || !lit->name.empty()) error("expected a constant, got '" + word + "'");
        DType d = lit->style == Literal::Style::Bool ? DType::Bool : lit->style == Literal::Style::Float ? m_float : m_int;
        assumptions.push_back(w + " as " + std::string(dtypeName(d)));
        return m_g.addConstant(literalValue(*lit, d, {}), Type::scalar(d));
    }

    // After '(': `-x)` (neg) or `x OP y [OP z ...])`. A group may also start with a
    // negative constant: `(-5.0 + exp(i0))`, while `(-5.0)` is neg(5.0).
    Variable* group(int depth) {
        if (m_p < m_s.size() && m_s[m_p] == '-') {
            const size_t save = m_p++;
            const bool numeric = m_p < m_s.size() && (std::isdigit(static_cast<unsigned char>(m_s[m_p])) ||
                                                      m_s.substr(m_p, 3) == "inf" || m_s.substr(m_p, 3) == "nan");
            if (!numeric) {
                Variable* x = expr(depth + 1);
                expect(")");
                return apply(ScalarOpCode::Neg, DType::Float64, {x});
            }
            size_t e = m_p;
            while (e < m_s.size() && m_s[e] != ' ' && m_s[e] != ')') ++e;
            if (e < m_s.size() && m_s[e] == ')') {
                Variable* x = constant(lower(m_s.substr(m_p, e - m_p)));
                m_p = e + 1;
                return apply(ScalarOpCode::Neg, DType::Float64, {x});
            }
            m_p = save;
        }
        Variable* first = expr(depth + 1);
        std::string sym;
        std::vector<Variable*> ins{first};
        while (eat(" ")) {
            size_t b = m_p;
            while (m_p < m_s.size() && m_s[m_p] != ' ') ++m_p;
            std::string s(m_s.substr(b, m_p - b));
            if (!sym.empty() && s != sym) error("mixed operators '" + sym + "' and '" + s + "' in one group");
            sym = s;
            expect(" ");
            ins.push_back(expr(depth + 1));
        }
        expect(")");
        if (ins.size() < 2) error("expected an operator after the first operand");
        for (int c = 0; c < kNumScalarOps; ++c) {
            auto code = static_cast<ScalarOpCode>(c);
            if (code == ScalarOpCode::Neg || scalarOpInfo(code).infix != sym) continue;
            return apply(code, DType::Float64, std::move(ins));
        }
        error("unknown operator '" + sym + "'");
    }

    std::string_view m_s;
    size_t m_p = 0;
    GraphAssembler& m_g;
    const std::vector<Variable*>& m_inputs;
    DType m_float, m_int;
};

} // namespace

std::unique_ptr<Graph> compositeGraphFromName(std::string_view name, const std::vector<DType>& inputDTypes, std::string* why) {
    const std::string_view pre = "Composite{";
    if (name.substr(0, pre.size()) != pre || name.back() != '}') {
        *why = "not a Composite name";
        return nullptr;
    }
    std::string_view expr = name.substr(pre.size(), name.size() - pre.size() - 1);
    if (expr == "...") {
        *why = "its name Composite{...} does not show the body";
        return nullptr;
    }
    // Constants take the inputs' float (or integer) dtype when they share one: PyTensor
    // upcasts a Composite's constants to its inputs (local_upcast_elemwise_constant_inputs).
    DType floatD = DType::Float64, intD = DType::Int64;
    bool sawFloat = false, sawInt = false;
    for (DType d : inputDTypes) {
        if (isFloat(d)) {
            floatD = sawFloat && floatD != d ? DType::Float64 : d;
            sawFloat = true;
        } else if (isInteger(d)) {
            intD = sawInt && intD != d ? DType::Int64 : d;
            sawInt = true;
        }
    }
    GraphAssembler g;
    std::vector<Variable*> inputs;
    for (DType d : inputDTypes) inputs.push_back(g.addInput(Type::scalar(d)));
    try {
        ExprParser p(expr, g, inputs, floatD, intD);
        Variable* out = p.parseAll();
        g.setOutputs({out});
        std::string list;
        for (const auto& a : p.assumptions) list += (list.empty() ? "" : ", ") + a;
        *why = list;
    } catch (const std::exception& e) {
        *why = "cannot read " + std::string(name) + " " + e.what();
        return nullptr;
    }
    return g.finish();
}

} // namespace tl::dpimport
