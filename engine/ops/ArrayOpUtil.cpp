#include "ops/ArrayOpUtil.h"

#include "ir/Op.h"

#include <limits>

namespace tl::arrayop {

bool isIntDType(DType d) { return isInteger(d); }

bool isIntScalarLike(const Type& t) {
    if (!t.holdsNumbers() || !isIntDType(t.dtype)) return false;
    return t.isScalarType() || t.ndim() == 0;
}

void requireIntScalar(const Type& t, const std::string& what) {
    if (!isIntScalarLike(t)) throw OpTypeError(what + " must be a 0-d integer, got " + t.toString());
}

void requireArity(std::span<const Type* const> types, size_t n, const std::string& opName) {
    if (types.size() != n)
        throw OpTypeError(opName + " takes " + std::to_string(n) + " input(s), got " + std::to_string(types.size()));
}

void requireMinArity(std::span<const Type* const> types, size_t n, const std::string& opName) {
    if (types.size() < n)
        throw OpTypeError(opName + " takes at least " + std::to_string(n) + " input(s), got " +
                          std::to_string(types.size()));
}

void requireTensor(const Type& t, const std::string& what) {
    if (t.isScalarType()) throw OpTypeError(what + " must be a tensor, got the scalar type " + t.toString());
    if (!t.isTensorType()) throw OpTypeError(what + " must be a tensor, got " + t.toString());
}

std::optional<int64_t> constantInt(const NDArray* value) {
    if (!value || !value->valid() || value->size() != 1 || !isIntDType(value->dtype())) return std::nullopt;
    return value->itemInt();
}

int64_t readInt(const NDArray& a, const std::string& what) {
    if (!a.valid()) throw ExecError(what + " has no value");
    if (a.size() != 1) throw ExecError(what + " must hold one integer, got shape " + shapeToString(a.shape()));
    if (!isIntDType(a.dtype()) && a.dtype() != DType::Bool)
        throw ExecError(what + " must be an integer, got " + std::string(dtypeName(a.dtype())));
    return a.itemInt();
}

DType smallestIntDType(int64_t v) {
    if (v >= std::numeric_limits<int8_t>::min() && v <= std::numeric_limits<int8_t>::max()) return DType::Int8;
    if (v >= std::numeric_limits<int16_t>::min() && v <= std::numeric_limits<int16_t>::max()) return DType::Int16;
    if (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max()) return DType::Int32;
    return DType::Int64;
}

const nlohmann::json& requireParam(const nlohmann::json& params, const char* key, const std::string& opName) {
    if (!params.is_object()) throw std::invalid_argument(opName + " params must be a JSON object");
    auto it = params.find(key);
    if (it == params.end()) throw std::invalid_argument(opName + " params: missing \"" + key + "\"");
    return *it;
}

std::vector<int> intListParam(const nlohmann::json& params, const char* key, const std::string& opName) {
    const auto& v = requireParam(params, key, opName);
    if (!v.is_array()) throw std::invalid_argument(opName + " params: \"" + key + "\" must be a list of integers");
    std::vector<int> out;
    for (size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_number_integer())
            throw std::invalid_argument(opName + " params: \"" + key + "\"/" + std::to_string(i) +
                                        " must be an integer, got " + v[i].dump());
        out.push_back(v[i].get<int>());
    }
    return out;
}

NDArray reuseOrEmpty(NDArray& out, DType dtype, const Shape& shape) {
    if (out.valid() && out.dtype() == dtype && out.shape() == shape && out.offset() == 0 && out.isContiguous() &&
        out.storage().use_count() == 1 && out.storage()->bytes() == out.nbytes())
        return out;
    return NDArray::empty(dtype, shape);
}

NDArray broadcastView(const NDArray& a, const Shape& shape, const std::string& where) {
    const int nd = static_cast<int>(shape.size());
    if (a.ndim() > nd)
        throw ExecError(where + ": cannot broadcast shape " + shapeToString(a.shape()) + " to " + shapeToString(shape));
    Strides strides(nd, 0);
    const int lead = nd - a.ndim();
    for (int i = 0; i < a.ndim(); ++i) {
        const int64_t d = a.dim(i);
        if (d == shape[lead + i]) strides[lead + i] = a.strides()[i];
        else if (d == 1) strides[lead + i] = 0;
        else
            throw ExecError(where + ": cannot broadcast shape " + shapeToString(a.shape()) + " to " +
                            shapeToString(shape));
    }
    return a.view(shape, std::move(strides), a.offset());
}

std::string staticShapeString(const StaticShape& s) { return Type::shapeString(s); }

} // namespace tl::arrayop
