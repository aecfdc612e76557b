#include "ops/PropsOp.h"

#include <stdexcept>

namespace tl {

PropsOp::PropsOp(OpKind kind, std::string className, std::vector<OpProp> props)
    : Op(kind), m_class(std::move(className)), m_props(std::move(props)) {}

std::string pythonRepr(const nlohmann::json& v) {
    if (v.is_null()) return "None";
    if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
    if (v.is_string()) return "'" + v.get<std::string>() + "'";
    return v.dump();
}

std::string PropsOp::name() const {
    if (m_props.empty()) return m_class;
    std::string s = m_class + "{";
    for (size_t i = 0; i < m_props.size(); ++i) {
        if (i) s += ", ";
        s += m_props[i].name + "=" + pythonRepr(m_props[i].value);
    }
    return s + "}";
}

nlohmann::json PropsOp::params() const {
    nlohmann::json j = nlohmann::json::object();
    for (const OpProp& p : m_props) j[p.name] = p.value;
    return j;
}

const nlohmann::json& PropsOp::prop(std::string_view name) const {
    for (const OpProp& p : m_props)
        if (p.name == name) return p.value;
    throw std::logic_error(m_class + " has no prop " + std::string(name));
}

bool PropsOp::boolProp(std::string_view name) const { return prop(name).get<bool>(); }
int PropsOp::intProp(std::string_view name) const { return prop(name).get<int>(); }
std::string PropsOp::stringProp(std::string_view name) const { return prop(name).get<std::string>(); }

PropReader::PropReader(const nlohmann::json& params, std::string opName) : m_params(params), m_op(std::move(opName)) {
    if (!m_params.is_object() && !m_params.is_null())
        throw std::invalid_argument(m_op + " params must be a JSON object");
}

const nlohmann::json* PropReader::find(const char* key) const {
    if (!m_params.is_object()) return nullptr;
    auto it = m_params.find(key);
    return it == m_params.end() ? nullptr : &*it;
}

bool PropReader::getBool(const char* key, bool fallback) const {
    const nlohmann::json* v = find(key);
    if (!v) return fallback;
    if (!v->is_boolean()) throw std::invalid_argument(m_op + " params: \"" + key + "\" must be true or false, got " + v->dump());
    return v->get<bool>();
}

int PropReader::getInt(const char* key, int fallback) const {
    const nlohmann::json* v = find(key);
    if (!v) return fallback;
    if (!v->is_number_integer()) throw std::invalid_argument(m_op + " params: \"" + key + "\" must be an integer, got " + v->dump());
    return v->get<int>();
}

std::string PropReader::getString(const char* key, const std::string& fallback, const std::set<std::string>& allowed) const {
    const nlohmann::json* v = find(key);
    if (!v) return fallback;
    if (!v->is_string()) throw std::invalid_argument(m_op + " params: \"" + key + "\" must be a string, got " + v->dump());
    std::string s = v->get<std::string>();
    if (!allowed.empty() && !allowed.count(s)) {
        std::string list;
        for (const std::string& a : allowed) list += (list.empty() ? "'" : ", '") + a + "'";
        throw std::invalid_argument(m_op + " params: \"" + key + "\" is '" + s + "', not one of " + list);
    }
    return s;
}

void PropReader::check(const Op& op) const {
    for (const char* key : {"destroy_map", "view_map"}) {
        const nlohmann::json* v = find(key);
        if (!v) continue;
        if (!v->is_object()) throw std::invalid_argument(m_op + " params: \"" + key + "\" must be an object");
        AliasMap stated;
        for (auto it = v->begin(); it != v->end(); ++it) {
            int o = 0;
            try {
                o = std::stoi(it.key());
            } catch (const std::exception&) {
                throw std::invalid_argument(m_op + " params: \"" + key + "\" has the non-integer key \"" + it.key() + "\"");
            }
            if (!it->is_array()) throw std::invalid_argument(m_op + " params: \"" + key + "\"/" + it.key() + " must be a list");
            for (const auto& i : *it) {
                if (!i.is_number_integer())
                    throw std::invalid_argument(m_op + " params: \"" + key + "\"/" + it.key() + " must hold integers");
                stated[o].push_back(i.get<int>());
            }
        }
        const AliasMap actual = std::string_view(key) == "destroy_map" ? op.destroyMap() : op.viewMap();
        if (stated != actual)
            throw std::invalid_argument(m_op + " params: \"" + key + "\" " + v->dump() + " is not what " + op.name() +
                                        " has");
    }
}

} // namespace tl
