#include "ops/ArithmeticLoops.h"

#include <cstdlib>

namespace tl::arith {

namespace {

Table filled(void (*fill)(Table&)) {
    Table t;
    fill(t);
    return t;
}

// __builtin_cpu_init: a table may be asked for while static objects are being
// constructed, before libgcc has read the CPU's features.
const Table* avx512() {
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx512f")) return nullptr;
    static const Table t = filled(&fillAvx512Table);
    return &t;
}
const Table* avx() {
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx")) return nullptr;
    static const Table t = filled(&fillAvxTable);
    return &t;
}
const Table* sse2() {
    static const Table t = filled(&fillSse2Table);
    return &t;
}

} // namespace

// TL_VMATH_ISA, when it names an instruction set the CPU has, narrows these loops as
// it narrows the SLEEF calls (ops/VectorMath.h): a run then computes as a CPU without
// the wider set would, instead of mixing 512-bit arithmetic with 256-bit calls.
const Table& table() {
    static const Table* const chosen = [] {
        if (const char* wanted = std::getenv("TL_VMATH_ISA"))
            if (const Table* t = tableFor(wanted)) return t;
        return avx512() ? avx512() : avx() ? avx() : sse2();
    }();
    return *chosen;
}

const Table* tableFor(std::string_view isa) {
    if (isa == "avx512") return avx512();
    if (isa == "avx") return avx();
    if (isa == "sse2") return sse2();
    return nullptr;
}

int binaryIndex(ScalarOpCode code) {
    switch (code) {
    case ScalarOpCode::Add: return static_cast<int>(Binary::Add);
    case ScalarOpCode::Sub: return static_cast<int>(Binary::Sub);
    case ScalarOpCode::Mul: return static_cast<int>(Binary::Mul);
    case ScalarOpCode::TrueDiv: return static_cast<int>(Binary::TrueDiv);
    case ScalarOpCode::Maximum: return static_cast<int>(Binary::Maximum);
    case ScalarOpCode::Minimum: return static_cast<int>(Binary::Minimum);
    default: return -1;
    }
}

int compareIndex(ScalarOpCode code) {
    switch (code) {
    case ScalarOpCode::Eq: return static_cast<int>(Compare::Eq);
    case ScalarOpCode::Neq: return static_cast<int>(Compare::Neq);
    case ScalarOpCode::Lt: return static_cast<int>(Compare::Lt);
    case ScalarOpCode::Le: return static_cast<int>(Compare::Le);
    case ScalarOpCode::Gt: return static_cast<int>(Compare::Gt);
    case ScalarOpCode::Ge: return static_cast<int>(Compare::Ge);
    default: return -1;
    }
}

int unaryIndex(ScalarOpCode code) {
    switch (code) {
    case ScalarOpCode::Neg: return static_cast<int>(Unary::Neg);
    case ScalarOpCode::Abs: return static_cast<int>(Unary::Abs);
    case ScalarOpCode::Sqr: return static_cast<int>(Unary::Sqr);
    default: return -1;
    }
}

} // namespace tl::arith

namespace tl {

BlockFn wideArithmeticKernel(ScalarOpCode code, DType compute) {
    if (compute != DType::Float32 && compute != DType::Float64) return nullptr;
    const int d = compute == DType::Float64 ? 1 : 0;
    if (const int op = arith::binaryIndex(code); op >= 0) return arith::table().binary[op][d];
    if (const int op = arith::unaryIndex(code); op >= 0) return arith::table().unary[op][d];
    if (const int op = arith::compareIndex(code); op >= 0) return arith::table().compare[op][d];
    return nullptr;
}

} // namespace tl
