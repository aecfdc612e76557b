// Printed names of the products, BLAS and linear-algebra ops -> ops. Most print as
// PyTensor's default Op.__str__, "Class{prop=value, ...}" with Python literals, and
// their class name is their JSON kind, so the props become the JSON params and the
// op's own factory builds it; the BLAS ops print flags ("CGemv{inplace}"), Blockwise
// its core op and signature ("Blockwise{Solve{...}, (m,m),(m)->(m)}") or its name
// ("Matmul").
#include "io/DPrintImportInternal.h"

#include "ops/BlasOps.h"
#include "ops/Blockwise.h"
#include "ops/Linalg.h"
#include "ops/OpFactory.h"

#include <nlohmann/json.hpp>

#include <cctype>

namespace tl::dpimport {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

// Splits at commas outside braces, brackets, parentheses and quotes.
std::vector<std::string_view> splitTopLevel(std::string_view s) {
    std::vector<std::string_view> out;
    int depth = 0;
    bool quoted = false;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '\'') quoted = !quoted;
        if (quoted) continue;
        if (c == '{' || c == '(' || c == '[') ++depth;
        else if (c == '}' || c == ')' || c == ']') --depth;
        else if (c == ',' && depth == 0) {
            out.push_back(trim(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    out.push_back(trim(s.substr(start)));
    return out;
}

// A Python literal of a prop: True, False, None, 'text', an integer.
std::optional<nlohmann::json> pythonLiteral(std::string_view v) {
    if (v == "True") return true;
    if (v == "False") return false;
    if (v == "None") return nlohmann::json(nullptr);
    if (v.size() >= 2 && v.front() == '\'' && v.back() == '\'') return std::string(v.substr(1, v.size() - 2));
    // A tuple or list of integers, "(0, 2)", "(1,)", "[0, 2]" (TensorSolve's axes).
    if (v.size() >= 2 && ((v.front() == '(' && v.back() == ')') || (v.front() == '[' && v.back() == ']'))) {
        nlohmann::json list = nlohmann::json::array();
        std::string_view body = trim(v.substr(1, v.size() - 2));
        if (!body.empty() && body.back() == ',') body.remove_suffix(1);
        if (trim(body).empty()) return list;
        for (std::string_view item : splitTopLevel(body)) {
            auto k = pythonLiteral(item);
            if (!k || !k->is_number_integer()) return std::nullopt;
            list.push_back(*k);
        }
        return list;
    }
    if (v.empty() || v.size() > 18) return std::nullopt;
    size_t i = v[0] == '-' ? 1 : 0;
    if (i == v.size()) return std::nullopt;
    for (size_t k = i; k < v.size(); ++k)
        if (!std::isdigit(static_cast<unsigned char>(v[k]))) return std::nullopt;
    return std::stoll(std::string(v));
}

// "a=True, b='gen'" -> {"a": true, "b": "gen"}.
std::optional<nlohmann::json> propsFrom(std::string_view params) {
    nlohmann::json j = nlohmann::json::object();
    if (trim(params).empty()) return j;
    for (std::string_view item : splitTopLevel(params)) {
        const size_t eq = item.find('=');
        if (eq == std::string_view::npos) return std::nullopt;
        auto value = pythonLiteral(trim(item.substr(eq + 1)));
        if (!value) return std::nullopt;
        j[std::string(trim(item.substr(0, eq)))] = *value;
    }
    return j;
}

// A core op of a Blockwise, or a plain linear-algebra / BLAS op, from its printed name.
OpPtr coreFrom(std::string_view name, std::string* why);

OpPtr blasFrom(std::string_view base, std::optional<std::string_view> params) {
    const std::string b(base);
    if (!params) {
        if (b == "Dot22") return makeDot22();
        if (b == "Dot22Scalar") return makeDot22Scalar();
        if (b == "BatchedDot") return makeBatchedDot();
        return nullptr;
    }
    const std::string p(*params);
    if (b == "Gemm" && (p == "inplace" || p == "no_inplace")) return makeGemm(p == "inplace");
    if ((b == "Gemv" || b == "CGemv") && (p == "inplace" || p == "no_inplace")) return makeGemv(p == "inplace", b == "CGemv");
    if ((b == "Ger" || b == "CGer") && (p == "destructive" || p == "non-destructive")) return makeGer(p == "destructive", b == "CGer");
    return nullptr;
}

OpPtr coreFrom(std::string_view name, std::string* why) {
    std::string_view base = name;
    std::optional<std::string_view> params;
    if (size_t b = name.find('{'); b != std::string_view::npos) {
        if (name.back() != '}') return nullptr;
        base = name.substr(0, b);
        params = name.substr(b + 1, name.size() - b - 2);
    }
    if (base == "Dot" && !params) return nullptr;  // the importer's own table has Dot
    if (OpPtr op = blasFrom(base, params)) return op;
    auto kind = parseOpKind(base);
    if (!kind || !isLinalgKind(*kind)) return nullptr;
    // KroneckerProduct is an OpFromGraph: its braces hold the inline flag, not props.
    if (*kind == OpKind::KroneckerProduct) return params && *params == "inline=False" ? makeKroneckerProduct() : nullptr;
    auto props = propsFrom(params.value_or(std::string_view()));
    if (!props) {
        *why = "cannot read the props of " + std::string(name);
        return nullptr;
    }
    return makeOp(*kind, *props, nullptr);
}

} // namespace

OpPtr linalgOpFromName(std::string_view base, std::optional<std::string_view> params, std::string* why) {
    if (base == "Matmul" && !params) return makeMatmul();
    if (base == "Blockwise" && params) {
        // "Blockwise{<core op>, <signature>}": the signature is the last top-level part.
        const std::string_view p = *params;
        const size_t arrow = p.rfind("->");
        if (arrow == std::string_view::npos) return nullptr;
        // The signature starts at the first '(' of the argument list before "->",
        // after the comma that ends the core op's name.
        int depth = 0;
        size_t split = std::string_view::npos;
        for (size_t i = 0; i < p.size(); ++i) {
            const char c = p[i];
            if (c == '{') ++depth;
            else if (c == '}') --depth;
            else if (c == ',' && depth == 0) {
                split = i;
                break;
            }
        }
        if (split == std::string_view::npos) return nullptr;
        const std::string_view coreName = trim(p.substr(0, split)), signature = trim(p.substr(split + 1));
        // dprint prints no inner graph for a Blockwise's core op: one that needs its body is
        // unreadable, unless tensorlens has the op itself (AllocDiag's name is enough).
        const bool needsBody = coreName.substr(0, 5) == "Scan{" || coreName.substr(0, 10) == "Composite{" || isGraphOpName(std::string(coreName));
        if (needsBody) {
            std::string ignored;
            OpPtr own = isGraphOpName(std::string(coreName)) ? opFromName(std::string(coreName), {}, std::nullopt, &ignored) : nullptr;
            if (!own) {
                *why = "dprint does not print the inner graph of a Blockwise's core op " + std::string(coreName);
                return nullptr;
            }
            return makeBlockwise(own, std::string(signature));
        }
        OpPtr core = coreFrom(coreName, why);
        if (!core && coreName == "Dot") core = makeOp(OpKind::Dot, nlohmann::json::object(), nullptr);
        // Any other op PyTensor vectorises (Tri, ARange, Subtensor, Convolve1d, ...), read
        // by name alone: none of those depends on its inputs' types for its parameters.
        if (!core && why->empty()) core = opFromName(std::string(coreName), {}, std::nullopt, why);
        if (!core) {
            if (why->empty()) *why = "tensorlens has no core op " + std::string(coreName);
            return nullptr;
        }
        return makeBlockwise(core, std::string(signature));
    }
    std::string name(base);
    if (params) name += "{" + std::string(*params) + "}";
    return coreFrom(name, why);
}

} // namespace tl::dpimport
