#pragma once
// Ops that hand their input on as a view and compute nothing:
//  - ViewOp and the subclasses pytensor.gradient gives it to steer grad (ZeroGrad,
//    DisconnectedGrad, GradClip, GradScale, UndefinedGrad) and OutputGuard: only the
//    gradient differs, and PyTensor's canonicalize removes them (local_view_op);
//  - Print{message, attrs}, which PyTensor keeps and runs for its side effect: it
//    prints the message and the attributes of the value (to stderr here, so a
//    headless run's own output stays parseable);
//  - CpuContiguous (pt.extra_ops.cpu_contiguous), which PyTensor also keeps: the
//    input itself when it is C-contiguous, else a contiguous copy.
#include "ir/Op.h"

#include <vector>

namespace tl {

class PassThroughOp final : public Op {
public:
    /// A ViewOp printed as `className` ("ViewOp", "ZeroGrad", ...).
    explicit PassThroughOp(std::string className);
    /// Print{message, attrs}.
    PassThroughOp(std::string message, std::vector<std::string> attrs);
    /// CpuContiguous.
    struct ContiguousTag {};
    explicit PassThroughOp(ContiguousTag);
    const std::string& className() const { return m_class; }
    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap viewMap() const override { return {{0, {0}}}; }
    nlohmann::json params() const override;

private:
    std::string m_class;  // ViewOp's class name
    std::string m_message;
    std::vector<std::string> m_attrs;
};

OpPtr makeViewOp(std::string className = "ViewOp");
OpPtr makePrint(std::string message = "", std::vector<std::string> attrs = {"__str__"});
OpPtr makeCpuContiguous();

} // namespace tl
