#pragma once
// Building blocks shared by tensorlens's JSON file formats (graph, trace): types,
// constant data with exact numbers, checked accessors whose errors name the JSON
// path, and the one canonical text layout (sorted keys, fixed number formatting)
// that makes save -> load -> save byte-identical.
#include "core/NDArray.h"
#include "io/FormatError.h"
#include "ir/Type.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace tl {

/// Largest tensor rank the file formats accept (NumPy 2's limit).
inline constexpr int kMaxFileRank = 64;
/// Deepest nesting of JSON arrays/objects the loaders accept (guards recursion in the JSON library).
inline constexpr int kMaxJsonDepth = 200;

/// {"kind": "tensor", "dtype": "float64", "shape": [null, 7]}, {"kind": "scalar", "dtype": "int64"},
/// {"kind": "slice"} or {"kind": "none"}.
nlohmann::json typeToJson(const Type& t);
/// Inverse of typeToJson; throws FormatError naming `path`.
Type typeFromJson(const nlohmann::json& j, const std::string& path);

/// The elements in C order: numbers (floats shortest round-trip; float32 as its
/// shortest float32 decimal; ints exact), booleans, and "nan" / "inf" / "-inf".
nlohmann::json arrayDataToJson(const NDArray& a);
/// An array of `dtype` and `shape` from `data`: a flat list in C order, nested
/// lists, or one number for a 0-d array. Exact for every dtype (int64 beyond 2^53
/// included); the element count is checked before anything is allocated.
NDArray arrayFromJsonData(DType dtype, const Shape& shape, const nlohmann::json& data, const std::string& path);

/// A constant's value as the graph and trace formats write it, into `entry` beside its
/// "type": "dtype", "shape" and "data" for a tensor or scalar; for a slice only "data":
/// [start, stop, step] with null where a bound is None; for None only "data": null.
void constantValueToJson(const NDArray& value, const Type& type, nlohmann::json& entry);
/// Inverse of constantValueToJson for an entry whose type is `type`; throws FormatError
/// naming the field under `path`.
NDArray constantValueFromJson(const nlohmann::json& entry, const Type& type, const std::string& path);
/// [start, stop, step] with nulls, and back (FormatError naming `path`).
nlohmann::json sliceValueToJson(const NDArray& value);
NDArray sliceValueFromJson(const nlohmann::json& j, const std::string& path);

/// Canonical text: two-space indent, sorted keys, arrays of scalars on one line,
/// containers that fit in 120 columns inline. Same value -> same bytes.
std::string canonicalDump(const nlohmann::json& j);

/// Parses JSON text; errors are FormatError with path "line L, column C".
/// Rejects nesting deeper than kMaxJsonDepth before parsing.
nlohmann::json parseJsonText(std::string_view text);
/// Throws FormatError when `j` nests deeper than kMaxJsonDepth (iterative check).
void checkJsonDepth(const nlohmann::json& j, const std::string& path);

/// jsonPath("/graph/nodes", 3) == "/graph/nodes/3"; keys are escaped as JSON pointers require.
std::string jsonPath(const std::string& base, std::string_view key);
std::string jsonPath(const std::string& base, size_t index);

// ---- checked accessors: each throws FormatError naming the path ----
void requireObject(const nlohmann::json& j, const std::string& path);
const nlohmann::json& requireField(const nlohmann::json& obj, const char* key, const std::string& path);
const nlohmann::json& requireArray(const nlohmann::json& obj, const char* key, const std::string& path);
int64_t requireInt(const nlohmann::json& j, const std::string& path, int64_t lo, int64_t hi);
std::string requireString(const nlohmann::json& j, const std::string& path);
/// "a string", "an array", ... for messages.
std::string jsonKind(const nlohmann::json& j);

} // namespace tl
