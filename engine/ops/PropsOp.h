#pragma once
// Ops described, as in PyTensor, by a class name and an ordered list of __props__
// (the linear-algebra ops, the BLAS ops): the printed name is PyTensor's default
// Op.__str__ ("Solve{assume_a='gen', lower=False, b_ndim=1}", "MatrixInverse"),
// the JSON params are the props under their names, equality is equal props.
#include "ir/Op.h"

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace tl {

/// One prop: a bool, an integer, a string or null, printed with Python's repr.
struct OpProp {
    std::string name;
    nlohmann::json value;
};

class PropsOp : public Op {
public:
    PropsOp(OpKind kind, std::string className, std::vector<OpProp> props);
    /// "Class{a=True, b='x', c=2}", or "Class" without props.
    std::string name() const override;
    nlohmann::json params() const override;
    const std::string& className() const { return m_class; }
    const std::vector<OpProp>& props() const { return m_props; }
    /// The value of a prop this op has (std::logic_error for another name).
    bool boolProp(std::string_view name) const;
    int intProp(std::string_view name) const;
    std::string stringProp(std::string_view name) const;

private:
    const nlohmann::json& prop(std::string_view name) const;
    std::string m_class;
    std::vector<OpProp> m_props;
};

/// "True", "'gen'", "3", "None": Python's repr of a prop value.
std::string pythonRepr(const nlohmann::json& v);

/// Reads an op's props from its JSON params: missing keys take PyTensor's defaults,
/// a value of the wrong kind is std::invalid_argument naming the op and the key.
/// "destroy_map" / "view_map", which the exporter writes beside the props, must agree
/// with the op built (check()).
class PropReader {
public:
    PropReader(const nlohmann::json& params, std::string opName);
    bool getBool(const char* key, bool fallback) const;
    int getInt(const char* key, int fallback) const;
    std::string getString(const char* key, const std::string& fallback, const std::set<std::string>& allowed = {}) const;
    /// Throws when params state a destroy_map / view_map other than the op's.
    void check(const Op& op) const;

private:
    const nlohmann::json* find(const char* key) const;
    const nlohmann::json& m_params;
    std::string m_op;
};

} // namespace tl
