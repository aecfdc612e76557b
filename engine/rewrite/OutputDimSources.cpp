#include "rewrite/OutputDimSources.h"

#include "ops/Blockwise.h"
#include "ops/Linalg.h"
#include "ops/ScanOp.h"
#include "rewrite/LocalRewriteUtil.h"

#include <algorithm>

namespace tl::rw {

namespace {

// Output `output`'s dim `axis` by a gufunc signature: a core dim takes the length of the
// first input core dim of its name; a batch dim, the one input whose batch dim there is
// not statically 1 (the others broadcast into it).
std::optional<InputDim> bySignature(const GufuncSignature& sig, const Node& node, int output, int axis) {
    const int outCore = static_cast<int>(sig.outputs.at(static_cast<size_t>(output)).size());
    const int batch = node.output(output)->type().ndim() - outCore;
    if (axis >= batch) {
        const std::string& name = sig.outputs[static_cast<size_t>(output)][static_cast<size_t>(axis - batch)];
        for (int i = 0; i < node.numInputs() && i < static_cast<int>(sig.inputs.size()); ++i) {
            const auto& dims = sig.inputs[static_cast<size_t>(i)];
            const auto at = std::find(dims.begin(), dims.end(), name);
            if (at != dims.end())
                return InputDim{i, node.input(i)->type().ndim() - static_cast<int>(dims.size()) + static_cast<int>(at - dims.begin())};
        }
        return std::nullopt;
    }
    std::optional<InputDim> found;
    for (int i = 0; i < node.numInputs() && i < static_cast<int>(sig.inputs.size()); ++i) {
        const Type& t = node.input(i)->type();
        const int d = axis - (batch - (t.ndim() - static_cast<int>(sig.inputs[static_cast<size_t>(i)].size())));
        if (d < 0 || t.shape[static_cast<size_t>(d)] == 1) continue;
        if (found) return std::nullopt;  // two inputs may fix it
        found = InputDim{i, d};
    }
    return found;
}

// A matrix product of inputs `a` and `b` (each a matrix or a vector, as Dot takes them).
std::optional<InputDim> productDim(const Node& node, int a, int b, int axis) {
    const int na = node.input(a)->type().ndim();
    const int nb = node.input(b)->type().ndim();
    if (axis == 0 && na == 2) return InputDim{a, 0};
    if (nb == 2 && axis == (na == 2 ? 1 : 0)) return InputDim{b, 1};
    return std::nullopt;
}

// Join(axis, t0, t1, ...) and Split(x, axis, splits): every axis but the one joined or
// split has its first tensor's length (they must all agree; neither op broadcasts).
std::optional<InputDim> besideAxis(const Node& node, int axisInput, int tensorInput, int axis) {
    const auto joined = constantIntOf(*node.input(axisInput));
    if (!joined) return std::nullopt;
    const int64_t nd = node.input(tensorInput)->type().ndim();
    if (*joined == axis || *joined + nd == axis) return std::nullopt;
    return InputDim{tensorInput, axis};
}

} // namespace

std::optional<InputDim> outputDimSource(const Node& node, int output, int axis) {
    switch (node.kind()) {
    case OpKind::Scan: {
        // A traced state's outer output is its buffer after the loop; a while loop's
        // rows are the steps that ran.
        const ScanInfo& info = static_cast<const ScanOp&>(node.op()).info();
        if ((info.asWhile && axis == 0) || output >= info.nTracedStates()) return std::nullopt;
        return InputDim{info.outerInMitMot() + output, axis};
    }
    case OpKind::Blockwise:
        return bySignature(static_cast<const BlockwiseOp&>(node.op()).signature(), node, output, axis);
    case OpKind::Dot:
    case OpKind::Dot22:
    case OpKind::Dot22Scalar: return productDim(node, 0, 1, axis);
    case OpKind::BatchedDot: return axis < 2 ? InputDim{0, axis} : InputDim{1, axis};
    case OpKind::Gemm:    // Gemm(z, a, x, y, b): z's shape
    case OpKind::Gemv:    // Gemv(y, a, A, x, b): y's
    case OpKind::CGemv:
    case OpKind::Ger:     // Ger(A, a, x, y): A's
    case OpKind::CGer:
    case OpKind::Expm:
    case OpKind::ExpmGrad:  // ExpmGrad(A, gA): A's
    case OpKind::IncSubtensor:  // x with some entries set or increased: x's
    case OpKind::AdvancedIncSubtensor:
    case OpKind::AdvancedIncSubtensor1:
    case OpKind::EighGrad:  // EighGrad(x, w, v, gw, gv): x's
        return InputDim{0, axis};
    case OpKind::EigvalshGrad: return InputDim{output, axis};  // (ga, gb) of (a, b)
    case OpKind::Eigvalsh: return InputDim{0, axis};           // the eigenvalues of an m x m matrix: m
    case OpKind::Join: return node.numInputs() > 1 ? besideAxis(node, 0, 1, axis) : std::nullopt;
    case OpKind::Split: return besideAxis(node, 1, 0, axis);
    default: break;
    }
    // The unwrapped linear-algebra ops, by the signature a Blockwise of them would have.
    if (auto sig = gufuncSignatureOf(node.op())) return bySignature(GufuncSignature::parse(*sig), node, output, axis);
    return std::nullopt;
}

const Variable* outputDimValue(const Node& node, int output, int axis) {
    if (node.kind() != OpKind::Scan || axis != 0) return nullptr;
    const ScanInfo& info = static_cast<const ScanOp&>(node.op()).info();
    if (info.asWhile || output < info.outerOutNitSot() || output >= info.outerOutUntraced()) return nullptr;
    return node.input(info.outerInNitSot() + (output - info.outerOutNitSot()));
}

} // namespace tl::rw
