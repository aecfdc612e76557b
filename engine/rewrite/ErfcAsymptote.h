#pragma once
// What local_log_erfc and local_grad_log_erfc_neg share: erfc's asymptotic series and
// the guard switch(x < t, kept, asymptote) both build, which their match() must
// recognise so the kept expression does not match again.
#include "ir/Rewriter.h"

namespace tl::rw {

/// 1 - 1/(2x^2) + 3/(4x^4) - 15/(8x^6) in `dtype`, from x2 = x * x: erfc(x) is
/// exp(-x^2) / (x sqrt(pi)) times this, for large x.
Variable* erfcAsymptoticSeries(Rewriter& rewriter, Variable* x2, DType dtype);
/// True when `kept` is the kept branch of a guard switch(x < t, kept, ...).
bool isGuardedByAsymptote(const Variable& kept, const Variable& x);

} // namespace tl::rw
