// The arithmetic loops of ops/ArithmeticLoops.h for AVX-512F (this file alone is compiled with -mavx512f).
#include "ops/ArithmeticLoopsImpl.h"

namespace tl::arith {

void fillAvx512Table(Table& t) { fillTable(t); }

} // namespace tl::arith
