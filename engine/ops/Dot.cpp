#include "ops/Dot.h"

#include "ops/ArrayOpUtil.h"

#include <nlohmann/json.hpp>

namespace tl {

namespace {
/// Products are accumulated in T for floats (as BLAS does), in wrapping uint64 for
/// integers (signed overflow would be undefined; NumPy wraps) and as or-of-ands for bool.
template <typename T> struct DotArith {
    using Acc = std::conditional_t<std::is_floating_point_v<T>, T, std::conditional_t<std::is_same_v<T, bool>, bool, uint64_t>>;
    static Acc mulAdd(Acc c, T a, T b) {
        if constexpr (std::is_same_v<T, bool>) return c || (a && b);
        else return c + static_cast<Acc>(a) * static_cast<Acc>(b);
    }
};

/// C(m,n) = A(m,k) B(k,n) over strided views; vectors are passed as 1-row/1-column
/// matrices. Loop order i-k-j keeps the innermost walk along rows of B and C.
template <typename T>
void matmul(const T* a, int64_t as0, int64_t as1, const T* b, int64_t bs0, int64_t bs1, T* c, int64_t m, int64_t k,
            int64_t n) {
    using Acc = typename DotArith<T>::Acc;
    std::vector<Acc> row(static_cast<size_t>(n));
    for (int64_t i = 0; i < m; ++i) {
        std::fill(row.begin(), row.end(), Acc{});
        for (int64_t p = 0; p < k; ++p) {
            const T av = a[i * as0 + p * as1];
            const T* brow = b + p * bs0;
            for (int64_t j = 0; j < n; ++j) row[j] = DotArith<T>::mulAdd(row[j], av, brow[j * bs1]);
        }
        for (int64_t j = 0; j < n; ++j) c[i * n + j] = static_cast<T>(row[j]);
    }
}
} // namespace

std::vector<Type> DotOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 2, "Dot");
    const Type& a = *in[0];
    const Type& b = *in[1];
    arrayop::requireTensor(a, "Dot input 0");
    arrayop::requireTensor(b, "Dot input 1");
    if (a.ndim() < 1 || a.ndim() > 2 || b.ndim() < 1 || b.ndim() > 2)
        throw OpTypeError("Dot takes vectors and matrices, got " + a.toString() + " and " + b.toString());
    const int64_t ka = a.shape.back(), kb = b.shape[0];
    if (ka != kUnknownDim && kb != kUnknownDim && ka != kb)
        throw OpTypeError("Dot: incompatible shared dimension: " + a.toString() + " and " + b.toString());
    StaticShape out;
    if (a.ndim() == 2) out.push_back(a.shape[0]);
    if (b.ndim() == 2) out.push_back(b.shape[1]);
    return {Type::tensor(promote(a.dtype, b.dtype), std::move(out))};
}

void DotOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const DType dt = promote(in[0].dtype(), in[1].dtype());
    const NDArray a = in[0].dtype() == dt ? in[0] : in[0].astype(dt);
    const NDArray b = in[1].dtype() == dt ? in[1] : in[1].astype(dt);
    if (a.ndim() < 1 || a.ndim() > 2 || b.ndim() < 1 || b.ndim() > 2)
        throw ExecError("Dot takes vectors and matrices, got shapes " + shapeToString(a.shape()) + " and " +
                        shapeToString(b.shape()));
    const int64_t k = a.shape().back();
    if (b.dim(0) != k)
        throw ExecError("Dot: shapes " + shapeToString(a.shape()) + " and " + shapeToString(b.shape()) +
                        " are not aligned: " + std::to_string(k) + " (dim " + std::to_string(a.ndim() - 1) +
                        ") != " + std::to_string(b.dim(0)) + " (dim 0)");
    const int64_t m = a.ndim() == 2 ? a.dim(0) : 1;
    const int64_t n = b.ndim() == 2 ? b.dim(1) : 1;
    const int64_t as0 = a.ndim() == 2 ? a.strides()[0] : 0, as1 = a.strides().back();
    const int64_t bs0 = b.strides()[0], bs1 = b.ndim() == 2 ? b.strides()[1] : 0;
    Shape shape;
    if (a.ndim() == 2) shape.push_back(m);
    if (b.ndim() == 2) shape.push_back(n);
    NDArray r = arrayop::reuseOrEmpty(out[0], dt, shape);
    dispatchDType(dt, [&](auto t) {
        using T = decltype(t);
        matmul<T>(a.data<T>(), as0, as1, b.data<T>(), bs0, bs1, r.data<T>(), m, k, n);
    });
    out[0] = r;
}

OpPtr makeDot() {
    static const OpPtr op = std::make_shared<DotOp>();
    return op;
}

OpPtr makeOpDot(const nlohmann::json&, std::shared_ptr<const Graph>) { return makeDot(); }

} // namespace tl
