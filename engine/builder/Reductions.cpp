#include "builder/Reductions.h"

#include "builder/Indexing.h"
#include "builder/Math.h"
#include "ops/Argmax.h"
#include "ops/Softmax.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace tl {

namespace {

Axes normalized(const Axes& axes, int ndim, const char* what) {
    if (!axes) return axes;
    std::vector<int> out;
    const int limit = std::max(1, ndim);
    for (int a : *axes) {
        if (a < -limit || a >= limit)
            throw std::invalid_argument(std::string(what) + ": axis " + std::to_string(a) + " is out of bounds for " +
                                        std::to_string(ndim) + " dimensions");
        out.push_back(a < 0 ? a + limit : a);
    }
    return out;
}

Var asBool(Var x) { return x.dtype() == DType::Bool ? x : neq(x, 0); }

} // namespace

Var keepDims(Var reduced, int ndim, const Axes& axes) {
    std::vector<int> ax;
    if (axes) ax = *axes;
    else
        for (int a = 0; a < ndim; ++a) ax.push_back(a);
    std::sort(ax.begin(), ax.end());
    if (ax.empty()) return reduced;
    return expandDims(std::move(reduced), ax);
}

Var reduce(ReduceKind kind, Var x, Axes axes, ReduceParams params, bool keepdims) {
    const int nd = x.ndim();
    axes = normalized(axes, nd, reduceKindName(kind));
    Var r = x.builder().apply1(makeReduce(kind, axes, params), {std::move(x)});
    return keepdims ? keepDims(r, nd, axes) : r;
}

Var careduce(ScalarOpCode code, Var x, Axes axes, ReduceParams params) {
    axes = normalized(axes, x.ndim(), "CAReduce");
    return x.builder().apply1(makeCAReduce(code, axes, params), {std::move(x)});
}

Var all(Var x, Axes axes, bool keepdims) { return reduce(ReduceKind::All, asBool(std::move(x)), std::move(axes), {}, keepdims); }
Var any(Var x, Axes axes, bool keepdims) { return reduce(ReduceKind::Any, asBool(std::move(x)), std::move(axes), {}, keepdims); }

Var argmax(Var x, Axes axes, bool keepdims) {
    const int nd = x.ndim();
    axes = normalized(axes, nd, "argmax");
    Var r = x.builder().apply1(makeArgmax(axes), {std::move(x)});
    return keepdims ? keepDims(r, nd, axes) : r;
}

Var argmin(Var x, Axes axes, bool keepdims) {
    const DType d = x.dtype();
    if (d == DType::Bool) return argmax(invert(x), std::move(axes), keepdims);
    if (isInteger(d) && !isSigned(d)) {
        // itype.max - x: a constant of x's own dtype, as np.iinfo(dtype).max.
        Var maxValue = x.builder().constant(NDArray::scalar(d, static_cast<double>(std::numeric_limits<uint8_t>::max())));
        return argmax(maxValue - x, std::move(axes), keepdims);
    }
    return argmax(-x, std::move(axes), keepdims);
}

Var softmax(Var x, std::optional<int> axis) { return x.builder().apply1(makeSoftmax(axis), {std::move(x)}); }
Var logSoftmax(Var x, std::optional<int> axis) { return x.builder().apply1(makeLogSoftmax(axis), {std::move(x)}); }
Var softmaxGrad(Var dy, Var sm, std::optional<int> axis) {
    return sm.builder().apply1(makeSoftmaxGrad(axis), {std::move(dy), std::move(sm)});
}

Var cumsum(Var x, std::optional<int> axis) { return x.builder().apply1(makeCumOp(axis, CumMode::Add), {std::move(x)}); }
Var cumprod(Var x, std::optional<int> axis) { return x.builder().apply1(makeCumOp(axis, CumMode::Mul), {std::move(x)}); }

} // namespace tl
