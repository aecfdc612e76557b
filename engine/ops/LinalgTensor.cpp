// TensorInv and TensorSolve (pytensor.tensor.nlinalg's tensorinv / tensorsolve): NumPy's
// numpy.linalg.tensorinv and tensorsolve, which reshape an N-d array into a square
// matrix, invert or solve with it (getrf + getrs in float64, as inv and solve do) and
// reshape back. They are plain ops over whole arrays, not Blockwise core ops.
//
// Types follow PyTensor's make_node, which is loose: TensorInv's output has the input's
// type there (a.type()), static dims unmoved, which is right only where moving them
// changes nothing; tensorlens keeps such a shape and leaves the dims unknown otherwise,
// so a graph PyTensor typed so still loads (its declared type wins, as any declared type
// refining unknown dims does). TensorSolve's output is always a matrix of the two
// dtypes' upcast. NumPy's result has ndim(a) - ndim(b) dims, so a graph where
// that is not 2 is refused when built, with the reason.
#include "ops/ArrayOpUtil.h"
#include "ops/Linalg.h"
#include "ops/LinalgDense.h"
#include "ops/LinalgOp.h"

#include <algorithm>
#include <numeric>

namespace tl {

namespace {

int64_t product(const Shape& s, size_t from, size_t to) {
    int64_t p = 1;
    for (size_t i = from; i < to; ++i) p *= s[i];
    return p;
}

// Writes `values` (C order, float64) into `out` (any strides), cast to out's dtype.
void storeFlat(const std::vector<double>& values, const NDArray& out) {
    NDArray flat = NDArray::empty(out.dtype(), out.shape());
    dispatchDType(out.dtype(), [&](auto o) {
        using O = decltype(o);
        O* p = flat.data<O>();
        for (size_t i = 0; i < values.size(); ++i) p[i] = linalg::castResult<O>(values[i]);
    });
    out.assign(flat);
}

class TensorInvOp final : public LinalgOp {
public:
    explicit TensorInvOp(int ind) : LinalgOp(OpKind::TensorInv, "TensorInv", {{"ind", ind}}), m_ind(ind) {}
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        arrayop::requireArity(in, 1, "TensorInv");
        if (in[0]->kind != Type::Kind::Tensor) throw OpTypeError("TensorInv takes a tensor, got " + in[0]->toString());
        if (m_ind > in[0]->ndim())
            throw OpTypeError("TensorInv{ind=" + std::to_string(m_ind) + "} takes at least " + std::to_string(m_ind) +
                              " dims, got " + in[0]->toString());
        const StaticShape& shape = in[0]->shape;
        if (moved(shape) == shape) return {*in[0]};
        return {Type::tensor(in[0]->dtype, StaticShape(shape.size(), kUnknownDim))};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        const Shape& shape = in[0].shape();
        if (static_cast<size_t>(m_ind) > shape.size())
            throw ExecError("TensorInv{ind=" + std::to_string(m_ind) + "}: the array has only " + std::to_string(shape.size()) + " dims");
        const int64_t rows = product(shape, static_cast<size_t>(m_ind), shape.size());
        if (rows * rows != in[0].size())
            throw ExecError("TensorInv: the product of the dims after the first " + std::to_string(m_ind) + " (" +
                            std::to_string(rows) + ") must equal the product of the first ones, got shape " + shapeToString(shape) +
                            " (NumPy: Last 2 dimensions of the array must be square)");
        s = {moved(shape)};
        d = {in[0].dtype()};
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace&) const override {
        const int64_t n = product(in[0].shape(), static_cast<size_t>(m_ind), in[0].shape().size());
        // inv(a.reshape(n, n)), by solving A X = I as NumPy does; X in C order is the result.
        const NDArray a = NDArray::fromVector(DType::Float64, {n, n}, in[0].toDoubles());
        storeFlat(dense::solve(a, dense::identity(n), "TensorInv").toDoubles(), out[0]);
    }

private:
    // NumPy's invshape: shape[ind:] + shape[:ind].
    template <typename S> S moved(const S& shape) const {
        S out(shape.begin() + m_ind, shape.end());
        out.insert(out.end(), shape.begin(), shape.begin() + m_ind);
        return out;
    }
    int m_ind;
};

class TensorSolveOp final : public LinalgOp {
public:
    explicit TensorSolveOp(nlohmann::json axes) : LinalgOp(OpKind::TensorSolve, "TensorSolve", {{"axes", axes}}) {
        if (!axes.is_null())
            for (const auto& a : axes) m_axes.push_back(a.get<int>());
        m_hasAxes = !axes.is_null();
    }
    std::string name() const override {
        if (!m_hasAxes) return "TensorSolve{axes=None}";
        std::string s = "TensorSolve{axes=(";
        for (size_t i = 0; i < m_axes.size(); ++i) s += (i ? ", " : "") + std::to_string(m_axes[i]);
        return s + (m_axes.size() == 1 ? ",)}" : ")}");
    }
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        arrayop::requireArity(in, 2, "TensorSolve");
        for (const Type* t : in)
            if (t->kind != Type::Kind::Tensor) throw OpTypeError("TensorSolve takes tensors, got " + t->toString());
        const int an = in[0]->ndim(), bn = in[1]->ndim();
        checkAxes(an, [](const std::string& m) { throw OpTypeError(m); });
        if (an - bn != 2)
            throw OpTypeError("TensorSolve's output is a matrix (PyTensor types it so), but numpy.linalg.tensorsolve of a " +
                              std::to_string(an) + "-d a and a " + std::to_string(bn) + "-d b has " + std::to_string(an - bn) +
                              " dims");
        return {Type::tensor(promote(in[0]->dtype, in[1]->dtype), {kUnknownDim, kUnknownDim})};
    }
    void sliceOutputs(std::span<const NDArray> in, std::vector<Shape>& s, std::vector<DType>& d) const override {
        const Shape a = reordered(in[0].shape());
        const size_t bn = static_cast<size_t>(in[1].ndim());
        checkAxes(static_cast<int>(a.size()), [](const std::string& m) { throw ExecError(m); });
        if (a.size() < bn + 2) throw ExecError("TensorSolve: a has " + std::to_string(a.size()) + " dims and b " + std::to_string(bn));
        const Shape x(a.begin() + static_cast<std::ptrdiff_t>(bn), a.end());
        const int64_t n = product(x, 0, x.size());
        if (n * n != in[0].size())
            throw ExecError("TensorSolve: Input arrays must satisfy the requirement prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim]), got " +
                            shapeToString(in[0].shape()) + " and " + shapeToString(in[1].shape()));
        if (in[1].size() != n)
            throw ExecError("TensorSolve: b has " + std::to_string(in[1].size()) + " elements, the system " + std::to_string(n) + " rows");
        s = {x};
        d = {promote(in[0].dtype(), in[1].dtype())};
    }
    void computeSlice(std::span<const NDArray> in, std::span<const NDArray> out, linalg::Workspace&) const override {
        const NDArray& a = in[0];
        const Shape shape = reordered(a.shape());
        const std::vector<int> perm = permutation(a.ndim());
        const NDArray moved = a.view(shape, permuted(a.strides(), perm), a.offset());
        const int64_t n = in[1].size();
        const NDArray matrix = NDArray::fromVector(DType::Float64, {n, n}, moved.toDoubles());
        const NDArray rhs = NDArray::fromVector(DType::Float64, {n, 1}, in[1].toDoubles());
        storeFlat(dense::solve(matrix, rhs, "TensorSolve").toDoubles(), out[0]);
    }

private:
    // NumPy's reordering: each of `axes` in turn is moved to the end.
    std::vector<int> permutation(int ndim) const {
        std::vector<int> all(static_cast<size_t>(ndim));
        std::iota(all.begin(), all.end(), 0);
        for (int k : m_axes) {
            const int axis = k < 0 ? k + ndim : k;
            all.erase(std::find(all.begin(), all.end(), axis));
            all.push_back(axis);
        }
        return all;
    }
    template <typename F> void checkAxes(int ndim, F fail) const {
        std::vector<bool> seen(static_cast<size_t>(ndim), false);
        for (int k : m_axes) {
            const int axis = k < 0 ? k + ndim : k;
            if (axis < 0 || axis >= ndim || seen[static_cast<size_t>(axis)])
                fail("TensorSolve: axis " + std::to_string(k) + " is out of range or repeated for a " + std::to_string(ndim) + "-d a");
            seen[static_cast<size_t>(axis)] = true;
        }
    }
    template <typename S> static S permuted(const S& s, const std::vector<int>& perm) {
        S out;
        for (int p : perm) out.push_back(s[static_cast<size_t>(p)]);
        return out;
    }
    Shape reordered(const Shape& s) const { return permuted(s, permutation(static_cast<int>(s.size()))); }

