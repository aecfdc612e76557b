#include "cli/Args.h"

#include <cmath>

namespace tl::cli {

Args::Args(const std::vector<std::string>& argv, std::set<std::string> flags, std::set<std::string> options) {
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a.size() > 2 && a.rfind("--", 0) == 0) {
            std::string name = a.substr(2);
            std::optional<std::string> inlineValue;
            if (auto eq = name.find('='); eq != std::string::npos) {
                inlineValue = name.substr(eq + 1);
                name = name.substr(0, eq);
            }
            if (flags.count(name)) {
                if (inlineValue) throw UsageError("--" + name + " takes no value");
                m_flagsSeen.insert(name);
            } else if (options.count(name)) {
                if (inlineValue) {
                    m_values[name].push_back(*inlineValue);
                } else {
                    if (i + 1 >= argv.size()) throw UsageError("--" + name + " needs a value");
                    m_values[name].push_back(argv[++i]);
                }
            } else {
                throw UsageError("unknown option --" + name);
            }
        } else if (a == "-o" && options.count("output")) {
            if (i + 1 >= argv.size()) throw UsageError("-o needs a value");
            m_values["output"].push_back(argv[++i]);
        } else if (a == "-h" && flags.count("help")) {
            m_flagsSeen.insert("help");
        } else if (a.size() > 1 && a[0] == '-' && a != "-") {
            throw UsageError("unknown option " + a);
        } else {
            m_positional.push_back(a);
        }
    }
}

bool Args::has(const std::string& name) const { return m_flagsSeen.count(name) || m_values.count(name); }

std::optional<std::string> Args::value(const std::string& name) const {
    auto it = m_values.find(name);
    if (it == m_values.end()) return std::nullopt;
    if (it->second.size() > 1) throw UsageError("--" + name + " given more than once");
    return it->second.front();
}

std::vector<std::string> Args::values(const std::string& name) const {
    auto it = m_values.find(name);
    return it == m_values.end() ? std::vector<std::string>{} : it->second;
}

long long Args::intValue(const std::string& name, long long fallback) const {
    auto v = value(name);
    if (!v) return fallback;
    try {
        size_t used = 0;
        long long n = std::stoll(*v, &used);
        if (used != v->size()) throw std::invalid_argument(*v);
        return n;
    } catch (const std::exception&) {
        throw UsageError("--" + name + " needs a whole number, got '" + *v + "'");
    }
}

double Args::numberValue(const std::string& name, double fallback) const {
    auto v = value(name);
    if (!v) return fallback;
    try {
        size_t used = 0;
        const double x = std::stod(*v, &used);
        if (used != v->size() || !std::isfinite(x) || x < 0) throw std::invalid_argument(*v);
        return x;
    } catch (const std::exception&) {
        throw UsageError("--" + name + " needs a non-negative number, got '" + *v + "'");
    }
}

} // namespace tl::cli
