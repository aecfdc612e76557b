#include "ops/Diagonal.h"

#include "ops/ArrayOpUtil.h"
#include "ops/OpParamsJson.h"

#include <algorithm>
#include <stdexcept>

namespace tl {

int64_t diagonalLength(int64_t d1, int64_t d2, int64_t offset) {
    if (offset > 0) return std::clamp<int64_t>(d2 - offset, 0, d1);
    if (offset < 0) return std::clamp<int64_t>(d1 + offset, 0, d2);
    return std::min(d1, d2);
}

namespace {
void checkAxes(int axis1, int axis2, const char* op) {
    if (axis1 < 0 || axis2 < 0) throw std::invalid_argument(std::string(op) + " does not take negative axes");
    if (axis1 == axis2) throw std::invalid_argument(std::string(op) + ": axis1 and axis2 cannot be the same");
}
} // namespace

ExtractDiagOp::ExtractDiagOp(int64_t offset, int axis1, int axis2, bool view)
    : Op(OpKind::ExtractDiag), m_offset(offset), m_axis1(axis1), m_axis2(axis2), m_view(view) {
    checkAxes(axis1, axis2, "ExtractDiag");
    if (m_axis1 > m_axis2) {
        std::swap(m_axis1, m_axis2);
        m_offset = -m_offset;
    }
}

std::string ExtractDiagOp::name() const {
    return "ExtractDiag{offset=" + std::to_string(m_offset) + ", axis1=" + std::to_string(m_axis1) +
           ", axis2=" + std::to_string(m_axis2) + ", view=" + opparams::pyBool(m_view) + "}";
}

std::vector<Type> ExtractDiagOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 1, "ExtractDiag");
    const Type& x = *in[0];
    arrayop::requireTensor(x, "ExtractDiag input");
    if (x.ndim() < 2) throw OpTypeError("ExtractDiag needs an input with 2 or more dimensions, got " + x.toString());
    if (m_axis2 >= x.ndim())
        throw OpTypeError("ExtractDiag: axis " + std::to_string(m_axis2) + " is out of bounds for " + x.toString());
    StaticShape out;
    for (int d = 0; d < x.ndim(); ++d)
        if (d != m_axis1 && d != m_axis2) out.push_back(x.shape[d]);
    const int64_t d1 = x.shape[m_axis1], d2 = x.shape[m_axis2];
    out.push_back(d1 == kUnknownDim || d2 == kUnknownDim ? kUnknownDim : diagonalLength(d1, d2, m_offset));
    return {Type::tensor(x.dtype, out)};
}

void ExtractDiagOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& x = in[0];
    if (x.ndim() <= m_axis2)
        throw ExecError("ExtractDiag: input of shape " + shapeToString(x.shape()) + " has no axis " + std::to_string(m_axis2));
    Shape shape;
    Strides strides;
    for (int d = 0; d < x.ndim(); ++d)
        if (d != m_axis1 && d != m_axis2) {
            shape.push_back(x.dim(d));
            strides.push_back(x.strides()[d]);
        }
    const int64_t n = diagonalLength(x.dim(m_axis1), x.dim(m_axis2), m_offset);
    shape.push_back(n);
    strides.push_back(x.strides()[m_axis1] + x.strides()[m_axis2]);
    int64_t offset = x.offset();
    if (n > 0) offset += m_offset >= 0 ? m_offset * x.strides()[m_axis2] : -m_offset * x.strides()[m_axis1];
    NDArray diag = x.view(std::move(shape), std::move(strides), offset);
    out[0] = m_view ? diag : diag.copy();
}

nlohmann::json ExtractDiagOp::params() const {
    return {{"offset", m_offset}, {"axis1", m_axis1}, {"axis2", m_axis2}, {"view", m_view}};
}

AllocDiagOp::AllocDiagOp(int axis1, int axis2, int64_t offset)
    : Op(OpKind::AllocDiag), m_axis1(std::min(axis1, axis2)), m_axis2(std::max(axis1, axis2)), m_offset(offset) {
    checkAxes(axis1, axis2, "AllocDiag");
}

std::string AllocDiagOp::name() const {
    return "AllocDiag{self.axis1=" + std::to_string(m_axis1) + ", self.axis2=" + std::to_string(m_axis2) +
           ", self.offset=" + std::to_string(m_offset) + "}";
}

