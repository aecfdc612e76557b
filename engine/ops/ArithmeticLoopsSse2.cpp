// The arithmetic loops of ops/ArithmeticLoops.h for SSE2 (every x86-64).
#include "ops/ArithmeticLoopsImpl.h"

namespace tl::arith {

void fillSse2Table(Table& t) { fillTable(t); }

} // namespace tl::arith
