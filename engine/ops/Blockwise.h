#pragma once
// Blockwise: PyTensor's generalisation of a core op to batch dimensions
// (pytensor/tensor/blockwise.py). A gufunc signature such as "(m,m),(m,n)->(m,n)"
// gives each input's and output's core dims (the trailing ones); the leading dims
// are batch dims, broadcast across inputs as NumPy does, and the core op runs once
// per batch element. Printed as "Blockwise{<core op>, <signature>}", or by its
// name where it has one ("Matmul" for Blockwise{Dot}). Its destroy_map is the core
// op's (PyTensor requires them equal).
#include "ir/Op.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tl {

/// A parsed gufunc signature: the core dim names of each input and output.
struct GufuncSignature {
    std::string text;  // as written, e.g. "(m,n),(n,p)->(m,p)"
    std::vector<std::vector<std::string>> inputs, outputs;
    /// Parses NumPy's grammar (spaces ignored); std::invalid_argument naming what is wrong.
    static GufuncSignature parse(const std::string& text);
};

class BlockwiseOp final : public Op {
public:
    BlockwiseOp(OpPtr core, GufuncSignature signature, std::optional<std::string> name);
    const Op& core() const { return *m_core; }
    const OpPtr& corePtr() const { return m_core; }
    const GufuncSignature& signature() const { return m_sig; }
    const std::optional<std::string>& displayName() const { return m_name; }
    /// The number of batch dims of a node of this op with these input types.
    int batchNdim(std::span<const Type* const> inputs) const;

    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    std::vector<Type> inferTypesWithConstants(std::span<const Type* const> inputs,
                                              std::span<const NDArray* const> constantValues) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    /// A core op without a kernel of its own (a Scan, an OpFromGraph: what
    /// jacobian(vectorize=True) builds) is run by the executor: so is this op then.
    bool hasKernel() const override { return m_core->hasKernel(); }
    /// Runs the core once per batch element through `runCore` (the executor's runner
    /// for cores without a kernel; perform() is this with the core's own kernel).
    using CoreRunner = std::function<void(const Op& core, std::span<const NDArray>, std::span<NDArray>)>;
    void performWith(std::span<const NDArray> inputs, std::span<NDArray> outputs, const CoreRunner& runCore) const;
    AliasMap destroyMap() const override { return m_core->destroyMap(); }
    /// Never a view, even of a view core op (Blockwise{Subtensor{i}}): the batch is
    /// written into an output of its own, as PyTensor's Blockwise, which has no view_map.
    AliasMap viewMap() const override { return {}; }
    nlohmann::json params() const override;
    std::shared_ptr<const Graph> innerGraph() const override { return m_core->innerGraph(); }

private:
    std::vector<Type> infer(std::span<const Type* const> inputs, std::span<const NDArray* const> constants) const;
    OpPtr m_core;
    GufuncSignature m_sig;
    std::optional<std::string> m_name;
};

/// Blockwise(core) with the signature given (PyTensor takes the core op's
/// gufunc_signature when none is), optionally named.
OpPtr makeBlockwise(OpPtr core, const std::string& signature, std::optional<std::string> name = std::nullopt);
/// pt.matmul's op: Blockwise{Dot, (m,n),(n,p)->(m,p)} named "Matmul".
OpPtr makeMatmul();

} // namespace tl
