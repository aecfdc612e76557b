// inplace_on_inputs of the linear-algebra ops (pytensor/tensor/slinalg.py): which
// input an op may overwrite when the destroy handler allows it, as its overwrite_a /
// overwrite_b prop.
#include "ops/Linalg.h"
#include "ops/OpFactory.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace tl {

OpPtr inplaceOnInputs(const OpPtr& core, const std::vector<int>& allowed) {
    auto has = [&](int i) { return std::find(allowed.begin(), allowed.end(), i) != allowed.end(); };
    nlohmann::json p = core->params();
    const char* flag = nullptr;
    switch (core->kind()) {
    case OpKind::Solve:
        // PyTensor gives overwrite_b preference; A of a tridiagonal solve is never overwritten.
        if (has(1)) flag = "overwrite_b";
        else if (has(0) && p.value("assume_a", "gen") != "tridiagonal") flag = "overwrite_a";
        break;
    case OpKind::SolveTriangular:
    case OpKind::CholeskySolve:
        if (has(1)) flag = "overwrite_b";
        break;
    case OpKind::Cholesky:
    case OpKind::LU:
    case OpKind::LUFactor:
    case OpKind::QR:
        if (has(0)) flag = "overwrite_a";
        break;
    default: break;
    }
    if (!flag || p.value(flag, false)) return core;
    p[flag] = true;
    return makeOp(core->kind(), p, core->innerGraph());
}

} // namespace tl
