#pragma once
// Elemwise: a scalar op (or a fused Composite) applied element by element with
// NumPy broadcasting, as PyTensor's Elemwise. Inputs have equal ranks (the
// builder inserts ExpandDims first, as Elemwise.make_node does). An inplace
// pattern {output: input} makes the output overwrite that input (destroyMap).
#include "ops/Composite.h"
#include "ir/Op.h"
#include "ops/ScalarLoop.h"
#include "ops/ScalarOps.h"

#include <map>

namespace tl {

/// {output index: input index} the output overwrites (PyTensor's inplace_pattern).
using InplacePattern = std::map<int, int>;

class Elemwise final : public Op {
public:
    /// A single scalar op; `castTo` is Cast's target dtype (ignored otherwise).
    explicit Elemwise(ScalarOpCode code, DType castTo = DType::Float64, InplacePattern inplace = {});
    /// A fused Composite.
    explicit Elemwise(CompositePtr composite, InplacePattern inplace = {});
    /// A ScalarLoop (its inputs: n_steps, states, constants).
    explicit Elemwise(ScalarLoopPtr loop, InplacePattern inplace = {});

    bool isComposite() const { return m_composite != nullptr; }
    /// A ScalarLoop: neither a plain scalar op nor a Composite, so the rewrites that
    /// look at either leave it alone (plainElemwiseCode is empty for it).
    bool isScalarLoop() const { return m_loop != nullptr; }
    const ScalarLoopPtr& scalarLoop() const { return m_loop; }
    /// The scalar op (meaningless for a Composite or a ScalarLoop).
    ScalarOpCode scalarOp() const { return m_code; }
    DType castTo() const { return m_castTo; }
    const CompositePtr& composite() const { return m_composite; }
    const InplacePattern& inplacePattern() const { return m_inplace; }
    int numOutputs() const { return m_composite ? m_composite->numOutputs() : m_loop ? m_loop->numOutputs() : 1; }
    /// The compiled scalar program perform() runs on inputs of these dtypes (a Composite
    /// has one; a plain op one per signature). Throws OpTypeError for dtypes it rejects,
    /// and for a ScalarLoop, which runs its body's program step by step.
    const ScalarProgram& program(std::span<const DType> inputDTypes) const;
    /// The same op with another inplace pattern (what the inplace rewrite installs).
    OpPtr withInplace(InplacePattern inplace) const;

    /// `Exp`, `True_div`, `Cast{float32}`, the capitalised Composite name, `Scalarloop`.
    std::string name() const override;
    /// Equal ranks; NumPy static broadcasting (a static 1 stretches; unknown with 1
    /// stays unknown; two different known sizes are an error naming the dim);
    /// dtypes by the scalar op's rules (a Composite needs its exact input dtypes).
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    /// Broadcasts at run time; writes into an inplace input or a reusable output
    /// cell (use_count 1, right shape and dtype) instead of allocating.
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    AliasMap destroyMap() const override;
    /// {"scalar_op": "exp"} / {"scalar_op": "cast", "dtype": "int8"} / {"scalar_op": "composite"} /
    /// {"scalar_op": "scalar_loop", "is_while": false, "class": "ScalarLoop"}, plus
    /// {"inplace_pattern": {"0": 1}} when inplace. A Composite's or ScalarLoop's scalar
    /// graph is innerGraph().
    nlohmann::json params() const override;
    std::shared_ptr<const Graph> innerGraph() const override;
    bool equals(const Op& other) const override;
    size_t hash() const override;

private:
    void performLoop(std::span<const NDArray> inputs, std::span<NDArray> outputs) const;
    void checkInplace(std::span<const Type* const> inputs, const std::vector<Type>& outs) const;

    ScalarOpCode m_code = ScalarOpCode::Identity;
    DType m_castTo = DType::Float64;
    CompositePtr m_composite;
    ScalarLoopPtr m_loop;
    InplacePattern m_inplace;
    OpProgramCache m_programs;  // plain ops: one program per input dtype signature
};

/// Elemwise of one scalar op; without an inplace pattern, one instance shared by every
/// caller (ops/InternedScalarOps.h).
OpPtr makeElemwise(ScalarOpCode code, DType castTo = DType::Float64, InplacePattern inplace = {});
/// Elemwise of a Composite built from a scalar graph (see Composite's constructor).
OpPtr makeCompositeElemwise(const Graph& scalarGraph, InplacePattern inplace = {});
OpPtr makeCompositeElemwise(CompositePtr composite, InplacePattern inplace = {});

} // namespace tl
