#pragma once
// How a float sum adds its terms, shared by the sum folds of reductions
// (ops/ArithmeticLoops.h) and the fold of a vectorised call's products
// (ops/VectorMath.h): kSumLanes running sums from +0, lane l taking terms l,
// l + kSumLanes, ...; the accumulator then adds lane 0, 1, ... in order, then the
// terms past the last whole group one by one. The order is this code's, not a
// vector width's, so every instruction set gives the same bits.
namespace tl {

inline constexpr int kSumLanes = 8;

} // namespace tl
