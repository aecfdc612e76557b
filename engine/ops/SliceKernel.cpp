#include "ops/SliceKernel.h"

#include "ir/Op.h"
#include "ops/ArrayOpUtil.h"

namespace tl {

void performSlice(const Op& op, const SliceKernel& kernel, std::span<const NDArray> in, std::span<NDArray> out) {
    std::vector<Shape> shapes;
    std::vector<DType> dtypes;
    kernel.sliceOutputs(in, shapes, dtypes);
    const AliasMap destroys = op.destroyMap();
    std::vector<NDArray> views(shapes.size());
    for (size_t k = 0; k < shapes.size(); ++k) {
        auto it = destroys.find(static_cast<int>(k));
        if (it != destroys.end() && !it->second.empty()) {
            // Overwrite the destroyed input itself, as SciPy's overwrite_a / overwrite_b do,
            // when it has the output's dtype and shape and is laid out plainly.
            const NDArray& victim = in[static_cast<size_t>(it->second.front())];
            if (victim.dtype() == dtypes[k] && victim.shape() == shapes[k] && victim.isContiguous()) {
                out[k] = victim;
                views[k] = victim;
                continue;
            }
        }
        out[k] = arrayop::reuseOrEmpty(out[k], dtypes[k], shapes[k]);
        views[k] = out[k];
    }
    linalg::Workspace ws;
    kernel.computeSlice(in, views, ws);
}

} // namespace tl
