// The arithmetic loops of ops/ArithmeticLoops.h for AVX (256-bit vectors; this file alone is compiled with -mavx).
#include "ops/ArithmeticLoopsImpl.h"

namespace tl::arith {

void fillAvxTable(Table& t) { fillTable(t); }

} // namespace tl::arith
