#include "ops/FillDiagonal.h"

#include "ops/ArrayOpUtil.h"
#include "ops/OpParamsJson.h"

#include <algorithm>

namespace tl {

std::vector<Type> FillDiagonalOp::inferTypes(std::span<const Type* const> in) const {
    const bool withOffset = kind() == OpKind::FillDiagonalOffset;
    const std::string op = name();
    arrayop::requireArity(in, withOffset ? 3 : 2, op);
    const Type& a = *in[0];
    arrayop::requireTensor(a, op + " input");
    if (withOffset ? a.ndim() != 2 : a.ndim() < 2)
        throw OpTypeError(op + ": first parameter must have " + (withOffset ? "exactly" : "at least") +
                          " two dimensions, got " + a.toString());
    opparams::requireZeroDim(*in[1], op + ": second parameter");
    if (in[1]->dtype != a.dtype)
        throw OpTypeError(op + ": type of second parameter (" + std::string(dtypeName(in[1]->dtype)) +
                          ") must be the same as the first's (" + std::string(dtypeName(a.dtype)) + ")");
    if (withOffset) arrayop::requireIntScalar(*in[2], op + ": third parameter");
    return {Type::tensor(a.dtype, a.shape)};
}

void FillDiagonalOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& a = in[0];
    NDArray r = a.copy();
    if (in[1].size() != 1) throw ExecError(name() + ": the value must hold one element");
    const int nd = r.ndim();
    // Elements (i, i, ..., i) of a C-contiguous copy, or (i, i + offset) of a matrix.
    int64_t count = 0, start = 0, step = 0;
    if (kind() == OpKind::FillDiagonal) {
        if (nd > 2)
            for (int d = 1; d < nd; ++d)
                if (r.dim(d) != r.dim(0))
                    throw ExecError("FillDiagonal: all dimensions of an array of more than two must be equal, got " +
                                    shapeToString(r.shape()));
        count = nd == 0 ? 0 : r.dim(0);
        for (int d = 1; d < nd; ++d) count = std::min(count, r.dim(d));
        for (int d = 0; d < nd; ++d) step += r.strides()[d];
    } else {
        const int64_t offset = arrayop::readInt(in[2], "FillDiagonalOffset offset");
        const int64_t h = r.dim(0), w = r.dim(1);
        if (offset >= 0) {
            start = offset;
            count = std::min(std::min(w, h), w - offset);
        } else {
            start = -offset * w;
            count = std::min(std::min(w, h), h + offset);
        }
        step = w + 1;
    }
    dispatchDType(r.dtype(), [&](auto t) {
        using T = decltype(t);
        T* o = r.data<T>();
        const T v = isInteger(in[1].dtype()) ? static_cast<T>(in[1].itemInt()) : static_cast<T>(in[1].item());
        for (int64_t i = 0; i < count; ++i) o[start + i * step] = v;
    });
    out[0] = r;
}

OpPtr makeFillDiagonal() {
    static const OpPtr op = std::make_shared<FillDiagonalOp>(OpKind::FillDiagonal);
    return op;
}

OpPtr makeFillDiagonalOffset() {
    static const OpPtr op = std::make_shared<FillDiagonalOp>(OpKind::FillDiagonalOffset);
    return op;
}

OpPtr makeOpFillDiagonal(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {}, "FillDiagonal");
    return makeFillDiagonal();
}

OpPtr makeOpFillDiagonalOffset(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    opparams::allowOnly(params, {}, "FillDiagonalOffset");
    return makeFillDiagonalOffset();
}

} // namespace tl
