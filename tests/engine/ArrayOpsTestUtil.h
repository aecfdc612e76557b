#pragma once
// Helpers of the array constructor and selection op suites (tst_array_ctor_ops,
// tst_selection_ops, tst_array_ops_graph): arrays from literal values and a check
// of a kernel's result against values NumPy / PyTensor 2.34 computed (stored in the
// tests, as printed by numpy's tolist()).
#include "ShapeOpsTestUtil.h"
#include "TestSupport.h"

#include <QtTest>

#include <limits>
#include <string>
#include <vector>

namespace tl::test {

inline NDArray arr(DType dtype, const Shape& shape, const std::vector<double>& values) {
    return NDArray::fromVector(dtype, shape, values);
}

/// An int64 vector constant of the graph being built.
inline Var int64sVar(GraphBuilder& b, const std::vector<int64_t>& v) { return b.constant(int64s(v)); }

inline NDArray scalarOf(DType dtype, double v) { return NDArray::scalar(dtype, v); }

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// `got` has this dtype and shape and these values (exactly, NaN equal to NaN, or
/// within rtol for floats computed in another order).
inline std::string sameValues(const NDArray& got, DType dtype, const Shape& shape, const std::vector<double>& want,
                              double rtol = 0) {
    if (!got.valid()) return "no value";
    if (got.dtype() != dtype)
        return "dtype " + std::string(dtypeName(got.dtype())) + ", expected " + std::string(dtypeName(dtype));
    return compareArrays(got, arr(dtype, shape, want), rtol, 0);
}

/// The message of the exception `f` throws ("" when it does not throw).
} // namespace tl::test

#define TL_CHECK_VALUES(got, dtype, shape, ...)                                            \
    do {                                                                                   \
        const std::string tl_msg_ = ::tl::test::sameValues(got, dtype, shape, __VA_ARGS__); \
        QVERIFY2(tl_msg_.empty(), tl_msg_.c_str());                                        \
    } while (0)
