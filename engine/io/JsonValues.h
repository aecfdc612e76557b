#pragma once
// Array values as JSON: the inputs a user gives `tensorlens run` and the outputs
// it prints. Floats are written so they read back exactly; NaN and infinities
// as the strings "nan", "inf", "-inf".
#include "core/NDArray.h"
#include "ir/Graph.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace tl {

/// A bad value; the message names the JSON path (and file when known).
struct ValueError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// {"dtype", "shape", "data"} with nested data (the oracle files' form).
nlohmann::json arrayToJson(const NDArray& a);
/// Accepts a nested list (dtype from `expected`) or {"dtype", "shape", "data"} (data nested or flat).
/// Checks the result against `expected` (dtype convertible, known dims equal). `path` names the place.
NDArray arrayFromJson(const nlohmann::json& j, const Type& expected, const std::string& path);
/// One value per graph input, looked up by input name in a JSON object; an input the
/// object lacks takes its shared value (Variable::sharedValue) where it has one.
std::vector<NDArray> inputsFromJson(const nlohmann::json& j, const Graph& g, const std::string& where);
/// The type of each value of a values object ({name: {"dtype", "shape", "data"}}): its
/// dtype and rank, every dim unknown, as a pt.tensor of that rank is typed; what the
/// dprint importer needs for a listing printed without types. A value without its dtype
/// and shape is a ValueError naming it.
std::unordered_map<std::string, Type> valueTypes(const nlohmann::json& j, const std::string& where);
/// Reads and parses a JSON file; errors name the file (and line/column for syntax errors).
nlohmann::json readJsonFile(const std::string& path);

/// Seeded random values for every input of `g`: floats uniform in [-1, 1], ints in [0, 5],
/// bools random; unknown dims become `unknownDim`. An input with a shared value keeps it.
std::vector<NDArray> randomInputs(const Graph& g, uint64_t seed, int64_t unknownDim = 4);

} // namespace tl
