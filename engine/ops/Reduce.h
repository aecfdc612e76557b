#pragma once
// The CAReduce family (PyTensor's pytensor.tensor.elemwise.CAReduce and its
// subclasses in tensor/math.py): one op, OpKind::Reduce, that folds a binary
// scalar op over a list of axes or all of them. Its class says how PyTensor
// prints it and which dtypes it gives by default:
//   Sum{axis=1}, Prod{axes=None}, ProdWithoutZeros{axis=0}   add / mul / mul_without_zeros
//   Max{axes=[0, 2]}, Min{axis=0}                            maximum / minimum (NaN wins)
//   All{axes=None}, Any{axis=1}                              and / or of x != 0
//   CAReduce{maximum, axis=1}                                any other binary scalar op
//   CAReduce{Composite{(i0 + sqr(i1))}, axis=1}              a fused Composite: i0 is the
//                                                            accumulator, i1.. the elements
// The accumulator has PyTensor's acc_dtype (ints at least int64, float32 in
// float64) and the result its dtype (Sum and Prod upcast bool and small ints to
// int64; Max, Min and CAReduce keep the input's; All and Any give bool), both
// overridable as PyTensor's `dtype=` / `acc_dtype=` are. tensorlens has no
// uint64, so a uint8 Sum gives int64 where PyTensor gives uint64.
// A fused Composite of k + 1 inputs reduces k inputs, broadcast elementwise
// (local_careduce_fusion builds them; PyTensor 2.34 only fuses one).
#include "ir/Op.h"
#include "ops/Composite.h"
#include "ops/ScalarOps.h"

#include <memory>
#include <optional>
#include <vector>

namespace tl {

enum class ReduceKind { Sum, Max, Prod, Min, All, Any, ProdWithoutZeros, CAReduce };

/// PyTensor's class name ("Sum", "ProdWithoutZeros", "CAReduce").
const char* reduceKindName(ReduceKind k);
std::optional<ReduceKind> parseReduceKind(std::string_view name);

/// The optional parameters of a reduction, as PyTensor's props.
struct ReduceParams {
    std::optional<DType> dtype;     // output dtype (PyTensor's `dtype`); nullopt: the class default
    std::optional<DType> accDType;  // accumulator dtype (`acc_dtype`); nullopt: PyTensor's default
    bool noZerosInInput = false;    // Prod only
};

class ReduceOp final : public Op {
public:
    /// A fixed-op class (Sum ... ProdWithoutZeros). axes: nullopt = all axes (printed
    /// axes=None); entries may be negative until applied, must be distinct.
    ReduceOp(ReduceKind kind, std::optional<std::vector<int>> axes, ReduceParams params = {});
    /// CAReduce{code} for a binary scalar op that is commutative and associative
    /// (add, mul, maximum, minimum, and, or, xor, mul_without_zeros). Throws
    /// std::invalid_argument for any other.
    ReduceOp(ScalarOpCode code, std::optional<std::vector<int>> axes, ReduceParams params = {});
    /// CAReduce{Composite}: input 0 of the composite is the accumulator, inputs 1..k the
    /// elements of the op's k inputs; one output, in the accumulator's dtype.
    ReduceOp(CompositePtr composite, std::optional<std::vector<int>> axes, ReduceParams params = {});

    ReduceKind reduceKind() const { return m_kind; }
    const std::optional<std::vector<int>>& axes() const { return m_axes; }
    const ReduceParams& reduceParams() const { return m_params; }
    /// The scalar op folded (for a Composite: meaningless, see composite()).
    ScalarOpCode scalarOp() const { return m_code; }
    const CompositePtr& composite() const { return m_composite; }
    /// Inputs the op takes: 1, or the composite's inputs minus the accumulator.
    int numInputs() const;
    /// The reduced axes for an ndim-d input, normalized and checked (throws OpTypeError).
    std::vector<int> reducedAxes(int ndim) const;
    /// Output and accumulator dtypes for these input dtypes (throws OpTypeError).
    DType outputDType(std::span<const DType> inputs) const;
    DType accumulatorDType(std::span<const DType> inputs) const;
    /// The same reduction with other axes (rewrites that move a reduction).
    OpPtr withAxes(std::optional<std::vector<int>> axes) const;

    /// Sum{axes=None}, Max{axis=1}, Prod{axis=1, no_zeros_in_input}), CAReduce{Composite{...}, axis=1}.
    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    /// Zero-size reductions give the identity; Max and Min refuse them, as PyTensor.
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    /// {"op": "Sum", "axes": [1]} plus "dtype", "acc_dtype" when given,
    /// "no_zeros_in_input" for such a Prod, "scalar_op" for CAReduce ("composite":
    /// the body is innerGraph()).
    nlohmann::json params() const override;
    std::shared_ptr<const Graph> innerGraph() const override;
    bool equals(const Op& other) const override;
    size_t hash() const override;

private:
    ReduceKind m_kind;
    ScalarOpCode m_code = ScalarOpCode::Add;
    CompositePtr m_composite;
    std::optional<std::vector<int>> m_axes;
    ReduceParams m_params;
    std::shared_ptr<const struct ReducePlanCache> m_plans;
};

/// Output dtype of a reduction of `in` with default parameters.
DType reduceOutputDType(ReduceKind kind, DType in);
OpPtr makeReduce(ReduceKind kind, std::optional<std::vector<int>> axes, ReduceParams params = {});
OpPtr makeCAReduce(ScalarOpCode code, std::optional<std::vector<int>> axes, ReduceParams params = {});
OpPtr makeCAReduce(CompositePtr composite, std::optional<std::vector<int>> axes, ReduceParams params = {});

} // namespace tl