    std::vector<int> m_axes;
    bool m_hasAxes = false;
};

} // namespace

OpPtr makeTensorInv(int ind) {
    if (ind <= 0) throw std::invalid_argument("TensorInv: ind must be a positive integer, got " + std::to_string(ind));
    return std::make_shared<TensorInvOp>(ind);
}

OpPtr makeTensorSolve(std::optional<std::vector<int>> axes) {
    return std::make_shared<TensorSolveOp>(axes ? nlohmann::json(*axes) : nlohmann::json(nullptr));
}

OpPtr makeOpTensorInv(const nlohmann::json& p, std::shared_ptr<const Graph>) {
    PropReader r(p, "TensorInv");
    OpPtr op = makeTensorInv(r.getInt("ind", 2));
    r.check(*op);
    return op;
}

OpPtr makeOpTensorSolve(const nlohmann::json& p, std::shared_ptr<const Graph>) {
    PropReader r(p, "TensorSolve");
    std::optional<std::vector<int>> axes;
    if (p.is_object() && p.contains("axes") && !p["axes"].is_null()) {
        const nlohmann::json& a = p["axes"];
        if (!a.is_array()) throw std::invalid_argument("TensorSolve params: \"axes\" must be null or a list of integers, got " + a.dump());
        axes.emplace();
        for (const auto& k : a) {
            if (!k.is_number_integer()) throw std::invalid_argument("TensorSolve params: \"axes\" must be null or a list of integers, got " + a.dump());
            axes->push_back(k.get<int>());
        }
    }
    OpPtr op = makeTensorSolve(axes);
    r.check(*op);
    return op;
}

} // namespace tl
