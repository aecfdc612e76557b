#include "ops/Dot.h"

#include "ops/ArrayOpUtil.h"
#include "ops/BlasCalls.h"

#include <nlohmann/json.hpp>

namespace tl {

namespace {
/// Integer products accumulate in wrapping uint64 (signed overflow would be undefined;
/// NumPy wraps); bool is or-of-ands. Floats never come here: they go to BLAS.
template <typename T> struct ExactArith {
    using Acc = std::conditional_t<std::is_same_v<T, bool>, bool, uint64_t>;
    static Acc mulAdd(Acc c, T a, T b) {
        if constexpr (std::is_same_v<T, bool>) return c || (a && b);
        else return c + static_cast<Acc>(static_cast<int64_t>(a)) * static_cast<Acc>(static_cast<int64_t>(b));
    }
};

/// C(m,n) = A(m,k) B(k,n) over strided views for the dtypes BLAS lacks.
template <typename T>
void exactProduct(const T* a, int64_t as0, int64_t as1, const T* b, int64_t bs0, int64_t bs1, T* c, int64_t cs0,
                  int64_t cs1, int64_t m, int64_t k, int64_t n) {
    using Acc = typename ExactArith<T>::Acc;
    std::vector<Acc> row(static_cast<size_t>(n));
    for (int64_t i = 0; i < m; ++i) {
        std::fill(row.begin(), row.end(), Acc{});
        for (int64_t p = 0; p < k; ++p) {
            const T av = a[i * as0 + p * as1];
            const T* brow = b + p * bs0;
            for (int64_t j = 0; j < n; ++j) row[j] = ExactArith<T>::mulAdd(row[j], av, brow[j * bs1]);
        }
        for (int64_t j = 0; j < n; ++j) c[i * cs0 + j * cs1] = static_cast<T>(row[j]);
    }
}

Shape productShape(const NDArray& a, const NDArray& b) {
    if (a.ndim() < 1 || a.ndim() > 2 || b.ndim() < 1 || b.ndim() > 2)
        throw ExecError("Dot takes vectors and matrices, got shapes " + shapeToString(a.shape()) + " and " +
                        shapeToString(b.shape()));
    const int64_t k = a.shape().back();
    if (b.dim(0) != k)
        throw ExecError("Dot: shapes " + shapeToString(a.shape()) + " and " + shapeToString(b.shape()) +
                        " are not aligned: " + std::to_string(k) + " (dim " + std::to_string(a.ndim() - 1) +
                        ") != " + std::to_string(b.dim(0)) + " (dim 0)");
    Shape shape;
    if (a.ndim() == 2) shape.push_back(a.dim(0));
    if (b.ndim() == 2) shape.push_back(b.dim(1));
    return shape;
}

// A vector as a 1-row or 1-column matrix view (no copy).
NDArray asRow(const NDArray& v) { return v.view({1, v.dim(0)}, {0, v.strides()[0]}, v.offset()); }
NDArray asColumn(const NDArray& v) { return v.view({v.dim(0), 1}, {v.strides()[0], 0}, v.offset()); }
} // namespace

void matrixProductInto(const NDArray& a0, const NDArray& b0, const NDArray& out) {
    if (productShape(a0, b0) != out.shape())
        throw ExecError("Dot: the product of " + shapeToString(a0.shape()) + " and " + shapeToString(b0.shape()) +
                        " does not fit " + shapeToString(out.shape()));
    const DType dt = out.dtype();
    const NDArray a = a0.dtype() == dt ? a0 : a0.astype(dt);
    const NDArray b = b0.dtype() == dt ? b0 : b0.astype(dt);
    if (blas::hasBlasDType(dt)) {
        if (a.ndim() == 1 && b.ndim() == 1) {
            dispatchDType(dt, [&](auto t) { *out.data<decltype(t)>() = static_cast<decltype(t)>(blas::dot(a, b)); });
        } else if (a.ndim() == 2 && b.ndim() == 1) {
            blas::gemv(1.0, a, b, 0.0, out);
        } else if (a.ndim() == 1) {  // (k) @ (k, n) = (b^T @ a)
            const NDArray bt = b.view({b.dim(1), b.dim(0)}, {b.strides()[1], b.strides()[0]}, b.offset());
            blas::gemv(1.0, bt, a, 0.0, out);
        } else {
            blas::gemm(1.0, a, b, 0.0, out);
        }
        return;
    }
    const NDArray am = a.ndim() == 2 ? a : asRow(a);
    const NDArray bm = b.ndim() == 2 ? b : asColumn(b);
    const int64_t m = am.dim(0), k = am.dim(1), n = bm.dim(1);
    // The output as an (m, n) view: a vector result is one row or column of it.
    int64_t cs0 = 0, cs1 = 0;
    if (out.ndim() == 2) {
        cs0 = out.strides()[0];
        cs1 = out.strides()[1];
    } else if (out.ndim() == 1) {
        (a.ndim() == 2 ? cs0 : cs1) = out.strides()[0];
    }
    dispatchDType(dt, [&](auto t) {
        using T = decltype(t);
        exactProduct<T>(am.data<T>(), am.strides()[0], am.strides()[1], bm.data<T>(), bm.strides()[0], bm.strides()[1],
                        out.data<T>(), cs0, cs1, m, k, n);
    });
}

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

void DotOp::sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& shapes, std::vector<DType>& dtypes) const {
    shapes = {productShape(in[0], in[1])};
    dtypes = {promote(in[0].dtype(), in[1].dtype())};
}

void DotOp::computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace&) const {
    matrixProductInto(in[0], in[1], out[0]);
}

void DotOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const { performSlice(*this, *this, in, out); }

OpPtr makeDot() {
    static const OpPtr op = std::make_shared<DotOp>();
    return op;
}

OpPtr makeOpDot(const nlohmann::json&, std::shared_ptr<const Graph>) { return makeDot(); }

} // namespace tl
