#include "ops/SpecifyShape.h"

#include "ir/SliceValue.h"
#include "ops/ArrayOpUtil.h"

#include <nlohmann/json.hpp>

namespace tl {

std::vector<Type> SpecifyShapeOp::inferTypes(std::span<const Type* const> in) const {
    std::vector<const NDArray*> none(in.size(), nullptr);
    return inferTypesWithConstants(in, none);
}

std::vector<Type> SpecifyShapeOp::inferTypesWithConstants(std::span<const Type* const> in,
                                                          std::span<const NDArray* const> constants) const {
    arrayop::requireMinArity(in, 1, "SpecifyShape");
    const Type& x = *in[0];
    arrayop::requireTensor(x, "SpecifyShape input");
    if (static_cast<int>(in.size()) - 1 != x.ndim())
        throw OpTypeError("SpecifyShape: input " + x.toString() + " is " + std::to_string(x.ndim()) +
                          "-d and will never match a shape of length " + std::to_string(in.size() - 1));
    Type out = x;
    for (int i = 0; i < x.ndim(); ++i) {
        if (in[i + 1]->isNoneType()) continue;  // None: any length
        arrayop::requireIntScalar(*in[i + 1], "SpecifyShape dim " + std::to_string(i));
        auto c = arrayop::constantInt(constants.empty() ? nullptr : constants[i + 1]);
        if (!c) continue;
        if (*c < 0) throw OpTypeError("SpecifyShape: dim " + std::to_string(i) + " is negative (" + std::to_string(*c) + ")");
        if (x.shape[i] != kUnknownDim && x.shape[i] != *c)
            throw OpTypeError("SpecifyShape: dim " + std::to_string(i) + " of " + x.toString() + " is " +
                              std::to_string(x.shape[i]) + ", specified " + std::to_string(*c));
        out.shape[i] = *c;
    }
    return {out};
}

void SpecifyShapeOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& x = in[0];
    const int nd = static_cast<int>(in.size()) - 1;
    if (x.ndim() != nd)
        throw ExecError("SpecifyShape: got " + std::to_string(x.ndim()) + " dimensions (shape " + shapeToString(x.shape()) +
                        "), expected " + std::to_string(nd));
    std::string bad, expected;
    for (int i = 0; i < nd; ++i) {
        expected += i ? ", " : "";
        if (isNoneValue(in[i + 1])) {
            expected += "None";
            continue;
        }
        const int64_t d = arrayop::readInt(in[i + 1], "SpecifyShape dim " + std::to_string(i));
        expected += std::to_string(d);
        if (x.dim(i) != d)
            bad += (bad.empty() ? "" : ", ") + std::string("dim ") + std::to_string(i) + " is " + std::to_string(x.dim(i)) +
                   " (expected " + std::to_string(d) + ")";
    }
    if (!bad.empty())
        throw ExecError("SpecifyShape: got shape " + shapeToString(x.shape()) + ", expected (" + expected +
                        (nd == 1 ? ",)" : ")") + ": " + bad);
    out[0] = x;
}

OpPtr makeSpecifyShape() {
    static const OpPtr op = std::make_shared<SpecifyShapeOp>();
    return op;
}

OpPtr makeOpSpecifyShape(const nlohmann::json&, std::shared_ptr<const Graph>) { return makeSpecifyShape(); }

} // namespace tl
