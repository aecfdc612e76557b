#include "ops/OpParamsJson.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace tl::opparams {

namespace {
std::invalid_argument bad(const std::string& opName, const char* key, const std::string& what,
                          const nlohmann::json& got) {
    return std::invalid_argument(opName + " params: \"" + key + "\" must be " + what + ", got " + got.dump());
}

const nlohmann::json* find(const nlohmann::json& params, const char* key, const std::string& opName) {
    if (params.is_null()) return nullptr;
    if (!params.is_object()) throw std::invalid_argument(opName + " params must be a JSON object");
    auto it = params.find(key);
    return it == params.end() ? nullptr : &*it;
}

std::invalid_argument missing(const std::string& opName, const char* key) {
    return std::invalid_argument(opName + " params: missing \"" + std::string(key) + "\"");
}

AliasMap aliasFrom(const nlohmann::json& j, const std::string& opName, const char* key) {
    if (!j.is_object()) throw bad(opName, key, "an object {output: [inputs]}", j);
    AliasMap m;
    for (auto it = j.begin(); it != j.end(); ++it) {
        int out = 0;
        try {
            size_t used = 0;
            out = std::stoi(it.key(), &used);
            if (used != it.key().size()) throw std::invalid_argument("trailing text");
        } catch (const std::exception&) {
            throw bad(opName, key, "keyed by output indices", j);
        }
        if (!it.value().is_array()) throw bad(opName, key, "an object {output: [inputs]}", j);
        std::vector<int> ins;
        for (const auto& v : it.value()) {
            if (!v.is_number_integer()) throw bad(opName, key, "lists of input indices", j);
            ins.push_back(v.get<int>());
        }
        m[out] = ins;
    }
    return m;
}
} // namespace

void allowOnly(const nlohmann::json& params, std::initializer_list<const char*> allowed, const std::string& opName) {
    if (params.is_null()) return;
    if (!params.is_object()) throw std::invalid_argument(opName + " params must be a JSON object");
    for (auto it = params.begin(); it != params.end(); ++it) {
        const std::string& k = it.key();
        if (k == "view_map" || k == "destroy_map") continue;
        if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return k == a; }))
            throw std::invalid_argument(opName + " params: unknown key \"" + k + "\"");
    }
}

bool boolParam(const nlohmann::json& params, const char* key, const std::string& opName, std::optional<bool> fallback) {
    const nlohmann::json* v = find(params, key, opName);
    if (!v) {
        if (fallback) return *fallback;
        throw missing(opName, key);
    }
    if (!v->is_boolean()) throw bad(opName, key, "true or false", *v);
    return v->get<bool>();
}

int64_t intParam(const nlohmann::json& params, const char* key, const std::string& opName,
                 std::optional<int64_t> fallback) {
    const nlohmann::json* v = find(params, key, opName);
    if (!v) {
        if (fallback) return *fallback;
        throw missing(opName, key);
    }
    if (!v->is_number_integer()) throw bad(opName, key, "an integer", *v);
    return v->get<int64_t>();
}

std::optional<int64_t> optionalIntParam(const nlohmann::json& params, const char* key, const std::string& opName) {
    const nlohmann::json* v = find(params, key, opName);
    if (!v || v->is_null()) return std::nullopt;
    if (!v->is_number_integer()) throw bad(opName, key, "an integer or null", *v);
    return v->get<int64_t>();
}

std::string stringParam(const nlohmann::json& params, const char* key, const std::string& opName,
                        std::optional<std::string> fallback) {
    const nlohmann::json* v = find(params, key, opName);
    if (!v || v->is_null()) {
        if (fallback) return *fallback;
        throw missing(opName, key);
    }
    if (!v->is_string()) throw bad(opName, key, "a string", *v);
    return v->get<std::string>();
}

DType dtypeParam(const nlohmann::json& params, const char* key, const std::string& opName) {
    const std::string name = stringParam(params, key, opName);
    auto d = parseDType(name);
    if (!d) throw bad(opName, key, "a dtype tensorlens has", nlohmann::json(name));
    return *d;
}

void checkStatedAliasMaps(const nlohmann::json& params, const Op& op) {
    for (const char* key : {"view_map", "destroy_map"}) {
        const nlohmann::json* v = find(params, key, op.name());
        if (!v) continue;
        const AliasMap stated = aliasFrom(*v, op.name(), key);
        const AliasMap actual = std::strcmp(key, "view_map") == 0 ? op.viewMap() : op.destroyMap();
        if (stated != actual)
            throw std::invalid_argument(op.name() + " params: \"" + key + "\" " + v->dump() +
                                        " is not the op's own");
    }
}

} // namespace tl::opparams

namespace tl::opparams {

void requireZeroDim(const Type& t, const std::string& what) {
    if (!t.isScalarType() && t.ndim() != 0) throw OpTypeError(what + " must be a 0-d number, got " + t.toString());
}

std::optional<double> constantNumber(const NDArray* value) {
    if (!value || !value->valid() || value->size() != 1) return std::nullopt;
    return value->item();
}

} // namespace tl::opparams
