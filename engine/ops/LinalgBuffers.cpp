#include "ops/LinalgBuffers.h"

#include "ops/ArrayOpUtil.h"

namespace tl::linalg {

bool allFinite(const NDArray& a) {
    if (!isFloat(a.dtype())) return true;
    bool ok = true;
    dispatchDType(a.dtype(), [&](auto t) {
        using T = decltype(t);
        const T* p = static_cast<const T*>(a.storage()->data());
        arrayop::forEachOffsetPair(a.shape(), a.strides(), a.offset(), a.strides(), a.offset(), [&](int64_t o, int64_t) {
            if (!std::isfinite(static_cast<double>(p[o]))) ok = false;
        });
    });
    return ok;
}

} // namespace tl::linalg