std::vector<Type> AllocDiagOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 1, "AllocDiag");
    const Type& v = *in[0];
    arrayop::requireTensor(v, "AllocDiag input");
    if (v.ndim() < 1) throw OpTypeError("AllocDiag needs an input with 1 or more dimensions, got " + v.toString());
    const int outNd = v.ndim() + 1;
    if (m_axis2 >= outNd)
        throw OpTypeError("AllocDiag: axis " + std::to_string(m_axis2) + " is out of bounds for a " +
                          std::to_string(outNd) + "-d result of " + v.toString());
    const int64_t n = v.shape.back();
    const int64_t side = n == kUnknownDim ? kUnknownDim : n + std::abs(m_offset);
    StaticShape out;
    int batch = 0;
    for (int d = 0; d < outNd; ++d) out.push_back(d == m_axis1 || d == m_axis2 ? side : v.shape[batch++]);
    return {Type::tensor(v.dtype, out)};
}

void AllocDiagOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& v = in[0];
    const int outNd = v.ndim() + 1;
    if (v.ndim() < 1 || m_axis2 >= outNd)
        throw ExecError("AllocDiag: input of shape " + shapeToString(v.shape()) + " does not fit axes (" +
                        std::to_string(m_axis1) + ", " + std::to_string(m_axis2) + ")");
    const int64_t n = v.dim(v.ndim() - 1);
    const int64_t side = n + std::abs(m_offset);
    Shape shape;
    int batch = 0;
    for (int d = 0; d < outNd; ++d) shape.push_back(d == m_axis1 || d == m_axis2 ? side : v.dim(batch++));
    NDArray r = arrayop::reuseOrEmpty(out[0], v.dtype(), shape);
    dispatchDType(v.dtype(), [&](auto t) {
        using T = decltype(t);
        std::fill(r.data<T>(), r.data<T>() + r.size(), T(0));
    });
    // The diagonal of r as a view (batch dims, then the diagonal), then v copied into it.
    Shape dshape;
    Strides dstrides;
    for (int d = 0; d < outNd; ++d)
        if (d != m_axis1 && d != m_axis2) {
            dshape.push_back(r.dim(d));
            dstrides.push_back(r.strides()[d]);
        }
    dshape.push_back(n);
    dstrides.push_back(r.strides()[m_axis1] + r.strides()[m_axis2]);
    const int64_t start = m_offset >= 0 ? m_offset * r.strides()[m_axis2] : -m_offset * r.strides()[m_axis1];
    if (n > 0) r.view(dshape, dstrides, r.offset() + start).assign(v);
    out[0] = r;
}

nlohmann::json AllocDiagOp::params() const { return {{"axis1", m_axis1}, {"axis2", m_axis2}, {"offset", m_offset}}; }

OpPtr makeExtractDiag(int64_t offset, int axis1, int axis2, bool view) {
    return std::make_shared<ExtractDiagOp>(offset, axis1, axis2, view);
}

OpPtr makeAllocDiag(int axis1, int axis2, int64_t offset) { return std::make_shared<AllocDiagOp>(axis1, axis2, offset); }

OpPtr makeOpExtractDiag(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    const std::string op = "ExtractDiag";
    opparams::allowOnly(params, {"offset", "axis1", "axis2", "view"}, op);
    OpPtr r = makeExtractDiag(opparams::intParam(params, "offset", op, 0),
                              static_cast<int>(opparams::intParam(params, "axis1", op, 0)),
                              static_cast<int>(opparams::intParam(params, "axis2", op, 1)),
                              opparams::boolParam(params, "view", op, true));
    opparams::checkStatedAliasMaps(params, *r);
    return r;
}

OpPtr makeOpAllocDiag(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    // PyTensor's AllocDiag is an OpFromGraph: the exported inner graph is its expansion,
    // which the kernel replaces.
    const std::string op = "AllocDiag";
    opparams::allowOnly(params, {"axis1", "axis2", "offset"}, op);
    return makeAllocDiag(static_cast<int>(opparams::intParam(params, "axis1", op, 0)),
                         static_cast<int>(opparams::intParam(params, "axis2", op, 1)),
                         opparams::intParam(params, "offset", op, 0));
}

} // namespace tl
