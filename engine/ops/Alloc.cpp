#include "ops/Alloc.h"

#include "ops/ArrayOpUtil.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace tl {

namespace {
/// Static dims from 0-d integer inputs: the constant's value or unknown.
StaticShape staticDims(std::span<const Type* const> dims, std::span<const NDArray* const> constants,
                       const std::string& opName) {
    StaticShape out;
    for (size_t i = 0; i < dims.size(); ++i) {
        arrayop::requireIntScalar(*dims[i], opName + " dim " + std::to_string(i));
        auto c = arrayop::constantInt(i < constants.size() ? constants[i] : nullptr);
        if (c && *c < 0) throw OpTypeError(opName + ": dim " + std::to_string(i) + " is negative (" + std::to_string(*c) + ")");
        out.push_back(c ? *c : kUnknownDim);
    }
    return out;
}

Shape runtimeDims(std::span<const NDArray> dims, const std::string& opName) {
    Shape out;
    for (size_t i = 0; i < dims.size(); ++i) {
        const int64_t d = arrayop::readInt(dims[i], opName + " dim " + std::to_string(i));
        if (d < 0) throw ExecError(opName + ": dim " + std::to_string(i) + " is negative (" + std::to_string(d) + ")");
        out.push_back(d);
    }
    return out;
}
} // namespace

std::vector<Type> AllocOp::inferTypes(std::span<const Type* const> in) const { return inferTypesWithConstants(in, {}); }

std::vector<Type> AllocOp::inferTypesWithConstants(std::span<const Type* const> in,
                                                   std::span<const NDArray* const> constants) const {
    arrayop::requireMinArity(in, 1, "Alloc");
    const Type& v = *in[0];
    arrayop::requireTensor(v, "Alloc value");
    StaticShape out = staticDims(in.subspan(1), constants.empty() ? constants : constants.subspan(1), "Alloc");
    const int nd = static_cast<int>(out.size());
    if (v.ndim() > nd)
        throw OpTypeError("Alloc: the value " + v.toString() + " has more dimensions than the " + std::to_string(nd) +
                          " specified");
    // As PyTensor: a non-broadcastable value dim fills in an unknown target dim; known
    // dims must agree unless the value's dim is 1.
    const int lead = nd - v.ndim();
    for (int i = 0; i < v.ndim(); ++i) {
        const int64_t vs = v.shape[i];
        int64_t& os = out[lead + i];
        if (vs != 1 && os == kUnknownDim) os = vs;
        else if (vs != kUnknownDim && os != kUnknownDim && vs != os && vs != 1)
            throw OpTypeError("Alloc: value " + v.toString() + " does not fit the target shape " + Type::shapeString(out));
    }
    return {Type::tensor(v.dtype, std::move(out))};
}

void AllocOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& v = in[0];
    const Shape shape = runtimeDims(in.subspan(1), "Alloc");
    const NDArray src = arrayop::broadcastView(v, shape, "Alloc");
    NDArray r = arrayop::reuseOrEmpty(out[0], v.dtype(), shape);
    if (v.size() == 1) {
        // One value: a plain fill, the common case (zeros, ones).
        dispatchDType(v.dtype(), [&](auto t) {
            using T = decltype(t);
            std::fill(r.data<T>(), r.data<T>() + r.size(), v.data<T>()[0]);
        });
    } else {
        r.assign(src);
    }
    out[0] = r;
}

std::vector<Type> AllocEmptyOp::inferTypes(std::span<const Type* const> in) const {
    return inferTypesWithConstants(in, {});
}

std::vector<Type> AllocEmptyOp::inferTypesWithConstants(std::span<const Type* const> in,
                                                        std::span<const NDArray* const> constants) const {
    return {Type::tensor(m_dtype, staticDims(in, constants, name()))};
}

void AllocEmptyOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    out[0] = arrayop::reuseOrEmpty(out[0], m_dtype, runtimeDims(in, name()));
}

nlohmann::json AllocEmptyOp::params() const { return {{"dtype", dtypeName(m_dtype)}}; }

OpPtr makeAlloc() {
    static const OpPtr op = std::make_shared<AllocOp>();
    return op;
}

OpPtr makeAllocEmpty(DType dtype) { return std::make_shared<AllocEmptyOp>(dtype); }

OpPtr makeOpAlloc(const nlohmann::json&, std::shared_ptr<const Graph>) { return makeAlloc(); }

OpPtr makeOpAllocEmpty(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    const auto& d = arrayop::requireParam(params, "dtype", "AllocEmpty");
    auto dtype = d.is_string() ? parseDType(d.get<std::string>()) : std::nullopt;
    if (!dtype) throw std::invalid_argument("AllocEmpty params: \"dtype\" must be a dtype name, got " + d.dump());
    return makeAllocEmpty(*dtype);
}

} // namespace tl
