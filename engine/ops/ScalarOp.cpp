#include "ops/ScalarOp.h"

#include "ir/Graph.h"
#include "ops/InternedScalarOps.h"

#include <nlohmann/json.hpp>

namespace tl {

ScalarOp::ScalarOp(ScalarOpCode code, DType castTo)
    : Op(OpKind::Scalar), m_code(code), m_castTo(code == ScalarOpCode::Cast ? castTo : DType::Float64) {}

std::string ScalarOp::name() const { return scalarOpName(m_code, m_castTo); }

std::vector<Type> ScalarOp::inferTypes(std::span<const Type* const> inputs) const {
    std::vector<DType> ds;
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (!inputs[i]->isScalarType())
            throw OpTypeError("input " + std::to_string(i) + " of scalar op " + name() + " has type " +
                              inputs[i]->toString() + "; scalar ops take ScalarTypes (use Elemwise on tensors)");
        ds.push_back(inputs[i]->dtype);
    }
    return {Type::scalar(scalarOutputDType(m_code, ds, m_castTo))};
}

void ScalarOp::perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const {
    DType ds[8];
    std::vector<DType> many;
    std::span<const DType> key;
    if (inputs.size() <= std::size(ds)) {
        for (size_t i = 0; i < inputs.size(); ++i) ds[i] = inputs[i].dtype();
        key = std::span<const DType>(ds, inputs.size());
    } else {
        for (const NDArray& a : inputs) many.push_back(a.dtype());
        key = many;
    }
    const ScalarProgram& prog = m_programs.get(m_code, m_castTo, key);
    const void* ins[8];
    std::vector<const void*> insMany;
    const void** ip = ins;
    if (inputs.size() > std::size(ins)) {
        insMany.resize(inputs.size());
        ip = insMany.data();
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i].size() != 1)
            throw ExecError(name() + ": input " + std::to_string(i) + " has " + std::to_string(inputs[i].size()) +
                            " elements, a scalar op takes single values");
        ip[i] = inputs[i].rawData();
    }
    NDArray& out = outputs[0];
    const DType od = prog.outputDType(0);
    if (!(out.valid() && out.storage().use_count() == 1 && out.ndim() == 0 && out.dtype() == od))
        out = NDArray::empty(od, {});
    ProgramWorkspace& ws = ProgramWorkspace::local();
    ws.bind(prog, 0);
    void* op[1] = {out.rawData()};
    prog.runBlock(ws, ip, op, 1);
}

nlohmann::json ScalarOp::params() const {
    nlohmann::json j = {{"scalar_op", std::string(scalarOpInfo(m_code).key)}};
    if (m_code == ScalarOpCode::Cast) j["dtype"] = std::string(dtypeName(m_castTo));
    return j;
}

OpPtr makeScalarOp(ScalarOpCode code, DType castTo) {
    static InternedScalarOps ops;
    return ops.get(code, castTo, [](ScalarOpCode c, DType t) { return std::make_shared<ScalarOp>(c, t); });
}

std::pair<ScalarOpCode, DType> parseScalarOpParams(const nlohmann::json& params, const std::string& opName) {
    if (!params.is_object() || !params.contains("scalar_op") || !params["scalar_op"].is_string())
        throw std::invalid_argument(opName + " params: /scalar_op must be a string naming a scalar op");
    const std::string key = params["scalar_op"].get<std::string>();
    auto code = parseScalarOp(key);
    if (!code) throw std::invalid_argument(opName + " params: /scalar_op: unknown scalar op '" + key + "'");
    DType castTo = DType::Float64;
    if (*code == ScalarOpCode::Cast) {
        if (!params.contains("dtype") || !params["dtype"].is_string())
            throw std::invalid_argument(opName + " params: /dtype: cast needs a target dtype");
        auto d = parseDType(params["dtype"].get<std::string>());
        if (!d) throw std::invalid_argument(opName + " params: /dtype: unknown dtype '" + params["dtype"].get<std::string>() + "'");
        castTo = *d;
    }
    return {*code, castTo};
}

OpPtr makeOpScalar(const nlohmann::json& params, std::shared_ptr<const Graph> inner) {
    if (inner) throw std::invalid_argument("Scalar op: has no inner graph");
    auto [code, castTo] = parseScalarOpParams(params, "Scalar");
    return makeScalarOp(code, castTo);
}

} // namespace tl
