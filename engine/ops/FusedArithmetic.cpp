#include "ops/FusedArithmetic.h"

#include "ops/ArithmeticLoops.h"

namespace tl {

bool fusableArithmetic(ScalarOpCode code) {
    return code == ScalarOpCode::Add || code == ScalarOpCode::Sub || code == ScalarOpCode::Mul;
}

BlockFn fusedArithmeticKernel(ScalarOpCode inner, ScalarOpCode outer, bool innerFirst, DType dtype) {
    if (!fusableArithmetic(inner) || !fusableArithmetic(outer)) return nullptr;
    if (dtype != DType::Float32 && dtype != DType::Float64) return nullptr;
    return arith::table().fused[arith::binaryIndex(inner)][arith::binaryIndex(outer)][innerFirst ? 1 : 0]
                               [dtype == DType::Float64 ? 1 : 0];
}

} // namespace tl
