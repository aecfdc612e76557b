// The gufunc signatures PyTensor gives its core ops (their gufunc_signature
// attribute), from which Blockwise reads which dims are core and which batch;
// and which kinds are the linear-algebra ops.
#include "ops/Linalg.h"
#include "ops/PropsOp.h"

#include <stdexcept>

namespace tl {

bool isLinalgKind(OpKind kind) {
    switch (kind) {
    case OpKind::MatrixInverse:
    case OpKind::Det:
    case OpKind::SLogDet:
    case OpKind::Solve:
    case OpKind::SolveTriangular:
    case OpKind::Cholesky:
    case OpKind::CholeskySolve:
    case OpKind::LU:
    case OpKind::LUFactor:
    case OpKind::PivotToPermutations:
    case OpKind::QR:
    case OpKind::Eigh:
    case OpKind::Eigvalsh:
    case OpKind::EighGrad:
    case OpKind::EigvalshGrad:
    case OpKind::SVD:
    case OpKind::MatrixPinv:
    case OpKind::Lstsq:
    case OpKind::Expm:
    case OpKind::ExpmGrad:
    case OpKind::BilinearSolveDiscreteLyapunov:
    case OpKind::SolveContinuousLyapunov:
    case OpKind::BlockDiagonal:
    case OpKind::KroneckerProduct:
    case OpKind::TensorInv:
    case OpKind::TensorSolve:
    case OpKind::SolveDiscreteARE: return true;
    default: return false;
    }
}

std::optional<std::string> gufuncSignatureOf(const Op& core) {
    const auto* p = dynamic_cast<const PropsOp*>(&core);
    auto flag = [&](const char* name) { return p && p->boolProp(name); };
    switch (core.kind()) {
    case OpKind::Dot: return "(m,n),(n,p)->(m,p)";
    case OpKind::BatchedDot: return "(b,m,k),(b,k,n)->(b,m,n)";
    case OpKind::MatrixInverse: return "(m,m)->(m,m)";
    case OpKind::Det: return "(m,m)->()";
    case OpKind::SLogDet: return "(m,m)->(),()";
    case OpKind::Solve:
    case OpKind::SolveTriangular:
    case OpKind::CholeskySolve: return p->intProp("b_ndim") == 1 ? "(m,m),(m)->(m)" : "(m,m),(m,n)->(m,n)";
    case OpKind::Cholesky: return "(m,m)->(m,m)";
    case OpKind::LU:
        if (flag("permute_l")) return "(m,m)->(m,m),(m,m)";
        if (flag("p_indices")) return "(m,m)->(m),(m,m),(m,m)";
        return "(m,m)->(m,m),(m,m),(m,m)";
    case OpKind::LUFactor: return "(m,m)->(m,m),(m)";
    case OpKind::PivotToPermutations: return "(x)->(x)";
    case OpKind::QR: {
        const std::string mode = p->stringProp("mode");
        std::string sig = mode == "economic" ? "(m,n)->(m,k),(k,n)"
                          : mode == "full"   ? "(m,n)->(m,m),(m,n)"
                          : mode == "r"      ? "(m,n)->(m,n)"
                                             : "(m,n)->(n,m),(k),(m,n)";
        if (flag("pivoting")) sig += ",(n)";
        return sig;
    }
    case OpKind::Eigh: return "(m,m)->(m),(m,m)";
    case OpKind::SVD:
        if (!flag("compute_uv")) return "(m,n)->(k)";
        return flag("full_matrices") ? "(m,n)->(m,m),(k),(n,n)" : "(m,n)->(m,k),(k),(k,n)";
    case OpKind::MatrixPinv: return "(m,n)->(n,m)";
    case OpKind::BilinearSolveDiscreteLyapunov:
    case OpKind::SolveContinuousLyapunov: return "(m,m),(m,m)->(m,m)";
    case OpKind::SolveDiscreteARE: return "(m,m),(m,n),(m,m),(n,n)->(m,m)";
    case OpKind::BlockDiagonal: {
        std::string sig;
        for (int i = 0; i < p->intProp("n_inputs"); ++i) sig += (i ? ",(m" : "(m") + std::to_string(i) + ",n" + std::to_string(i) + ")";
        return sig + "->(m,n)";
    }
    default: break;
    }
    return std::nullopt;
}

std::string gufuncSignature(const Op& core) {
    if (auto sig = gufuncSignatureOf(core)) return *sig;
    throw std::invalid_argument(core.name() + " has no gufunc signature (PyTensor does not batch it with Blockwise)");
}

} // namespace tl
