// Printed op names -> ops. Each family's name() (engine/ops/*.h) is the grammar;
// an op read back must print its name again, so every op built here is checked
// against the text it came from.
#include "io/DPrintImportInternal.h"
#include "io/DPrintImportArrayOps.h"
#include "io/DPrintVocab.h"

#include "ops/Alloc.h"
#include "ops/Argmax.h"
#include "ops/CumOp.h"
#include "ops/DeepCopy.h"
#include "ops/DimShuffle.h"
#include "ops/Dot.h"
#include "ops/Elemwise.h"
#include "ops/IncSubtensor.h"
#include "ops/Join.h"
#include "ops/MakeVector.h"
#include "ops/Reduce.h"
#include "ops/Reshape.h"
#include "ops/ScalarOp.h"
#include "ops/Shape.h"
#include "ops/Softmax.h"
#include "ops/SpecifyShape.h"
#include "ops/Subtensor.h"
#include "ops/TensorScalar.h"
#include "ops/Unbroadcast.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace tl::dpimport {

namespace {

struct ScalarName {
    ScalarOpCode code;
    DType castTo;
};

// name -> scalar op, for the Elemwise names ("Exp", "Cast{int8}") or the inner names ("exp", "LT").
const std::unordered_map<std::string, ScalarName>& scalarNames(bool outer) {
    static const auto build = [](bool o) {
        std::unordered_map<std::string, ScalarName> m;
        for (int c = 0; c < kNumScalarOps; ++c) {
            auto code = static_cast<ScalarOpCode>(c);
            if (code == ScalarOpCode::Cast) {
                for (int d = 0; d < kNumDTypes; ++d) {
                    auto dt = static_cast<DType>(d);
                    m.emplace(o ? elemwiseOpName(code, dt) : scalarOpName(code, dt), ScalarName{code, dt});
                }
            } else {
                m.emplace(o ? elemwiseOpName(code) : scalarOpName(code), ScalarName{code, DType::Float64});
                if (o) m.emplace(inplaceElemwiseOpName(code), ScalarName{code, DType::Float64});
            }
        }
        return m;
    };
    static const auto outerMap = build(true), innerMap = build(false);
    return outer ? outerMap : innerMap;
}

std::optional<int> parseInt(std::string_view s) {
    if (s.empty() || s.size() > 9) return std::nullopt;
    bool neg = s[0] == '-';
    if (neg) s.remove_prefix(1);
    if (s.empty()) return std::nullopt;
    int v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        v = v * 10 + (c - '0');
    }
    return neg ? -v : v;
}

// "[0, 2]" or "[0,2]" -> {0, 2}; `x` entries become -1 when allowed.
std::optional<std::vector<int>> parseIntList(std::string_view s, bool allowX) {
    if (s.size() < 2 || s.front() != '[' || s.back() != ']') return std::nullopt;
    s = s.substr(1, s.size() - 2);
    std::vector<int> out;
    while (!s.empty()) {
        size_t c = s.find(',');
        std::string_view item = s.substr(0, c);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        if (allowX && item == "x") out.push_back(-1);
        else if (auto v = parseInt(item)) out.push_back(*v);
        else return std::nullopt;
        if (c == std::string_view::npos) break;
        s = s.substr(c + 1);
    }
    return out;
}

std::optional<std::vector<IndexEntry>> parseIndices(std::string_view s) {
    std::vector<IndexEntry> out;
    while (true) {
        size_t c = s.find(", ");
        std::string_view item = s.substr(0, c);
        if (item.empty()) return std::nullopt;
        if (item.find(':') == std::string_view::npos) {
            for (char ch : item)
                if (ch != 'i' && ch != 'j' && ch != 'k') return std::nullopt;
            out.push_back(IndexEntry{IndexEntry::Kind::Index});
        } else {
            std::vector<std::string_view> parts;
            size_t b = 0;
            for (size_t q = item.find(':'); q != std::string_view::npos; q = item.find(':', b)) {
                parts.push_back(item.substr(b, q - b));
                b = q + 1;
            }
            parts.push_back(item.substr(b));
            if (parts.size() > 3) return std::nullopt;
            IndexEntry e{IndexEntry::Kind::Slice};
            e.hasStart = !parts[0].empty();
            e.hasStop = parts.size() > 1 && !parts[1].empty();
            e.hasStep = parts.size() > 2 && !parts[2].empty();
            out.push_back(e);
        }
        if (c == std::string_view::npos) break;
        s = s.substr(c + 2);
    }
    return out;
}

