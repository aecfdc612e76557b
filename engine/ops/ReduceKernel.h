#pragma once
// The kernel of ReduceOp (ops/Reduce.h). A reduction is compiled, once per input
// dtype signature, into a plan: a map from the inputs' elements to values in the
// accumulator dtype (a conversion, or a ScalarProgram for a fused Composite) and a
// fold (a binary scalar op with an identity, or for a Composite PyTensor did not
// build as `op(i0, f(i1, ...))` the Composite itself, started from the first
// element). Running a plan walks the broadcast input in C order with the innermost
// dimension in blocks: each block is mapped with the block loops of ScalarKernels,
// then folded into the accumulator, either elementwise (the innermost dimension is
// kept) or into one value with several partial accumulators (it is reduced).
#include "core/NDArray.h"
#include "ops/ScalarOps.h"
#include "ops/ScalarProgram.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tl {

class ReduceOp;

struct ReducePlan {
    std::string opName;  // for errors
    std::vector<DType> inputDTypes;
    DType accDType = DType::Float64;
    DType outDType = DType::Float64;
    /// inputs -> one value in accDType per element; null: input 0 converted.
    std::shared_ptr<const ScalarProgram> map;
    /// All / Any: elements are read as x != 0 before the fold.
    bool asBool = false;
    /// The fold: a scalar op with an identity, or (unset) `combine` from the first element.
    std::optional<ScalarOpCode> foldCode;
    /// (accumulator, value) -> accumulator, the whole Composite, when foldCode is unset.
    std::shared_ptr<const ScalarProgram> combine;
    /// Max and Min refuse zero-size reductions (PyTensor's NonZeroDimsCAReduce).
    bool refuseEmpty = false;
};

/// The plan of `op` for inputs of these dtypes. Throws OpTypeError when the dtypes
/// do not fit (a Composite's input dtypes, an acc_dtype that loses precision).
std::shared_ptr<const ReducePlan> planReduction(const ReduceOp& op, std::span<const DType> inputs);

/// Reduces `inputs` (equal ranks, broadcast elementwise) over `axes` (normalized,
/// distinct) into `out` (reused when it fits). Throws ExecError naming the op for
/// shapes that do not broadcast and for zero-size reductions without identity.
void runReduction(const ReducePlan& plan, std::span<const NDArray> inputs, const std::vector<int>& axes, NDArray& out);

/// Plans of one op per input dtype signature, built on first use; the last one
/// found is looked up without a lock.
struct ReducePlanCache {
    const ReducePlan& get(const ReduceOp& op, std::span<const DType> inputs) const;

private:
    DTypeSignatureCache<ReducePlan> m_plans;
};

} // namespace tl
