#pragma once
// The float arithmetic block loops, compiled once per x86 instruction set: add, sub,
// mul, true_div, maximum, minimum, neg, abs, sqr and the comparisons on float32 and
// float64, the fused pairs of ops/FusedArithmetic.h, and the float sum folds. The
// engine is built for baseline x86-64, where these loops vectorise to 2 doubles per
// instruction; next to 8-lane SLEEF calls they were a tenth of
// 2*exp(x) + tanh(y) - x*y's time on an AVX-512 machine. Each of these ops gives
// the same value at any width (IEEE rounding per element, no FMA contraction: the
// units are compiled with -ffp-contract=off; only which operand's NaN a commutative
// op passes on may differ), so the widest set the CPU has is used, whatever
// TL_VMATH_ISA chose for SLEEF.
#include "ops/ScalarKernels.h"
#include "ops/SumLanes.h"

#include <string_view>

namespace tl {

namespace arith {

/// The binary ops with per-instruction-set loops, in table order (maximum and
/// minimum as scalar_fn's: the larger / smaller, NaN when either is NaN).
enum class Binary : int { Add, Sub, Mul, TrueDiv, Maximum, Minimum };
inline constexpr int kNumBinary = 6;
/// The ops a fused pair is made of (Add, Sub, Mul: the first three of Binary).
inline constexpr int kNumFusable = 3;
/// The unary ones.
enum class Unary : int { Neg, Abs, Sqr };
inline constexpr int kNumUnary = 3;
/// The comparisons, each writing bool.
enum class Compare : int { Eq, Neq, Lt, Le, Gt, Ge };
inline constexpr int kNumCompare = 6;

/// The float sum folds of ops/ReduceFold.h (FoldKernels::all and ::allProducts for add):
/// *acc += m[0] + ... + m[n-1], or the products a[j] * b[j] each rounded as a mul
/// would round it, in the lanes and order of ops/SumLanes.h.
using SumFn = void (*)(void* acc, const void* m, int64_t n);
using SumProductsFn = void (*)(void* acc, const void* a, const void* b, int64_t n);
using tl::kSumLanes;

/// One instruction set's loops; index 0 is float32, 1 float64.
struct Table {
    BlockFn unary[kNumUnary][2] = {};
    BlockFn binary[kNumBinary][2] = {};
    BlockFn compare[kNumCompare][2] = {};
    /// outer(inner(a, b), c) when innerFirst (index 1), else outer(c, inner(a, b)).
    BlockFn fused[kNumFusable][kNumFusable][2][2] = {};
    SumFn sumAll[2] = {};
    SumProductsFn sumAllProducts[2] = {};
};

/// Fills `t`; each is defined in a unit compiled for its instruction set and may be
/// called only on a CPU that has it (the others compile for SSE2, every x86-64).
void fillSse2Table(Table& t);
void fillAvxTable(Table& t);
void fillAvx512Table(Table& t);

/// The table of the widest instruction set this CPU has, or of the one the
/// environment variable TL_VMATH_ISA names when the CPU has it (as ops/VectorMath.h).
const Table& table();
/// The table of `isa` ("avx512", "avx", "sse2"), or null when the CPU lacks it.
const Table* tableFor(std::string_view isa);

/// The table's index of `code`, or -1 for an op without such loops.
int binaryIndex(ScalarOpCode code);
int unaryIndex(ScalarOpCode code);
int compareIndex(ScalarOpCode code);

} // namespace arith

/// The loop of a float add, sub, mul, true_div, maximum, minimum, neg, abs, sqr or
/// comparison (inputs of `compute`, output bool) at the CPU's widest vectors, or
/// null for any other op or dtype.
BlockFn wideArithmeticKernel(ScalarOpCode code, DType compute);

} // namespace tl