// "dtype='float64'" -> float64.
std::optional<DType> parseDTypeParam(std::string_view s) {
    const std::string_view pre = "dtype='";
    if (s.substr(0, pre.size()) != pre || s.size() < pre.size() + 1 || s.back() != '\'') return std::nullopt;
    return parseDType(s.substr(pre.size(), s.size() - pre.size() - 1));
}

OpPtr dimShuffleFrom(std::string_view base, std::string_view params, const std::vector<Variable*>& in, std::string* why) {
    if (in.size() != 1 || in[0]->type().isScalarType()) {
        *why = std::string(base) + " needs one tensor input";
        return nullptr;
    }
    const int n = in[0]->type().ndim();
    std::optional<std::vector<int>> axes;
    if (params.substr(0, 5) == "axis=") {
        if (auto v = parseInt(params.substr(5))) axes = std::vector<int>{*v};
    } else if (params.substr(0, 5) == "axes=") {
        axes = parseIntList(params.substr(5), false);
    } else if (base == "DimShuffle" && params.substr(0, 6) == "order=") {
        axes = parseIntList(params.substr(6), true);
        if (axes) return makeDimShuffle(n, *axes);
    }
    if (!axes) {
        *why = "cannot read the axes of " + std::string(base) + "{" + std::string(params) + "}";
        return nullptr;
    }
    std::vector<int> order;
    if (base == "ExpandDims") {
        const int out = n + static_cast<int>(axes->size());
        int j = 0;
        for (int pos = 0; pos < out; ++pos)
            order.push_back(std::find(axes->begin(), axes->end(), pos) != axes->end() ? -1 : j++);
        if (j != n) throw std::invalid_argument("axes out of range");
    } else if (base == "Squeeze") {
        for (int a = 0; a < n; ++a)
            if (std::find(axes->begin(), axes->end(), a) == axes->end()) order.push_back(a);
    } else {  // Transpose
        order = *axes;
    }
    return makeDimShuffle(n, order);
}

OpPtr reduceFrom(ReduceKind kind, std::string_view params) {
    std::optional<std::vector<int>> axes;
    if (!parseReduceAxes(params, &axes)) return nullptr;
    return makeReduce(kind, std::move(axes));
}

// "maximum, axis=1": CAReduce of a plain scalar op (a Composite is built by the caller).
OpPtr careduceFrom(std::string_view params) {
    const size_t comma = params.find(", ");
    if (comma == std::string_view::npos) return nullptr;
    auto code = parseScalarOp(params.substr(0, comma));
    std::optional<std::vector<int>> axes;
    if (!code || !parseReduceAxes(params.substr(comma + 2), &axes)) return nullptr;
    return makeCAReduce(*code, std::move(axes));
}

// Argmax{axis=(1,)} / Argmax{axis=(0, 2)} / Argmax{axis=None}.
OpPtr argmaxFrom(std::string_view params) {
    if (params == "axis=None") return makeArgmax(std::nullopt);
    if (params.substr(0, 6) != "axis=(" || params.back() != ')') return nullptr;
    std::string list = "[" + std::string(params.substr(6, params.size() - 7)) + "]";
    if (list.size() > 3 && list[list.size() - 2] == ',') list.erase(list.size() - 2, 1);  // "(1,)"
    auto v = parseIntList(list, false);
    return v ? makeArgmax(*v) : nullptr;
}

// "axis=-1" / "axis=None" of the softmax family.
std::optional<std::optional<int>> softmaxAxis(std::string_view params) {
    if (params == "axis=None") return std::optional<int>();
    if (params.substr(0, 5) != "axis=") return std::nullopt;
    auto v = parseInt(params.substr(5));
    if (!v) return std::nullopt;
    return std::optional<int>(*v);
}

