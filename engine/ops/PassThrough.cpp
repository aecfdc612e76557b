#include "ops/PassThrough.h"

#include "ops/ArrayOpUtil.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>
#include <set>

namespace tl {

namespace {
// What Print can show of a value (the attributes of an ndarray it is given most often).
const std::set<std::string, std::less<>> kPrintAttrs = {"__str__", "shape", "sum", "min", "max", "mean", "size", "ndim", "dtype"};

std::string attribute(const NDArray& x, const std::string& attr) {
    if (attr == "shape") return shapeToString(x.shape());
    if (attr == "size") return std::to_string(x.size());
    if (attr == "ndim") return std::to_string(x.ndim());
    if (attr == "dtype") return std::string(dtypeName(x.dtype()));
    if (attr == "__str__") {  // the values in C order, the first 100 of a larger array
        std::string r = "[";
        for (int64_t i = 0; i < std::min<int64_t>(x.size(), 100); ++i) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%s%.17g", i ? " " : "", x.flatGet(i));
            r += buf;
        }
        return r + (x.size() > 100 ? " ...]" : "]");
    }
    double s = 0, lo = 0, hi = 0;
    for (int64_t i = 0; i < x.size(); ++i) {
        const double v = x.flatGet(i);
        s += v;
        lo = i == 0 ? v : std::min(lo, v);
        hi = i == 0 ? v : std::max(hi, v);
    }
    if (attr == "sum") return std::to_string(s);
    if (attr == "mean") return std::to_string(x.size() ? s / static_cast<double>(x.size()) : 0.0);
    return std::to_string(attr == "min" ? lo : hi);
}
} // namespace

PassThroughOp::PassThroughOp(std::string className) : Op(OpKind::ViewOp), m_class(std::move(className)) {
    // PyTensor's own subclasses, or a library's: a class name, printed as the op's name.
    const bool identifier = !m_class.empty() && !std::isdigit(static_cast<unsigned char>(m_class[0])) &&
                            std::all_of(m_class.begin(), m_class.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    if (!identifier) throw std::invalid_argument("ViewOp: \"" + m_class + "\" is not a class name");
}

PassThroughOp::PassThroughOp(std::string message, std::vector<std::string> attrs)
    : Op(OpKind::Print), m_message(std::move(message)), m_attrs(std::move(attrs)) {
    for (const std::string& a : m_attrs)
        if (!kPrintAttrs.count(a)) throw std::invalid_argument("Print: attribute \"" + a + "\" is not one tensorlens can print");
}

PassThroughOp::PassThroughOp(ContiguousTag) : Op(OpKind::CpuContiguous) {}

std::string PassThroughOp::name() const {
    if (kind() == OpKind::ViewOp) return m_class;
    if (kind() == OpKind::CpuContiguous) return "CpuContiguous";
    std::string attrs;
    for (const std::string& a : m_attrs) attrs += (attrs.empty() ? "'" : ", '") + a + "'";
    return "Print{message='" + m_message + "', attrs=(" + attrs + (m_attrs.size() == 1 ? ",)}" : ")}");
}

std::vector<Type> PassThroughOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 1, name());
    return {*in[0]};
}

void PassThroughOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    if (kind() == OpKind::CpuContiguous) {
        out[0] = in[0].isContiguous() ? in[0] : in[0].copy();
        return;
    }
    out[0] = in[0];
    if (kind() != OpKind::Print) return;
    for (const std::string& a : m_attrs) std::cerr << m_message << " " << a << " = " << attribute(in[0], a) << "\n";
}

nlohmann::json PassThroughOp::params() const {
    if (kind() == OpKind::ViewOp) return {{"name", m_class}};
    if (kind() == OpKind::CpuContiguous) return nlohmann::json::object();
    return {{"message", m_message}, {"attrs", m_attrs}};
}

OpPtr makeViewOp(std::string className) { return std::make_shared<PassThroughOp>(std::move(className)); }
OpPtr makePrint(std::string message, std::vector<std::string> attrs) {
    return std::make_shared<PassThroughOp>(std::move(message), std::move(attrs));
}

OpPtr makeCpuContiguous() {
    static const OpPtr op = std::make_shared<PassThroughOp>(PassThroughOp::ContiguousTag{});
    return op;
}

OpPtr makeOpCpuContiguous(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    if (!params.is_null() && !params.is_object()) throw std::invalid_argument("CpuContiguous params must be a JSON object");
    for (const auto& [key, value] : params.items()) {
        if (key != "view_map") throw std::invalid_argument("CpuContiguous has no parameter \"" + key + "\"");
        if (value != nlohmann::json::parse(R"({"0": [0]})"))
            throw std::invalid_argument("CpuContiguous params: view_map says " + value.dump() + " but the op has {\"0\": [0]}");
    }
    return makeCpuContiguous();
}

OpPtr makeOpViewOp(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    if (!params.contains("name")) return makeViewOp();
    if (!params["name"].is_string()) throw std::invalid_argument("ViewOp params: \"name\" must be a string, got " + params["name"].dump());
    return makeViewOp(params["name"].get<std::string>());
}

OpPtr makeOpPrint(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    std::string message;
    std::vector<std::string> attrs{"__str__"};
    if (params.contains("message")) {
        if (!params["message"].is_string()) throw std::invalid_argument("Print params: \"message\" must be a string");
        message = params["message"].get<std::string>();
    }
    if (params.contains("attrs")) {
        if (!params["attrs"].is_array()) throw std::invalid_argument("Print params: \"attrs\" must be a list of names");
        attrs.clear();
        for (const auto& a : params["attrs"]) {
            if (!a.is_string()) throw std::invalid_argument("Print params: \"attrs\" must be a list of names, got " + a.dump());
            attrs.push_back(a.get<std::string>());
        }
    }
    return makePrint(std::move(message), std::move(attrs));
}

} // namespace tl
