#pragma once
// Reading the JSON params of ops written under PyTensor's class names by
// tools/pytensor_export.py (ARange, SortOp, Unique, ...): typed fields with errors
// naming the op and the key, and the "view_map" / "destroy_map" the exporter keeps
// beside the props, which must agree with the op's own.
#include "ir/Op.h"

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <optional>
#include <string>

namespace tl::opparams {

/// Throws std::invalid_argument unless params is an object (or null) whose keys are
/// all in `allowed` ("view_map" and "destroy_map" are always allowed).
void allowOnly(const nlohmann::json& params, std::initializer_list<const char*> allowed, const std::string& opName);

/// params[key] as the given type; std::invalid_argument naming op and key when absent
/// (unless a default is given) or of another type.
bool boolParam(const nlohmann::json& params, const char* key, const std::string& opName,
               std::optional<bool> fallback = std::nullopt);
int64_t intParam(const nlohmann::json& params, const char* key, const std::string& opName,
                 std::optional<int64_t> fallback = std::nullopt);
/// An integer or null (PyTensor's `axis=None`).
std::optional<int64_t> optionalIntParam(const nlohmann::json& params, const char* key, const std::string& opName);
std::string stringParam(const nlohmann::json& params, const char* key, const std::string& opName,
                        std::optional<std::string> fallback = std::nullopt);
/// A dtype name ("float64"); std::invalid_argument for an unknown one.
DType dtypeParam(const nlohmann::json& params, const char* key, const std::string& opName);

/// When params state "view_map" / "destroy_map", they must equal the op's maps;
/// std::invalid_argument naming the op otherwise. Call with the built op.
void checkStatedAliasMaps(const nlohmann::json& params, const Op& op);

/// Python's repr of a bool ("True" / "False") and of a string ("'quicksort'").
inline const char* pyBool(bool b) { return b ? "True" : "False"; }
inline std::string pyStr(const std::string& s) { return "'" + s + "'"; }

} // namespace tl::opparams

namespace tl::opparams {

/// Throws OpTypeError "<what> must be a 0-d number, got <type>" unless t is a
/// ScalarType or a 0-d tensor (ARange's start/stop/step, Eye's n/m/k).
void requireZeroDim(const Type& t, const std::string& what);
/// The number held by a constant 0-d input (null when the input is not constant).
std::optional<double> constantNumber(const NDArray* value);

} // namespace tl::opparams
