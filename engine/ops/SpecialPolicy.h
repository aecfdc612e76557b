#pragma once
// The Boost.Math error policy of ops/Special*.cpp: no function ever throws or
// sets errno; a domain error gives NaN, a pole or an overflow ±inf, and an
// evaluation that did not converge its best estimate. scipy's conventions at
// the edges that differ from Boost's are handled by each function before it
// calls Boost (docs/ops.md#special-functions).
#include <boost/math/policies/policy.hpp>

#include <exception>

namespace tl::special {

namespace bmp = boost::math::policies;
using Policy = bmp::policy<bmp::domain_error<bmp::ignore_error>, bmp::pole_error<bmp::ignore_error>,
                           bmp::overflow_error<bmp::ignore_error>, bmp::underflow_error<bmp::ignore_error>,
                           bmp::denorm_error<bmp::ignore_error>, bmp::evaluation_error<bmp::ignore_error>,
                           bmp::rounding_error<bmp::ignore_error>, bmp::indeterminate_result_error<bmp::ignore_error>>;

inline constexpr double kNaN = __builtin_nan("");
inline constexpr double kInf = __builtin_inf();

/// f() as a double, or NaN when it throws: some of Boost's root finders raise
/// evaluation errors under the default policy whatever policy the caller passed.
template <typename F> double guarded(F&& f) noexcept {
    try {
        return static_cast<double>(f());
    } catch (const std::exception&) {
        return kNaN;
    }
}

/// True when x is a (finite) integer.
inline bool isInteger(double x) { return x == __builtin_trunc(x) && x - x == 0; }

} // namespace tl::special
