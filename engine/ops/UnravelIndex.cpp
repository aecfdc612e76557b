#include "ops/UnravelIndex.h"

#include "ops/ArrayOpUtil.h"
#include "ops/OpParamsJson.h"

#include <stdexcept>

namespace tl {

std::vector<Type> UnravelIndexOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 2, "UnravelIndex");
    const Type& indices = *in[0];
    const Type& dims = *in[1];
    arrayop::requireTensor(indices, "UnravelIndex indices");
    arrayop::requireTensor(dims, "UnravelIndex dims");
    // PyTensor's make_node: int_dtypes only (bool is not an index here).
    for (const Type* t : {&indices, &dims})
        if (!isInteger(t->dtype))
            throw OpTypeError("UnravelIndex: '" + std::string(dtypeName(t->dtype)) +
                              "' object cannot be interpreted as an index (" + (t == &indices ? "indices" : "dims") + ")");
    if (dims.ndim() != 1) throw OpTypeError("UnravelIndex: dims must be a 1D array, got " + dims.toString());
    // The number of outputs is the length of dims, as PyTensor's get_vector_length.
    if (dims.shape[0] == kUnknownDim)
        throw OpTypeError("UnravelIndex: the length of dims cannot be determined (it is the number of outputs), got " +
                          dims.toString());
    if (dims.shape[0] == 0) throw OpTypeError("UnravelIndex: dims is empty, so there would be no outputs");
    // No static dims, as PyTensor's make_node (its infer_shape gives the indices' shape).
    return std::vector<Type>(static_cast<size_t>(dims.shape[0]),
                             Type::tensor(DType::Int64, StaticShape(static_cast<size_t>(indices.ndim()), kUnknownDim)));
}

void UnravelIndexOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray indices = in[0].astype(DType::Int64);
    const NDArray& dimsIn = in[1];
    if (dimsIn.ndim() != 1) throw ExecError("UnravelIndex: dims must be a 1D array, got shape " + shapeToString(dimsIn.shape()));
    const NDArray dimsArr = dimsIn.astype(DType::Int64);
    const Shape dims(dimsArr.data<int64_t>(), dimsArr.data<int64_t>() + dimsArr.size());
    const size_t nd = dims.size();
    if (nd != out.size())
        throw ExecError("UnravelIndex: dims " + shapeToString(dims) + " has " + std::to_string(nd) + " entries for " +
                        std::to_string(out.size()) + " outputs");
    // NumPy's PyArray_OverflowMultiplyList: a zero dim makes the size 0 before any overflow.
    int64_t size = 1;
    for (int64_t d : dims) {
        if (d == 0) {
            size = 0;
            break;
        }
        if (__builtin_mul_overflow(size, d, &size))
            throw ExecError("UnravelIndex: dimensions are too large; arrays and shapes with a total size greater than "
                            "'intp' are not supported (dims " + shapeToString(dims) + ")");
    }
    const int64_t count = indices.size();
    // NumPy raises for these or divides by them into meaningless coordinates.
    if (count != 0)
        for (int64_t d : dims)
            if (d < 0) throw ExecError("UnravelIndex: negative dimensions are not allowed: dims " + shapeToString(dims));
    std::vector<int64_t*> dst;
    for (size_t d = 0; d < nd; ++d) {
        out[d] = arrayop::reuseOrEmpty(out[d], DType::Int64, indices.shape());
        dst.push_back(out[d].data<int64_t>());
    }
    const int64_t* ix = indices.data<int64_t>();
    for (int64_t k = 0; k < count; ++k) {
        int64_t v = ix[k];
        if (v < 0 || v >= size)
            throw ExecError("UnravelIndex: index " + std::to_string(v) + " is out of bounds for array with size " +
                            std::to_string(size) + " (dims " + shapeToString(dims) + ")");
        for (size_t i = 0; i < nd; ++i) {
            const size_t d = m_fortran ? i : nd - 1 - i;
            dst[d][k] = v % dims[d];
            v /= dims[d];
        }
    }
}

OpPtr makeUnravelIndex(const std::string& order) {
    if (order != "C" && order != "F")
        throw std::invalid_argument("UnravelIndex: order must be 'C' or 'F' (got '" + order + "')");
    return std::make_shared<UnravelIndexOp>(order == "F");
}

OpPtr makeOpUnravelIndex(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {"order"}, "UnravelIndex");
    return makeUnravelIndex(opparams::stringParam(params, "order", "UnravelIndex", "C"));
}

nlohmann::json UnravelIndexOp::params() const { return {{"order", m_fortran ? "F" : "C"}}; }

} // namespace tl
