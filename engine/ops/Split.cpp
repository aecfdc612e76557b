#include "ops/Split.h"

#include "ops/ArrayOpUtil.h"
#include "ops/OpParamsJson.h"

#include <stdexcept>

namespace tl {

std::vector<Type> SplitOp::inferTypes(std::span<const Type* const> in) const { return inferTypesWithConstants(in, {}); }

std::vector<Type> SplitOp::inferTypesWithConstants(std::span<const Type* const> in,
                                                   std::span<const NDArray* const> constants) const {
    arrayop::requireArity(in, 3, "Split");
    const Type& x = *in[0];
    arrayop::requireTensor(x, "Split input");
    arrayop::requireIntScalar(*in[1], "Split axis");
    const Type& s = *in[2];
    if (s.isScalarType() || s.ndim() != 1 || !isInteger(s.dtype))
        throw OpTypeError("Split: `splits` must be an integer vector, got " + s.toString());
    if (s.shape[0] != kUnknownDim && s.shape[0] != m_numSplits)
        throw OpTypeError("Split{" + std::to_string(m_numSplits) + "}: `splits` has " + std::to_string(s.shape[0]) +
                          " entries");
    const NDArray* axisValue = constants.size() == 3 ? constants[1] : nullptr;
    const NDArray* splitValues = constants.size() == 3 ? constants[2] : nullptr;
    auto axis = arrayop::constantInt(axisValue);
    if (!axis) return std::vector<Type>(m_numSplits, Type::tensor(x.dtype, StaticShape(x.ndim(), kUnknownDim)));
    int64_t a = *axis;
    if (a < -x.ndim() || a >= x.ndim())
        throw OpTypeError("Split: axis " + std::to_string(a) + " is out of bounds for " + x.toString());
    if (a < 0) a += x.ndim();
    std::vector<Type> out;
    for (int i = 0; i < m_numSplits; ++i) {
        StaticShape shape = x.shape;
        shape[a] = kUnknownDim;
        if (splitValues && splitValues->valid() && splitValues->ndim() == 1) {
            if (i >= splitValues->dim(0)) throw OpTypeError("Split: number of splits is larger than splits size");
            shape[a] = static_cast<int64_t>(splitValues->flatGet(i));
            if (shape[a] < 0) throw OpTypeError("Split: split sizes cannot be negative (entry " + std::to_string(i) + ")");
        }
        out.push_back(Type::tensor(x.dtype, shape));
    }
    return out;
}

void SplitOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& x = in[0];
    if (x.ndim() == 0) throw ExecError("Split: cannot split a 0-d array");
    int64_t axis = arrayop::readInt(in[1], "Split axis");
    if (axis < -x.ndim() || axis >= x.ndim())
        throw ExecError("Split: axis " + std::to_string(axis) + " is out of bounds for shape " + shapeToString(x.shape()));
    if (axis < 0) axis += x.ndim();
    const NDArray& splits = in[2];
    if (splits.ndim() != 1 || splits.dim(0) != m_numSplits)
        throw ExecError("Split: length of splits (" + shapeToString(splits.shape()) + ") is not equal to n_splits (" +
                        std::to_string(m_numSplits) + ")");
    int64_t total = 0;
    std::vector<int64_t> sizes(m_numSplits);
    for (int i = 0; i < m_numSplits; ++i) {
        sizes[i] = static_cast<int64_t>(splits.flatGet(i));
        if (sizes[i] < 0) throw ExecError("Split: split sizes cannot be negative (entry " + std::to_string(i) + " is " +
                                          std::to_string(sizes[i]) + ")");
        total += sizes[i];
    }
    if (total != x.dim(static_cast<int>(axis)))
        throw ExecError("Split: split sizes sum to " + std::to_string(total) + "; expected " +
                        std::to_string(x.dim(static_cast<int>(axis))));
    int64_t at = 0;
    for (int i = 0; i < m_numSplits; ++i) {
        Shape shape = x.shape();
        shape[axis] = sizes[i];
        out[i] = x.view(shape, x.strides(), x.offset() + (sizes[i] > 0 ? at * x.strides()[axis] : 0));
        at += sizes[i];
    }
}

AliasMap SplitOp::viewMap() const {
    AliasMap m;
    for (int i = 0; i < m_numSplits; ++i) m[i] = {0};
    return m;
}

nlohmann::json SplitOp::params() const { return {{"len_splits", m_numSplits}}; }

OpPtr makeSplit(int numSplits) {
    if (numSplits < 1) throw std::invalid_argument("Split needs at least one part, got " + std::to_string(numSplits));
    return std::make_shared<SplitOp>(numSplits);
}

OpPtr makeOpSplit(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {"len_splits"}, "Split");
    const int64_t n = opparams::intParam(params, "len_splits", "Split");
    if (n < 1 || n > 1000000) throw std::invalid_argument("Split params: \"len_splits\" must be at least 1, got " + std::to_string(n));
    OpPtr op = makeSplit(static_cast<int>(n));
    opparams::checkStatedAliasMaps(params, *op);
    return op;
}

} // namespace tl
