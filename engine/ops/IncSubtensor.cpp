#include "ops/IncSubtensor.h"

#include "ops/ArrayOpUtil.h"

#include <nlohmann/json.hpp>

namespace tl {

IncSubtensorOp::IncSubtensorOp(std::vector<IndexEntry> entries, bool setInsteadOfInc, bool inplace)
    : Op(OpKind::IncSubtensor), m_entries(std::move(entries)), m_set(setInsteadOfInc), m_inplace(inplace) {}

std::string IncSubtensorOp::name() const {
    return std::string(m_set ? "SetSubtensor{" : "IncSubtensor{") + indicesString(m_entries) + "}";
}

std::vector<Type> IncSubtensorOp::inferTypes(std::span<const Type* const> in) const {
    return inferTypesWithConstants(in, {});
}

std::vector<Type> IncSubtensorOp::inferTypesWithConstants(std::span<const Type* const> in,
                                                          std::span<const NDArray* const> constants) const {
    arrayop::requireMinArity(in, 2, name());
    const Type& x = *in[0];
    const Type& y = *in[1];
    arrayop::requireTensor(y, name() + " value");
    const Type region = subtensorType(x, m_entries, in.subspan(2), constants.empty() ? constants : constants.subspan(2), name());
    if (y.ndim() > region.ndim())
        throw OpTypeError(name() + ": trying to " + (m_set ? "set" : "increment") + " a " +
                          std::to_string(region.ndim()) + "-d subtensor of " + x.toString() + " with a " +
                          std::to_string(y.ndim()) + "-d value " + y.toString());
    const int lead = region.ndim() - y.ndim();
    for (int i = 0; i < y.ndim(); ++i) {
        const int64_t ys = y.shape[i], rs = region.shape[lead + i];
        if (ys != kUnknownDim && ys != 1 && rs != kUnknownDim && ys != rs)
            throw OpTypeError(name() + ": value " + y.toString() + " does not broadcast to the indexed region " +
                              Type::shapeString(region.shape) + " of " + x.toString());
    }
    return {x};
}

namespace {
template <typename T> void addInto(const NDArray& region, const NDArray& src) {
    T* dst = static_cast<T*>(region.storage()->data());
    const T* s = static_cast<const T*>(src.storage()->data());
    arrayop::forEachOffsetPair(region.shape(), region.strides(), region.offset(), src.strides(), src.offset(),
                               [&](int64_t a, int64_t b) {
                                   if constexpr (std::is_same_v<T, bool>) dst[a] = dst[a] || s[b];
                                   else if constexpr (std::is_integral_v<T>)
                                       // Wrapping add, as NumPy (signed overflow is undefined in C++).
                                       dst[a] = static_cast<T>(static_cast<uint64_t>(dst[a]) + static_cast<uint64_t>(s[b]));
                                   else dst[a] = dst[a] + s[b];
                               });
}
} // namespace

void IncSubtensorOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& x = in[0];
    NDArray target;
    if (m_inplace) {
        target = x;
    } else {
        target = arrayop::reuseOrEmpty(out[0], x.dtype(), x.shape());
        target.assign(x);
    }
    const NDArray region = subtensorView(target, m_entries, in.subspan(2), name());
    // y may alias x (x[1:] += x[:-1]); read it from a copy then. Converting the dtype copies too.
    NDArray y = in[1];
    if (y.dtype() != x.dtype() || y.sharesStorageWith(target)) y = y.astype(x.dtype());
    const NDArray src = arrayop::broadcastView(y, region.shape(), name() + ": value of shape " + shapeToString(y.shape()) +
                                                                      " into region");
    if (m_set) region.assign(src);
    else dispatchDType(x.dtype(), [&](auto t) { addInto<decltype(t)>(region, src); });
    out[0] = target;
}

AliasMap IncSubtensorOp::destroyMap() const {
    if (m_inplace) return {{0, {0}}};
    return {};
}

nlohmann::json IncSubtensorOp::params() const {
    return {{"idx_list", indexEntriesToJson(m_entries)}, {"set_instead_of_inc", m_set}, {"inplace", m_inplace}};
}

OpPtr makeIncSubtensor(std::vector<IndexEntry> entries, bool setInsteadOfInc, bool inplace) {
    return std::make_shared<IncSubtensorOp>(std::move(entries), setInsteadOfInc, inplace);
}

OpPtr makeOpIncSubtensor(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    const std::string op = "IncSubtensor";
    auto entries = indexEntriesFromJson(arrayop::requireParam(params, "idx_list", op), op);
    const auto& set = arrayop::requireParam(params, "set_instead_of_inc", op);
    const auto& inplace = arrayop::requireParam(params, "inplace", op);
    if (!set.is_boolean()) throw std::invalid_argument(op + " params: \"set_instead_of_inc\" must be true or false");
    if (!inplace.is_boolean()) throw std::invalid_argument(op + " params: \"inplace\" must be true or false");
    return makeIncSubtensor(std::move(entries), set.get<bool>(), inplace.get<bool>());
}

} // namespace tl
