#include "exec/ScanBuffer.h"

#include "ir/Op.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace tl {

NDArray rowView(const NDArray& a, int64_t r) {
    return a.view(Shape(a.shape().begin() + 1, a.shape().end()), Strides(a.strides().begin() + 1, a.strides().end()),
                  a.offset() + r * a.strides()[0]);
}

void ScanBuffer::bind(NDArray& a) {
    array = &a;
    base = a.offset();
    stride0 = a.ndim() ? a.strides()[0] : 0;
    bytes = static_cast<char*>(a.storage()->data());
    elemSize = dtypeSize(a.dtype());
    rowShape.assign(a.shape().begin() + 1, a.shape().end());
    writer = rowView(a, 0);
    rowContiguous = writer.isContiguous();
    rowBytes = writer.nbytes();
}

void ScanBuffer::write(int64_t r, const NDArray& v, int64_t step, int output) {
    if (v.shape() != rowShape)
        throw ExecError("step " + std::to_string(step) + ": inner output " + std::to_string(output) + " has shape " +
                        shapeToString(v.shape()) + " but the buffer rows have shape " + shapeToString(rowShape));
    if (rowContiguous && v.dtype() == writer.dtype() && v.isContiguous()) {
        std::memcpy(row(r), v.rawData(), rowBytes);
        return;
    }
    writer.setOffset(base + r * stride0);
    writer.assign(v);
}

void ScanBuffer::rotateToOldestFirst() {
    NDArray& a = *array;
    if (a.isContiguous()) {
        char* begin = static_cast<char*>(a.rawData());
        std::rotate(begin, begin + pos * rowBytes, begin + store * rowBytes);
        return;
    }
    const NDArray tmp = a.copy();
    for (int64_t r = 0; r < store; ++r) rowView(a, r).assign(rowView(tmp, (r + pos) % store));
}

void ScanBuffer::zeroRowsFrom(int64_t from) {
    if (from >= store) return;
    NDArray& a = *array;
    if (a.isContiguous()) {
        std::memset(row(from), 0, static_cast<size_t>(store - from) * rowBytes);
        return;
    }
    const NDArray zero = NDArray::zeros(a.dtype(), rowShape);
    for (int64_t r = from; r < store; ++r) rowView(a, r).assign(zero);
}

} // namespace tl
