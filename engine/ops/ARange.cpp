#include "ops/ARange.h"

#include "ops/ArrayOpUtil.h"
#include "ops/OpParamsJson.h"

#include <cmath>
#include <stdexcept>

namespace tl {

int64_t arangeLength(double start, double stop, double step) {
    if (step == 0) throw std::invalid_argument("step is zero");
    const double n = std::ceil((stop - start) / step);
    if (std::isnan(n)) throw std::invalid_argument("the length of arange(" + std::to_string(start) + ", " +
                                                   std::to_string(stop) + ", " + std::to_string(step) + ") is not a number");
    if (n <= 0) return 0;
    if (n > 9.0e15) throw std::invalid_argument("arange of " + std::to_string(n) + " elements is too long");
    return static_cast<int64_t>(n);
}

std::string ARangeOp::name() const { return "ARange{dtype=" + opparams::pyStr(std::string(dtypeName(m_dtype))) + "}"; }

std::vector<Type> ARangeOp::inferTypes(std::span<const Type* const> in) const { return inferTypesWithConstants(in, {}); }

std::vector<Type> ARangeOp::inferTypesWithConstants(std::span<const Type* const> in,
                                                    std::span<const NDArray* const> constants) const {
    arrayop::requireArity(in, 3, "ARange");
    const char* what[] = {"ARange start", "ARange stop", "ARange step"};
    for (int i = 0; i < 3; ++i) opparams::requireZeroDim(*in[i], what[i]);
    int64_t length = kUnknownDim;
    if (constants.size() == 3) {
        auto start = opparams::constantNumber(constants[0]), stop = opparams::constantNumber(constants[1]),
             step = opparams::constantNumber(constants[2]);
        if (start && stop && step) {
            try {
                length = arangeLength(*start, *stop, *step);
            } catch (const std::invalid_argument& e) {
                throw OpTypeError(std::string("ARange: ") + e.what());
            }
        }
    }
    return {Type::tensor(m_dtype, {length})};
}

void ARangeOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    for (int i = 0; i < 3; ++i)
        if (!in[i].valid() || in[i].size() != 1) throw ExecError("ARange: input " + std::to_string(i) + " must hold one number");
    const double start = in[0].item(), stop = in[1].item(), step = in[2].item();
    int64_t n = 0;
    try {
        n = arangeLength(start, stop, step);
    } catch (const std::invalid_argument& e) {
        throw ExecError(std::string("ARange: ") + e.what());
    }
    NDArray r = arrayop::reuseOrEmpty(out[0], m_dtype, {n});
    const bool integerArgs = isInteger(in[0].dtype()) && isInteger(in[2].dtype());
    dispatchDType(m_dtype, [&](auto t) {
        using T = decltype(t);
        T* o = r.data<T>();
        if (n == 0) return;
        // As NumPy's fill: the first two values in the output dtype, then first + i * delta.
        if constexpr (std::is_floating_point_v<T>) {
            const double first = static_cast<T>(start);
            const double delta = static_cast<double>(static_cast<T>(start + step)) - first;
            for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(first + static_cast<double>(i) * delta);
        } else if constexpr (std::is_same_v<T, bool>) {
            for (int64_t i = 0; i < n; ++i) o[i] = (start + static_cast<double>(i) * step) != 0;
        } else {
            const int64_t s0 = integerArgs ? in[0].itemInt() : static_cast<int64_t>(static_cast<T>(start));
            const int64_t d = integerArgs ? in[2].itemInt() : static_cast<int64_t>(static_cast<T>(start + step)) - s0;
            for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(s0 + i * d);
        }
    });
    out[0] = r;
}

nlohmann::json ARangeOp::params() const { return {{"dtype", dtypeName(m_dtype)}}; }

OpPtr makeARange(DType dtype) { return std::make_shared<ARangeOp>(dtype); }

OpPtr makeOpARange(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {"dtype"}, "ARange");
    OpPtr op = makeARange(opparams::dtypeParam(params, "dtype", "ARange"));
    opparams::checkStatedAliasMaps(params, *op);
    return op;
}

} // namespace tl
