#pragma once
// OpKind::Scalar: one scalar op on ScalarType variables -- the nodes of a
// Composite's inner graph, printed by their inner name (`exp`, `add`, `LT`,
// `Cast{float32}`), as in PyTensor's pytensor.scalar graphs.
#include "ir/Op.h"
#include "ops/ScalarOps.h"
#include "ops/ScalarProgram.h"

namespace tl {

class ScalarOp final : public Op {
public:
    /// `castTo` is the target dtype of Cast and ignored (kept Float64) otherwise.
    explicit ScalarOp(ScalarOpCode code, DType castTo = DType::Float64);

    ScalarOpCode code() const { return m_code; }
    DType castTo() const { return m_castTo; }

    std::string name() const override;
    /// Inputs must be ScalarTypes, as many as the op takes; the output dtype follows
    /// PyTensor's rules (scalarOutputDType).
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    /// Inputs and the output are 0-d arrays.
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
    /// {"scalar_op": "exp"}, plus "dtype" for cast.
    nlohmann::json params() const override;

private:
    ScalarOpCode m_code;
    DType m_castTo;
    OpProgramCache m_programs;
};

/// The ScalarOp of (code, castTo), one instance shared by every caller (ops/InternedScalarOps.h).
OpPtr makeScalarOp(ScalarOpCode code, DType castTo = DType::Float64);

/// Parses {"scalar_op": key-or-name[, "dtype": d]} (shared with Elemwise's params).
/// Throws std::invalid_argument naming the key.
std::pair<ScalarOpCode, DType> parseScalarOpParams(const nlohmann::json& params, const std::string& opName);

} // namespace tl