// CumOp{0, add} / CumOp{None, mul}.
OpPtr cumOpFrom(std::string_view params) {
    const size_t comma = params.find(", ");
    if (comma == std::string_view::npos) return nullptr;
    const std::string_view axis = params.substr(0, comma), mode = params.substr(comma + 2);
    if (mode != "add" && mode != "mul") return nullptr;
    const CumMode m = mode == "add" ? CumMode::Add : CumMode::Mul;
    if (axis == "None") return makeCumOp(std::nullopt, m);
    auto v = parseInt(axis);
    return v ? makeCumOp(*v, m) : nullptr;
}

OpPtr build(std::string_view base, std::optional<std::string_view> params, const std::vector<Variable*>& in,
            const std::optional<AliasMap>& destroy, std::string* why) {
    const std::string_view p = params.value_or(std::string_view());
    const bool braces = params.has_value();
    // Elemwise of one scalar op ("Exp", "Cast{float32}").
    std::string full = std::string(base) + (braces ? "{" + std::string(p) + "}" : std::string());
    const auto& outerNames = scalarNames(true);
    if (auto it = outerNames.find(full); it != outerNames.end()) {
        InplacePattern inplace;
        if (destroy)
            for (const auto& [o, ins] : *destroy) {
                if (ins.size() != 1) throw std::invalid_argument("an Elemwise output destroys one input");
                inplace[o] = ins[0];
            }
        return makeElemwise(it->second.code, it->second.castTo, inplace);
    }
    if (base == "ExpandDims" || base == "Squeeze" || base == "Transpose" || base == "DimShuffle")
        return braces ? dimShuffleFrom(base, p, in, why) : nullptr;
    if (base == "Unbroadcast" && braces) {
        auto axes = parseIntList("[" + std::string(p) + "]", false);
        return axes && !axes->empty() ? makeUnbroadcast(*axes) : nullptr;
    }
    if (full == "SpecifyShape") return makeSpecifyShape();
    if (full == "Shape") return makeShape();
    if (base == "Shape_i" && braces) {
        auto i = parseInt(p);
        return i ? makeShapeI(*i) : nullptr;
    }
    if (base == "Reshape" && braces) {
        auto n = parseInt(p);
        return n ? makeReshape(*n) : nullptr;
    }
    if (full == "Join") return makeJoin();
    if (full == "Dot") return makeDot();
    if (auto kind = parseReduceKind(base); kind && braces) {
        if (*kind == ReduceKind::CAReduce) return careduceFrom(p);
        return reduceFrom(*kind, p);
    }
    if (base == "Argmax" && braces) return argmaxFrom(p);
    if ((base == "Softmax" || base == "LogSoftmax" || base == "SoftmaxGrad") && braces) {
        auto axis = softmaxAxis(p);
        if (!axis) return nullptr;
        return base == "Softmax" ? makeSoftmax(*axis) : base == "LogSoftmax" ? makeLogSoftmax(*axis) : makeSoftmaxGrad(*axis);
    }
    if (base == "CumOp" && braces) return cumOpFrom(p);
    if (base == "Subtensor" && braces) {
        auto e = parseIndices(p);
        return e ? makeSubtensor(*e) : nullptr;
    }
    if ((base == "SetSubtensor" || base == "IncSubtensor") && braces) {
        auto e = parseIndices(p);
        if (!e) return nullptr;
        bool inplace = destroy && !destroy->empty();
        if (inplace && *destroy != AliasMap{{0, {0}}}) {
            *why = "an IncSubtensor destroys its first input only, the listing says d=" + debugprint::aliasMapText(*destroy);
            return nullptr;
        }
        return makeIncSubtensor(*e, base == "SetSubtensor", inplace);
    }
    if (full == "Alloc") return makeAlloc();
    if (base == "AllocEmpty" && braces) {
        auto d = parseDTypeParam(p);
        return d ? makeAllocEmpty(*d) : nullptr;
    }
    if (base == "MakeVector" && braces) {
        auto d = parseDTypeParam(p);
        return d ? makeMakeVector(*d) : nullptr;
    }
    if (full == "DeepCopyOp") return makeDeepCopy();
    if (OpPtr op = passThroughOpFromName(base, params)) return op;
    if (full == "ScalarFromTensor") return makeScalarFromTensor();
    if (full == "TensorFromScalar") return makeTensorFromScalar();
    // Products, BLAS and linear algebra (DPrintImportLinalg.cpp).
    if (OpPtr op = linalgOpFromName(base, params, why)) return op;
    if (OpPtr op = indexingOpFromName(base, params, in, destroy, why)) return op;
    if (OpPtr op = arrayOpFromName(base, params, why)) return op;
    return nullptr;
}

} // namespace

// CAReduce._axis_str read back.
bool parseReduceAxes(std::string_view params, std::optional<std::vector<int>>* axes) {
    if (params == "axes=None") {
        *axes = std::nullopt;
        return true;
    }
    if (params.substr(0, 5) == "axis=") {
        auto v = parseInt(params.substr(5));
        if (v) *axes = std::vector<int>{*v};
        return v.has_value();
    }
    if (params.substr(0, 5) == "axes=") {
        auto v = parseIntList(params.substr(5), false);
        if (v) *axes = *v;
        return v.has_value();
    }
    return false;
}

std::string stripOutputIndex(const std::string& head, int* outIndex) {
    *outIndex = -1;
    size_t dot = head.rfind('.');
    if (dot == std::string::npos || dot + 1 >= head.size() || head.size() - dot > 7) return head;
    int v = 0;
    for (size_t i = dot + 1; i < head.size(); ++i) {
        if (head[i] < '0' || head[i] > '9') return head;
        v = v * 10 + (head[i] - '0');
    }
    // "5.0" is a constant, "Scan{...}.0" and "Composite{...}.1" are outputs.
    if (dot == 0 || head[dot - 1] != '}') {
        bool identifier = false;
        for (size_t i = 0; i < dot; ++i)
            if (std::isalpha(static_cast<unsigned char>(head[i])) || head[i] == '_') identifier = true;
        if (!identifier) return head;
    }
    *outIndex = v;
    return head.substr(0, dot);
}

OpPtr opFromName(const std::string& printedName, const std::vector<Variable*>& inputs, const std::optional<AliasMap>& destroy,
                 std::string* why) {
    const std::string name = withoutPrintFunction(printedName);
    std::string_view base = name;
    std::optional<std::string_view> params;
    // Prod.__str__ with no_zeros_in_input ends in "})": Prod{axis=1, no_zeros_in_input}).
    constexpr std::string_view kNoZeros = ", no_zeros_in_input})";
    if (name.rfind("Prod{", 0) == 0 && name.size() > kNoZeros.size() &&
        name.compare(name.size() - kNoZeros.size(), kNoZeros.size(), kNoZeros) == 0) {
        std::optional<std::vector<int>> axes;
        if (!parseReduceAxes(std::string_view(name).substr(5, name.size() - 5 - kNoZeros.size()), &axes)) {
            *why = "cannot read the axes of " + name;
            return nullptr;
        }
        ReduceParams rp;
        rp.noZerosInInput = true;
        return makeReduce(ReduceKind::Prod, std::move(axes), rp);
    }
    if (size_t b = name.find('{'); b != std::string::npos) {
        if (name.back() != '}') {
            *why = "expected '}' at the end of " + name;
            return nullptr;
        }
        base = std::string_view(name).substr(0, b);
        params = std::string_view(name).substr(b + 1, name.size() - b - 2);
    }
    OpPtr op;
    try {
        op = build(base, params, inputs, destroy, why);
    } catch (const std::exception& e) {
        *why = name + ": " + e.what();
        return nullptr;
    }
    if (!op) {
        if (why->empty()) *why = "tensorlens has no op " + name;
        return nullptr;
    }
    // An inplace Elemwise's name ("Truediv") printed without its destroy map reads back
    // as the plain one ("True_div"): the same op.
    const auto* ew = dynamic_cast<const Elemwise*>(op.get());
    const bool unmarkedInplace = ew && !ew->composite() && !destroy && name == inplaceElemwiseOpName(ew->scalarOp(), ew->castTo());
    if (op->name() != name && !unmarkedInplace) {
        *why = "read back as " + op->name() + ", not " + name;
        return nullptr;
    }
    return op;
}

OpPtr scalarOpFromName(const std::string& name) {
    const auto& names = scalarNames(false);
    auto it = names.find(name);
    if (it == names.end()) return nullptr;
    return makeScalarOp(it->second.code, it->second.castTo);
}

} // namespace tl::dpimport
